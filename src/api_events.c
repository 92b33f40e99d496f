/*
 * api_events.c: GET /v1/queues/{q}/tokens/{t}/events, the live stream of
 * a token. One status call decides how it starts: a waiting token gets a
 * stream (broadcast.c), an active one gets `entered` at once, an unknown
 * one a 404.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <jansson.h>

#include "api.h"
#include "broadcast.h"
#include "conf.h"
#include "facts.h"
#include "http.h"
#include "sse.h"

struct events_call {
	struct api_call call;	/* first: api.c frees it as an api_call */
	struct ipslot *slot;
	unsigned long last_id;
};

/* An already admitted token: one `entered`, and the stream ends. */
static void
events_entered(struct api_call *c, const struct facts *f,
    unsigned long last_id)
{
	struct stream st = { 0 };
	struct token_status ts;
	char *data, pass[PASS_MAX];

	st.id = (uint32_t)last_id;
	facts_status(f, c->queue, &ts);
	api_pass_attach(c->app, &ts, pass);
	sse_open(&st, c->req, c->app->conf->push_interval * 1000, 30, NULL);
	if ((data = reply_status_text(&ts)) != NULL)
		sse_event(&st, "entered", data, (size_t)-1);
	free(data);
	sse_end(&st);
}

static void
events_done(struct api_call *c, const redisReply *r)
{
	struct events_call *e = (struct events_call *)c;
	struct facts f;

	if (facts_parse(r, &f) == -1 || strcmp(f.result, "ok") != 0) {
		broadcast_unreserve(c->app->broadcast, e->slot);
		api_reply_result(c, f.result);
		return;
	}
	if (strcmp(f.status, "active") == 0) {
		broadcast_unreserve(c->app->broadcast, e->slot);
		events_entered(c, &f, e->last_id);
		return;
	}
	broadcast_start(c->app->broadcast, c->req, c->queue, c->token, &f,
	    e->last_id, e->slot);
}

static void
events_fail(struct api_call *c)
{
	broadcast_unreserve(c->app->broadcast, ((struct events_call *)c)->slot);
}

/* Last-Event-ID orders events only; a bad one is ignored. */
static unsigned long
events_last_id(struct evhttp_request *req)
{
	const char *v = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Last-Event-ID");
	unsigned long id;
	char *end;

	if (v == NULL)
		return 0;
	errno = 0;
	id = strtoul(v, &end, 10);
	return errno || *end != '\0' || id > 0x7fffffffUL ? 0 : id;
}

static int
events_reserve(struct app *app, struct evhttp_request *req,
    struct ipslot **slot)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	char *addr = NULL;
	ev_uint16_t port;
	int rc;

	if (evcon)
		evhttp_connection_get_peer(evcon, &addr, &port);
	rc = broadcast_reserve(app->broadcast, addr ? addr : "?", slot);
	if (rc == 0)
		return 0;
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Retry-After", "5");
	if (rc == 429)
		http_send_error(req, 429, "rate_limited", "too many open "
		    "streams from this address");
	else
		http_send_error(req, 503, "too_many_streams", "this server "
		    "holds as many streams as it may; try again shortly");
	return -1;
}

void
api_events(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	struct events_call *e = calloc(1, sizeof *e);
	const char *argv[API_QUEUE_KEYS + 1];
	struct queue_keys k;

	if (e == NULL) {
		http_send_error(req, 500, "internal", "out of memory");
		return;
	}
	if (events_reserve(app, req, &e->slot) == -1) {
		free(e);
		return;
	}
	e->call.app = app, e->call.req = req, e->call.done = events_done;
	e->last_id = events_last_id(req);
	strcpy(e->call.queue, m->queue);
	strcpy(e->call.token, m->token);
	api_queue_argv(app, m->queue, &k, argv);
	argv[API_QUEUE_KEYS] = e->call.token;
	e->call.fail = events_fail;
	e->call.stream = 1;
	api_call_run(&e->call, LUA_STATUS, API_QUEUE_KEYS, API_QUEUE_KEYS + 1,
	    argv);
}
