/* api_queue.c: GET /v1/queues/{q}, the public summary of a queue. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api.h"
#include "conf.h"
#include "facts.h"
#include "http.h"

static void
summary_done(struct api_call *c, const redisReply *r)
{
	struct facts f;
	long long eta;

	if (facts_parse(r, &f) == -1 || strcmp(f.result, "ok") != 0) {
		api_reply_result(c, f.result);
		return;
	}
	eta = queue_eta(&f.q, f.waiting + 1);
	http_send_json(c->req, 200, json_pack("{s:s,s:s,s:I,s:I,s:o}",
	    "queue", c->queue, "state", conf_state_name(f.q.state),
	    "waiting", (json_int_t)f.waiting, "active", (json_int_t)f.n,
	    "eta_seconds_for_new", eta < 0 ? json_null() : json_integer(eta)));
}

void
api_summary(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	struct api_call *c = calloc(1, sizeof *c);
	const char *argv[API_QUEUE_KEYS];
	struct queue_keys k;

	if (c == NULL) {
		http_send_error(req, 500, "internal", "out of memory");
		return;
	}
	c->app = app, c->req = req, c->done = summary_done;
	strcpy(c->queue, m->queue);
	api_queue_argv(app, m->queue, &k, argv);
	api_call_run(c, LUA_SUMMARY, API_QUEUE_KEYS, API_QUEUE_KEYS, argv);
}
