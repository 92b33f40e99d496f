/*
 * api_draw.c: a scheduled queue's draw. GET /v1/queues/{q}/draw (the
 * commitment, then the seed and the order's hash), GET .../draw/order
 * (the tickets in drawn order, streamed from Redis a piece (66 kB) at a
 * time as the client takes them, so a million lines never sit in memory
 * here),
 * and POST /v1/admin/queues/{q}/draw (the announced beacon's value).
 */
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <jansson.h>

#include "api.h"
#include "http_reply.h"
#include "log.h"
#include "qstore_draw.h"
#include "hex.h"
#include "ticket.h"

static json_t *
str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static void
show_done(enum result r, const struct qs_draw_view *v, void *arg)
{
	struct api_call *c = arg;
	json_t *j;

	if (r != RESULT_OK) {
		api_send_result(c, r);
		free(c);
		return;
	}
	j = json_pack("{s:s,s:s,s:s,s:I,s:I,s:o}", "queue", c->queue,
	    "state", v->state, "commit", v->commit, "opens_at",
	    (json_int_t)v->opens_at, "entrants", (json_int_t)v->entrants,
	    "beacon_round", str_or_null(v->beacon_round));
	if (j && strcmp(v->state, "drawn") == 0) {
		json_object_set_new(j, "seed", json_string(v->seed));
		json_object_set_new(j, "beacon", json_string(v->beacon));
		json_object_set_new(j, "drawn_at", json_integer(v->drawn_at));
		json_object_set_new(j, "order_sha256",
		    json_string(v->order_sha256));
		json_object_set_new(j, "draw_ms", json_integer(v->ms));
	}
	http_send_json(c->api->http, c->req, 200, j);
	free(c);
}

void
api_draw(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c = api_call_new(api, req, m->queue, NULL);

	if (c != NULL)
		api_call_sent(c, qstore_draw_show(api->qstore, c->queue,
		    show_done, c));
}

/* ---- the order ---------------------------------------------------------- */

/*
 * One download of the order. Ownership as sse.c's: once the answer has
 * started, a client that goes away makes evhttp call order_closed and
 * leave the request to us; a read in flight then frees o when it returns.
 */
struct order {
	struct api_call call;	/* first */
	long long piece;	/* the next piece of the order to read */
	int inflight;		/* a read of Redis is out */
	int closed;		/* the client went away */
};

static void order_read(struct order *o);

static void
order_forget(struct order *o)
{
	struct evhttp_connection *evcon =
	    evhttp_request_get_connection(o->call.req);

	if (evcon)
		http_set_closecb(o->call.api->http, evcon, NULL, NULL);
}

/* End the answer; a short one (cut) tells the client by the connection
 * closing without the last chunk. */
static void
order_end(struct order *o, int cut)
{
	struct evhttp_connection *evcon =
	    evhttp_request_get_connection(o->call.req);

	order_forget(o);
	if (cut && evcon)
		evhttp_connection_free(evcon);
	else
		evhttp_send_reply_end(o->call.req);
	free(o);
}

static void
order_closed(struct evhttp_connection *evcon, void *arg)
{
	struct order *o = arg;

	(void)evcon;
	o->closed = 1;
	if (evhttp_request_get_connection(o->call.req) == NULL)
		evhttp_send_reply_end(o->call.req);
	if (!o->inflight)
		free(o);
}

static void
order_written(struct evhttp_connection *evcon, void *arg)
{
	struct order *o = arg;

	(void)evcon;
	order_read(o);
}

static void
order_piece(enum result r, const char *bytes, size_t len, void *arg)
{
	struct order *o = arg;
	struct evbuffer *b;

	o->inflight = 0;
	if (o->closed) {
		free(o);
		return;
	}
	if (r != RESULT_OK || (b = evbuffer_new()) == NULL) {
		order_end(o, 1);
		return;
	}
	o->piece++;
	if (len == 0) {
		evbuffer_free(b);
		order_end(o, 0);
		return;
	}
	evbuffer_add(b, bytes, len);
	evhttp_send_reply_chunk_with_cb(o->call.req, b, order_written, o);
	evbuffer_free(b);
}

