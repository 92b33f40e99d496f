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
#include "http.h"
#include "log.h"

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

static int
reply_is(const redisReply *r, size_t n, const char *first)
{
	return r->type == REDIS_REPLY_ARRAY && r->elements == n &&
	    r->element[0]->type == REDIS_REPLY_STRING &&
	    strcmp(r->element[0]->str, first) == 0;
}

/* A reply that is not the success expected: { 'no_queue' } and the like. */
static void
reply_other(struct api_call *c, const redisReply *r)
{
	api_reply_result(c, r->type == REDIS_REPLY_ARRAY && r->elements >= 1 &&
	    r->element[0]->type == REDIS_REPLY_STRING ? r->element[0]->str :
	    "bad reply");
}

static void
state_done(struct api_call *c, const redisReply *r)
{
	if (!reply_is(r, 3, "ok") || r->element[1]->type != REDIS_REPLY_STRING ||
	    r->element[2]->type != REDIS_REPLY_STRING) {
		reply_other(c, r);
		return;
	}
	log_info("event=admin action=state queue=%s from=%s to=%s", c->queue,
	    r->element[1]->str, r->element[2]->str);
	http_send_json(c->req, 200, json_pack("{s:s,s:s,s:s}", "queue",
	    c->queue, "state", r->element[2]->str, "previous",
	    r->element[1]->str));
}

void
api_admin_state(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	const char *argv[3];
	struct queue_keys k;
	struct api_call *c;
	size_t i = 0;

	while (verbs[i].id != m->id)
		i++;
	if ((c = api_call_new(app, req, m->queue, state_done)) == NULL)
		return;
	keys_queue(&k, app->conf->key_prefix, m->queue);
	argv[0] = k.config, argv[1] = verbs[i].to;
	argv[2] = verbs[i].from ? verbs[i].from : "";
	api_call_run(c, LUA_ADMIN_STATE, 1, 3, argv);
}

/* ---- promote ------------------------------------------------------------- */

static void
promote_done(struct api_call *c, const redisReply *r)
{
	const redisReply *toks;
	json_t *list;

	if (!reply_is(r, 2, "ok") ||
	    (toks = r->element[1])->type != REDIS_REPLY_ARRAY) {
		reply_other(c, r);
		return;
	}
	list = json_array();
	for (size_t i = 0; i < toks->elements; i++)
		if (toks->element[i]->type == REDIS_REPLY_STRING)
			json_array_append_new(list,
			    json_string(toks->element[i]->str));
	log_info("event=admin action=promote queue=%s admitted=%zu", c->queue,
	    toks->elements);
	http_send_json(c->req, 200, json_pack("{s:s,s:I,s:o}", "queue",
	    c->queue, "admitted", (json_int_t)toks->elements, "tokens", list));
}

/* {"count": N}: N, or -1 after answering 400. */
static long
promote_count(struct evhttp_request *req)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	json_error_t jerr;
	json_t *doc, *n;
	long count = -1;

	doc = len == 0 ? json_null() : json_loadb((const char *)
	    evbuffer_pullup(in, -1), len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL) {
		http_send_error(req, 400, "bad_json", "the body is not valid "
		    "JSON: %s (line %d)", jerr.text, jerr.line);
		return -1;
	}
	n = json_object_get(doc, "count");
	if (json_is_object(doc) && json_object_size(doc) == 1 &&
	    json_is_integer(n) && json_integer_value(n) >= 1 &&
	    json_integer_value(n) <= PROMOTE_MAX)
		count = (long)json_integer_value(n);
	else
		http_send_error(req, 400, "bad_request", "the body is "
		    "{\"count\": N}, N an integer from 1 to %d", PROMOTE_MAX);
	json_decref(doc);
	return count;
}

void
api_admin_promote(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	const char *argv[API_QUEUE_KEYS + 2];
	struct queue_keys k;
	struct api_call *c;
	long count;
	char n[16];

	if ((count = promote_count(req)) == -1 ||
	    (c = api_call_new(app, req, m->queue, promote_done)) == NULL)
		return;
	snprintf(n, sizeof n, "%ld", count);
	api_queue_argv(app, m->queue, &k, argv);
	argv[API_QUEUE_KEYS] = k.events;
	argv[API_QUEUE_KEYS + 1] = n;
	api_call_run(c, LUA_ADMIN_PROMOTE, API_QUEUE_KEYS, API_QUEUE_KEYS + 2,
	    argv);
}

/* ---- kick ------------------------------------------------------------ */

static void
kick_done(struct api_call *c, const redisReply *r)
{
	char tok[9];

	if (!reply_is(r, 2, "removed")) {
		reply_other(c, r);
		return;
	}
	log_info("event=admin action=remove queue=%s token=%s was=%s",
	    c->queue, log_tok(c->token, tok), r->element[1]->str);
	if (strcmp(r->element[1]->str, "active") == 0)
		api_session_ended(c);
	http_send_empty(c->req, 204);
}

void
api_admin_kick(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	struct api_call *c;

	if ((c = api_call_new(app, req, m->queue, kick_done)) == NULL)
		return;
	snprintf(c->token, sizeof c->token, "%s", m->token);
	api_end_session(c, LUA_ADMIN_KICK);
}
