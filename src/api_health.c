/*
 * api_health.c: /healthz (the process answers) and /readyz (it can serve:
 * Redis is there and it is not shutting down).
 */
#include <jansson.h>

#include "api.h"
#include "http.h"
#include "qstore.h"
#include "store.h"

void
api_healthz(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	http_send_json(req, 200, json_pack("{s:s}", "status", "ok"));
}

void
api_readyz(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	if (app->draining) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Retry-After", "1");
		http_send_error(req, 503, "draining", "this instance is "
		    "shutting down; send new visitors elsewhere");
		return;
	}
	if (store_is_readonly(app->store)) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Retry-After", "1");
		http_send_error(req, 503, "store_readonly", "the Redis reached "
		    "is not a writable master (a replica, or a failover under "
		    "way)");
		return;
	}
	if (!store_is_ready(app->store)) {
		http_send_unavailable(req);
		return;
	}
	if (qstore_full(app->qstore)) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Retry-After", "5");
		http_send_error(req, 503, "store_full", "Redis is at maxmemory "
		    "and refuses writes: no joins or admissions until it has "
		    "room");
		return;
	}
	http_send_json(req, 200, json_pack("{s:s}", "status", "ready"));
}
