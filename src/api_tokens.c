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
#include "http.h"
#include "join_batch.h"
#include "log.h"
#include "qstore.h"
#include "validate.h"

static void
status_reply(struct api_call *c, const struct standing *s, int code)
{
	struct token_status st;
	char pass[PASS_MAX];

	standing_status(s, c->queue, &st);
	api_pass_attach(c->app, &st, pass);
	api_pass_cookie(c->app, c->req, &st);
	http_send_text(c->req, code, reply_status_text(&st));
}

/* 409 queue_not_open, with the times the visitor may come back at. */
static void
not_open(struct api_call *c, const struct standing *s)
{
	const struct result_answer *a = result_answer(RESULT_NOT_OPEN);
	char msg[256];

	http_send_json(c->req, a->status, json_pack("{s:{s:s,s:s,s:I,s:I}}",
	    "error", "code", a->code, "message", result_message(a, c->queue,
	    msg, sizeof msg), "opens_at", (json_int_t)s->opens_at,
	    "prequeue_from", (json_int_t)s->prequeue_from));
}

static void
join_done(enum result r, const struct standing *s, void *arg)
{
	struct api_call *c = arg;
	char tok[9];

	if (r == RESULT_NOT_OPEN) {
		not_open(c, s);
		free(c);
		return;
	}
	if (r != RESULT_NEW && r != RESULT_EXISTING) {
		api_send_result(c, r);
		free(c);
		return;
	}
	if (s->active)
		log_debug("event=join queue=%s token=%s result=%s "
		    "status=active", c->queue, log_tok(s->token, tok),
		    r == RESULT_NEW ? "new" : "existing");
	else
		log_debug("event=join queue=%s token=%s result=%s "
		    "position=%lld", c->queue, log_tok(s->token, tok),
		    r == RESULT_NEW ? "new" : "existing", s->n + 1);
	status_reply(c, s, result_answer(r)->status);
	free(c);
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
    const struct route_match *m, const char *client)
{
	struct api_call *c;
	const char *user;
	json_t *doc = NULL;
	uuid_t uu;

	if (api_join_origin(app, req) == -1 ||
	    join_body(req, &doc, &user) == -1 ||
	    api_join_rate(app, req, client) == -1 ||
	    (c = api_call_new(app, req, m->queue, NULL)) == NULL)
		goto done;
	uuid_generate_random(uu);
	uuid_unparse_lower(uu, c->token);
	/* Before the add: a full batch is sent, and may be answered, in it. */
	http_await(req);
	if (join_batch_add(app->join_batch, c->queue, c->token, user,
	    join_done, c) == -1) {
		http_send_error(req, 500, "internal", "out of memory");
		free(c);
	}
done:
	json_decref(doc);
}

static void
status_done(enum result r, const struct standing *s, void *arg)
{
	struct api_call *c = arg;

	if (r == RESULT_OK)
		status_reply(c, s, 200);
	else
		api_send_result(c, r);
	free(c);
}

static void
leave_done(enum result r, int was_active, void *arg)
{
	struct api_call *c = arg;
	char tok[9];

	if (r != RESULT_OK) {
		api_send_result(c, r);
		free(c);
		return;
	}
	log_debug("event=leave queue=%s token=%s", c->queue,
	    log_tok(c->token, tok));
	if (was_active)
		api_session_ended(c->app, c->queue, c->token);
	http_send_empty(c->req, 204);
	free(c);
}

/* GET: where the token stands; DELETE: leave the line or end the session. */
void
api_token(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c = api_call_new(app, req, m->queue, m->token);

	if (c == NULL)
		return;
	if (m->method == RM_DELETE)
		api_call_sent(c, qstore_end(app->qstore, QS_LEAVE, c->queue,
		    c->token, leave_done, c));
	else
		api_call_sent(c, qstore_status(app->qstore, c->queue, c->token,
		    status_done, c));
}
