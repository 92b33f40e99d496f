/*
 * api_admin_ops.c: what an operator does to a queue's line: pause, resume,
 * close and open it (POST /v1/admin/queues/{q}/<verb>), admit the next N
 * now (POST .../promote), and remove one token (DELETE .../tokens/{t}).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "admission.h"
#include "api.h"
#include "http_reply.h"
#include "log.h"
#include "qstore.h"
#include "ticket.h"

#define PROMOTE_MAX ADMISSION_CAP	/* one script call moves no more */

/* The state a verb sets, and the only state it changes (NULL: any). */
static const struct {
	enum route_id id;
	const char *verb, *to, *from;
} verbs[] = {
	{ ROUTE_ADMIN_PAUSE, "pause", "paused", NULL },
	{ ROUTE_ADMIN_RESUME, "resume", "open", "paused" },
	{ ROUTE_ADMIN_CLOSE, "close", "closed", NULL },
	{ ROUTE_ADMIN_OPEN, "open", "open", "closed" },
};

static void
state_done(enum result r, const char *before, const char *after, void *arg)
{
	struct api_call *c = arg;

	if (r != RESULT_OK)
		api_send_result(c, r);
	else {
		log_info("event=admin action=state queue=%s from=%s to=%s",
		    c->queue, before, after);
		http_send_json(c->api->http, c->req, 200,
		    json_pack("{s:s,s:s,s:s}", "queue", c->queue, "state",
		    after, "previous", before));
	}
	free(c);
}

void
api_admin_state(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;
	struct qs_state st;
	size_t i = 0;

	while (verbs[i].id != m->id)
		i++;
	st = (struct qs_state){ verbs[i].to, verbs[i].from, verbs[i].verb,
	    m->admin };
	if ((c = api_call_new(api, req, m->queue, NULL)) != NULL)
		api_call_sent(c, qstore_state(api->qstore, c->queue, &st,
		    state_done, c));
}

/* ---- promote ------------------------------------------------------------- */

static void
promote_done(enum result r, const char *const *tokens, size_t n, void *arg)
{
	struct api_call *c = arg;
	json_t *list;

	if (r != RESULT_OK) {
		api_send_result(c, r);
		free(c);
		return;
	}
	list = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(list, json_string(tokens[i]));
	log_info("event=admin action=promote queue=%s admitted=%zu", c->queue,
	    n);
	http_send_json(c->api->http, c->req, 200, json_pack("{s:s,s:I,s:o}",
	    "queue", c->queue, "admitted", (json_int_t)n, "tokens", list));
	free(c);
}

/* {"count": N}: N, or -1 after answering 400. */
static long
promote_count(struct api *api, struct evhttp_request *req)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	json_error_t jerr;
	json_t *doc, *n;
	long count = -1;

	doc = len == 0 ? json_null() : json_loadb((const char *)
	    evbuffer_pullup(in, -1), len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL) {
		http_send_error(api->http, req, 400, "bad_json", "the body is "
		    "not valid JSON: %s (line %d)", jerr.text, jerr.line);
		return -1;
	}
	n = json_object_get(doc, "count");
	if (json_is_object(doc) && json_object_size(doc) == 1 &&
	    json_is_integer(n) && json_integer_value(n) >= 1 &&
	    json_integer_value(n) <= PROMOTE_MAX)
		count = (long)json_integer_value(n);
	else
		http_send_error(api->http, req, 400, "bad_request", "the body "
		    "is {\"count\": N}, N an integer from 1 to %d",
		    PROMOTE_MAX);
	json_decref(doc);
	return count;
}

void
api_admin_promote(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;
	long count;

	if ((count = promote_count(api, req)) == -1 ||
	    (c = api_call_new(api, req, m->queue, NULL)) == NULL)
		return;
	api_call_sent(c, qstore_promote(api->qstore, c->queue, count,
	    m->admin, promote_done, c));
}

/* ---- kick ------------------------------------------------------------ */

static void
kick_done(enum result r, int was_active, void *arg)
{
	struct api_call *c = arg;
	char tok[9];

	if (r == RESULT_OK)
		log_info("event=admin action=remove queue=%s token=%s was=%s",
		    c->queue, log_tok(c->token, tok), was_active ? "active" :
		    "waiting");
	api_token_removed(c, r, was_active);
}

void
api_admin_kick(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c = api_call_new(api, req, m->queue, m->token);
	char ticket[TICKET_LEN + 1];

	ticket_of(m->token, ticket);
	if (c != NULL)
		api_call_sent(c, qstore_kick(api->qstore, c->queue, c->token,
		    ticket, m->admin, kick_done, c));
}
