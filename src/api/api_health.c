/*
 * api_health.c: /healthz (the process answers) and /readyz (it can serve:
 * Redis is there, the file's queues are written into it, it takes writes
 * and acknowledges them as configured, and the process is not shutting
 * down).
 */
#include <jansson.h>

#include "api.h"
#include "http_reply.h"
#include "qstore.h"
#include "store.h"

void
api_healthz(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	http_send_json(api->http, req, 200, json_pack("{s:s}", "status", "ok"));
}

/* 503 with Retry-After, code and why. */
static void
not_ready(struct api *api, struct evhttp_request *req, const char *retry,
    const char *code, const char *why)
{
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Retry-After", retry);
	http_send_error(api->http, req, 503, code, "%s", why);
}

void
api_readyz(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	if (api->draining)
		not_ready(api, req, "1", "draining", "this instance is "
		    "shutting down; send new visitors elsewhere");
	else if (store_is_readonly(api->store))
		not_ready(api, req, "1", "store_readonly", "the Redis reached "
		    "is not a writable master (a replica, or a failover under "
		    "way)");
	else if (!store_is_ready(api->store))
		http_send_unavailable(api->http, req);
	else if (!api->written)
		not_ready(api, req, "1", "starting", "this instance is writing "
		    "its configured queues into Redis");
	else if (store_replicas_short(api->store))
		not_ready(api, req, "1", "store_replicas", "fewer Redis "
		    "replicas confirm writes than redis_wait_replicas asks "
		    "(a replica down, or a new master without one yet): "
		    "every join would be refused");
	else if (qstore_full(api->qstore))
		not_ready(api, req, "5", "store_full", "Redis is at maxmemory "
		    "and refuses writes: no joins or admissions until it has "
		    "room");
	else
		http_send_json(api->http, req, 200, json_pack("{s:s}", "status",
		    "ready"));
}
