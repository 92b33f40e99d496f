/*
 * api_tokens.c: joining the line (POST .../tokens), where a token stands
 * (GET .../tokens/{t}) and leaving (DELETE .../tokens/{t}). Every input is
 * checked here, before anything touches Redis.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>
#include <uuid/uuid.h>

#include "api.h"
#include "conf.h"
#include "facts.h"
#include "http.h"
#include "joins.h"
#include "log.h"
#include "validate.h"

static void
status_reply(struct api_call *c, const struct facts *f, int code)
{
	struct token_status st;
	char pass[PASS_MAX];

	facts_status(f, c->queue, &st);
	api_pass_attach(c->app, &st, pass);
	api_pass_cookie(c->app, c->req, &st);
	http_send_text(c->req, code, reply_status_text(&st));
}

static void
join_done(struct api_call *c, const struct facts *f)
{
	char tok[9];

	if (strcmp(f->result, "new") != 0 &&
	    strcmp(f->result, "existing") != 0) {
		api_reply_result(c, f->result);
		return;
	}
	if (strcmp(f->status, "active") == 0)
		log_debug("event=join queue=%s token=%s result=%s status=active",
		    c->queue, log_tok(f->token, tok), f->result);
	else
		log_debug("event=join queue=%s token=%s result=%s "
		    "position=%lld", c->queue, log_tok(f->token, tok),
		    f->result, f->n + 1);
	status_reply(c, f, strcmp(f->result, "new") == 0 ? 201 : 200);
}

/*
 * The optional body {"user": "..."} (valid_join_body has the rules): 0 and
 * *user (NULL when none) when good; -1 after answering 400.
 */
static int
join_body(struct evhttp_request *req, json_t **doc, const char **user)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	json_error_t jerr;

	switch (valid_join_body(len ? (const char *)evbuffer_pullup(in, -1) :
	    "", len, doc, user, &jerr)) {
	case JOIN_BODY_OK:
		return 0;
	case JOIN_BODY_BAD_JSON:
		http_send_error(req, 400, "bad_json", "the body is not valid "
		    "JSON: %s (line %d)", jerr.text, jerr.line);
		break;
	case JOIN_BODY_BAD_SHAPE:
		http_send_error(req, 400, "bad_request", "the body is a JSON "
		    "object with at most one field, \"user\"");
		break;
	case JOIN_BODY_USER_TYPE:
		http_send_error(req, 400, "bad_request",
		    "\"user\" must be a string");
		break;
	case JOIN_BODY_BAD_USER:
		http_send_error(req, 400, "bad_user", "a user is 1 to 128 "
		    "characters with no control characters");
		break;
	}
	return -1;
}

void
api_join(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	struct api_call *c;
	const char *user;
	json_t *doc = NULL;
	uuid_t uu;

	if (api_join_origin(app, req) == -1 ||
	    join_body(req, &doc, &user) == -1 || api_join_rate(app, req) == -1)
		goto done;
	if ((c = api_call_new(app, req, m->queue, NULL)) == NULL)
		goto done;
	uuid_generate_random(uu);
	uuid_unparse_lower(uu, c->token);
	joins_add(app->joins, c, user, join_done);
done:
	json_decref(doc);
}

static void
status_done(struct api_call *c, const redisReply *r)
{
	struct facts f;

	if (facts_parse(r, &f) == -1 || strcmp(f.result, "ok") != 0) {
		api_reply_result(c, f.result);
		return;
	}
	status_reply(c, &f, 200);
}

static void
leave_done(struct api_call *c, const redisReply *r)
{
	struct facts f;
	char tok[9];

	if (facts_parse(r, &f) == -1 || strcmp(f.result, "left") != 0) {
		api_reply_result(c, f.result);
		return;
	}
	log_debug("event=leave queue=%s token=%s", c->queue,
	    log_tok(c->token, tok));
	if (r->elements >= 2 && r->element[1]->type == REDIS_REPLY_STRING &&
	    strcmp(r->element[1]->str, "active") == 0)
		api_session_ended(c);
	http_send_empty(c->req, 204);
}

/* GET: where the token stands; DELETE: leave the line or end the session. */
void
api_token(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	const char *argv[API_QUEUE_KEYS + 1];
	struct queue_keys k;
	struct api_call *c;
	int del = m->method == RM_DELETE;

	c = api_call_new(app, req, m->queue,
	    m->method == RM_DELETE ? leave_done : status_done);
	if (c == NULL)
		return;
	strcpy(c->token, m->token);
	if (del) {
		api_end_session(c, LUA_LEAVE);
		return;
	}
	api_queue_argv(app, m->queue, &k, argv);
	argv[API_QUEUE_KEYS] = c->token;
	api_call_run(c, LUA_STATUS, API_QUEUE_KEYS, API_QUEUE_KEYS + 1, argv);
}