static void
order_read(struct order *o)
{
	o->inflight = 1;
	if (qstore_draw_order(o->call.api->qstore, o->call.queue, o->piece,
	    order_piece, o) == -1) {
		o->inflight = 0;
		order_end(o, 1);
	}
}

static void
order_start(enum result r, const struct qs_draw_view *v, void *arg)
{
	struct order *o = arg;
	struct evhttp_request *req = o->call.req;
	struct api *api = o->call.api;

	if (r != RESULT_OK) {
		api_send_result(&o->call, r);
		free(o);
		return;
	}
	if (strcmp(v->state, "drawn") != 0) {
		http_send_error(api->http, req, 409, "draw_not_done",
		    "the draw of queue '%s' is not done yet (state %s)",
		    o->call.queue, v->state);
		free(o);
		return;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "text/plain; charset=us-ascii");
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "X-Order-SHA256", v->order_sha256);
	http_observe(api->http, req, 200);
	evhttp_send_reply_start(req, 200, "OK");
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		/* The head alone: evhttp sends no piece after HEAD. */
		evhttp_send_reply_end(req);
		free(o);
		return;
	}
	http_set_closecb(api->http, evhttp_request_get_connection(req),
	    order_closed, o);
	order_read(o);
}

void
api_draw_order(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct order *o = calloc(1, sizeof *o);

	if (o == NULL) {
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		return;
	}
	o->call.api = api, o->call.req = req;
	snprintf(o->call.queue, sizeof o->call.queue, "%s", m->queue);
	if (qstore_draw_show(api->qstore, o->call.queue, order_start,
	    o) == -1) {
		http_send_unavailable(api->http, req);
		free(o);
		return;
	}
	http_await(req);
}

/* ---- the beacon --------------------------------------------------------- */

static void
beacon_done(enum result r, void *arg)
{
	struct api_call *c = arg;

	if (r != RESULT_OK)
		api_send_result(c, r);
	else {
		log_info("event=admin action=beacon queue=%s", c->queue);
		http_send_json(c->api->http, c->req, 200, json_pack("{s:s,s:s}",
		    "queue", c->queue, "result", "taken"));
	}
	free(c);
}

/* {"beacon": "<hex>"}: the beacon's bytes as hex, 1 to 256 of them. */
static const char *
beacon_body(struct api *api, struct evhttp_request *req, json_t **doc)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	unsigned char raw[TICKET_BEACON_MAX];
	json_error_t jerr;
	const char *hex;

	*doc = len ? json_loadb((const char *)evbuffer_pullup(in, -1), len,
	    JSON_REJECT_DUPLICATES, &jerr) : NULL;
	if (*doc == NULL) {
		http_send_error(api->http, req, 400, "bad_json", "the body is "
		    "the JSON object {\"beacon\": \"<hex>\"}");
		return NULL;
	}
	if (!json_is_object(*doc) || json_object_size(*doc) != 1 ||
	    (hex = json_string_value(json_object_get(*doc, "beacon"))) ==
	    NULL || hex[0] == '\0' || hex_decode(hex, raw, sizeof raw) < 1) {
		http_send_error(api->http, req, 400, "bad_request",
		    "the body is {\"beacon\": \"<hex>\"}, the announced "
		    "round's value as 2 to %d hex digits",
		    2 * TICKET_BEACON_MAX);
		return NULL;
	}
	return hex;
}

void
api_admin_draw(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;
	const char *hex;
	char lower[2 * TICKET_BEACON_MAX + 1];
	json_t *doc = NULL;

	if ((hex = beacon_body(api, req, &doc)) != NULL &&
	    (c = api_call_new(api, req, m->queue, NULL)) != NULL) {
		size_t i;

		for (i = 0; hex[i]; i++)
			lower[i] = (char)(hex[i] >= 'A' && hex[i] <= 'F' ?
			    hex[i] - 'A' + 'a' : hex[i]);
		lower[i] = '\0';
		api_call_sent(c, qstore_draw_beacon(api->qstore, c->queue,
		    lower, m->admin, beacon_done, c));
	}
	json_decref(doc);
}
