/*
 * api_limits.c: what a join must pass before it may touch Redis: the
 * browser-origin rule (origin.c: 403 forbidden_origin) and
 * join_rate_per_ip (ratelimit.c: 429 rate_limited with Retry-After), for
 * the client address clientaddr.c finds behind trusted proxies.
 */
#include <stdio.h>
#include <sys/time.h>

#include <event2/http.h>

#include "api.h"
#include "clientaddr.h"
#include "conf.h"
#include "http.h"
#include "log.h"
#include "origin.h"
#include "ratelimit.h"

int
api_join_origin(struct app *app, struct evhttp_request *req)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *origin = evhttp_find_header(in, "Origin");

	if (origin_allowed(app->conf->cors_origins, origin,
	    evhttp_find_header(in, "Sec-Fetch-Site"),
	    evhttp_find_header(in, "Host")))
		return 0;
	http_send_error(req, 403, "forbidden_origin", "joins from the origin "
	    "'%.100s' are not allowed (see cors_origins)",
	    origin ? origin : "(another site)");
	return -1;
}

void
api_client_addr(struct app *app, struct evhttp_request *req,
    char out[CLIENTADDR_MAX])
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	char *peer = NULL;
	ev_uint16_t port;

	if (evcon)
		evhttp_connection_get_peer(evcon, &peer, &port);
	clientaddr_pick(app->trusted, peer ? peer : "?",
	    evhttp_find_header(evhttp_request_get_input_headers(req),
	    "X-Forwarded-For"), out);
}

int
api_join_rate(struct app *app, struct evhttp_request *req)
{
	char addr[CLIENTADDR_MAX], retry[24];
	struct timeval tv;
	long wait;

	if (app->ratelimit == NULL || app->conf->join_rate_per_ip <= 0)
		return 0;
	api_client_addr(app, req, addr);
	gettimeofday(&tv, NULL);
	wait = ratelimit_take(app->ratelimit, addr,
	    (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000);
	if (wait == 0)
		return 0;
	log_debug("event=join_rate_limited addr=%s", addr);
	snprintf(retry, sizeof retry, "%ld", wait);
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Retry-After", retry);
	http_send_error(req, 429, "rate_limited", "too many joins from this "
	    "address: at most %ld a second", app->conf->join_rate_per_ip);
	return -1;
}
