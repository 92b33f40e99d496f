/*
 * api_limits.c: what a join must pass before it may touch Redis: the
 * browser-origin rule (origin.c: 403 forbidden_origin) and
 * join_rate_per_ip (ratelimit.c: 429 rate_limited with Retry-After), for
 * the client address dispatch.c resolved behind trusted proxies. Each
 * says its verdict to the handler, which answers.
 */
#include <stdio.h>
#include <sys/time.h>

#include <event2/http.h>

#include "api.h"
#include "conf.h"
#include "log.h"
#include "origin.h"
#include "ratelimit.h"

int
api_join_origin(struct api *api, struct evhttp_request *req,
    struct verdict *v)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *origin = evhttp_find_header(in, "Origin");

	if (origin_allowed(api_conf(api)->cors_origins, origin,
	    evhttp_find_header(in, "Sec-Fetch-Site"),
	    evhttp_find_header(in, "Host")))
		return 0;
	return verdict_refuse(v, 403, "forbidden_origin", "joins from the "
	    "origin '%.100s' are not allowed (see cors_origins)",
	    origin ? origin : "(another site)");
}

int
api_join_rate(struct api *api, const char *client, struct verdict *v)
{
	struct timeval tv;
	long wait;

	if (api->ratelimit == NULL || api_conf(api)->join_rate_per_ip <= 0)
		return 0;
	gettimeofday(&tv, NULL);
	wait = ratelimit_take(api->ratelimit, client,
	    (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000);
	if (wait == 0)
		return 0;
	log_debug("event=join_rate_limited addr=%s", client);
	verdict_retry_after(v, wait);
	return verdict_refuse(v, 429, "rate_limited", "too many joins from "
	    "this address: at most %ld a second",
	    api_conf(api)->join_rate_per_ip);
}
