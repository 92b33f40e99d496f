/*
 * api_summary.c: GET /v1/queues/{q}, the public summary of a queue. Every
 * figure comes from one read of Redis (summary.lua), none from this
 * instance's last tick: an admin call's change shows in the next summary
 * on any instance.
 */
#include <stdlib.h>

#include <jansson.h>

#include "api.h"
#include "http_reply.h"
#include "qstore.h"

static void
summary_done(enum result r, const struct standing *s, void *arg)
{
	struct api_call *c = arg;
	long long eta;

	if (r != RESULT_OK) {
		api_send_result(c, r);
		free(c);
		return;
	}
	eta = eta_seconds(&s->q, s->waiting + 1);
	http_send_json(c->api->http, c->req, 200,
	    json_pack("{s:s,s:s,s:I,s:I,s:o,s:I}", "queue", c->queue,
	    "state", conf_state_name(s->q.state),
	    "waiting", (json_int_t)s->waiting, "active", (json_int_t)s->n,
	    "eta_seconds_for_new", eta < 0 ? json_null() : json_integer(eta),
	    "fail_open_until", (json_int_t)s->fail_open_until));
	free(c);
}

void
api_summary(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c = api_call_new(api, req, m->queue, NULL);

	if (c != NULL)
		api_call_sent(c, qstore_summary(api->qstore, c->queue,
		    summary_done, c));
}
