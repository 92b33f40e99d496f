/*
 * dispatch.h: a request the server (http.h) took in, to its endpoint's
 * handler (routes.def, api.h), or answered here when it may not go on.
 */
#ifndef WR_DISPATCH_H
#define WR_DISPATCH_H

#include <event2/http.h>

#include "http.h"

/* http.h's http_dispatch_cb; arg is the process's struct app. */
void dispatch_request(void *arg, struct evhttp_request *req,
    const struct http_in *in);

#endif
