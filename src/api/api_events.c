/*
 * api_events.c: GET /v1/queues/{q}/tokens/{t}/events, the live stream of
 * a token. One status call decides how it starts: a waiting token gets a
 * stream (streams.c), an active one gets `entered` at once, an unknown
 * one a 404, and HEAD the stream's head alone. Streams are counted per
 * client address, the one dispatch.c resolved behind trusted_proxies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>

#include "admission.h"
#include "api.h"
#include "http_reply.h"
#include "qstore.h"
#include "sse.h"
#include "streams.h"

struct events_call {
	struct api_call call;	/* first */
	struct ipslot *slot;
	unsigned long last_id;
};

/* An already admitted token: one `entered`, and the stream ends. */
static void
events_entered(struct api_call *c, const struct standing *s,
    unsigned long last_id)
{
	struct stream st = { 0 };
	struct token_status ts;
	char *data, pass[PASS_MAX];

	st.id = (uint32_t)last_id;
	standing_status(s, c->queue, api_conf(c->api)->push_interval, &ts);
	ts.notice = admission_notice(c->api->admission, c->queue, NULL);
	api_pass_attach(c->api, &ts, pass);
	sse_open(&st, c->api->http, c->req,
	    api_conf(c->api)->push_interval * 1000,
	    30, NULL);
	if ((data = reply_status_text(&ts)) != NULL)
		sse_event(&st, "entered", data, (size_t)-1);
	free(data);
	sse_end(&st, c->api->http);
}

/* HEAD: the head that the stream would start with, and no stream. */
static void
events_head(struct api_call *c)
{
	struct stream st = { 0 };

	sse_open(&st, c->api->http, c->req,
	    api_conf(c->api)->push_interval * 1000,
	    30, NULL);
	sse_end(&st, c->api->http);
}

static void
events_done(enum result r, const struct standing *s, void *arg)
{
	struct events_call *e = arg;
	struct api_call *c = &e->call;

	if (r != RESULT_OK) {
		streams_unreserve(c->api->streams, e->slot);
		api_send_result(c, r);
	} else if (evhttp_request_get_command(c->req) == EVHTTP_REQ_HEAD) {
		streams_unreserve(c->api->streams, e->slot);
		events_head(c);
	} else if (s->active) {
		streams_unreserve(c->api->streams, e->slot);
		events_entered(c, s, e->last_id);
	} else
		streams_start(c->api->streams, c->req, c->queue, c->token, s,
		    e->last_id, e->slot);
	free(e);
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
events_reserve(struct api *api, struct evhttp_request *req,
    const char *client, struct ipslot **slot)
{
	int rc = streams_reserve(api->streams, client, slot);

	if (rc == 0)
		return 0;
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Retry-After", "5");
	if (rc == 429)
		http_send_error(api->http, req, 429, "rate_limited", "too many "
		    "open streams from this address");
	else
		http_send_error(api->http, req, 503, "too_many_streams", "this "
		    "server holds as many streams as it may; try again "
		    "shortly");
	return -1;
}

void
api_events(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct events_call *e = calloc(1, sizeof *e);

	if (e == NULL) {
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		return;
	}
	if (events_reserve(api, req, client, &e->slot) == -1) {
		free(e);
		return;
	}
	e->call.api = api, e->call.req = req;
	e->last_id = events_last_id(req);
	strcpy(e->call.queue, m->queue);
	strcpy(e->call.token, m->token);
	/* No http_await: the answer may be a stream. */
	if (qstore_status(api->qstore, m->queue, m->token, events_done,
	    e) == -1) {
		streams_unreserve(api->streams, e->slot);
		api_send_result(&e->call, RESULT_UNAVAILABLE);
		free(e);
	}
}
