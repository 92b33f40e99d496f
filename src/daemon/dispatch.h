/*
 * dispatch.h: a request the server (http.h) took in, to its endpoint's
 * handler (routes.def, api.h), or answered here when it may not go on.
 */
#ifndef WR_DISPATCH_H
#define WR_DISPATCH_H

#include <event2/http.h>

#include "app.h"
#include "http.h"

/* http.h's http_dispatch_cb. */
void dispatch_request(struct app *app, struct evhttp_request *req,
    const struct http_in *in);

#endif
