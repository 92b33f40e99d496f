/*
 * api_tokens.c: joining the line (POST .../tokens), where a token stands
 * (GET .../tokens/{t}) and leaving (DELETE .../tokens/{t}). Every input is
 * checked here, before anything touches Redis.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <jansson.h>
#include <uuid/uuid.h>

#include "api.h"
#include "http_reply.h"
#include "invite.h"
#include "join_batch.h"
#include "join_body.h"
#include "log.h"
#include "qstore.h"
#include "text.h"
#include "validate.h"

static void
status_reply(struct api_call *c, const struct standing *s, int code)
{
	struct token_status st;
	char pass[PASS_MAX];

	standing_status(s, c->queue, &st);
	api_pass_attach(c->app, &st, pass);
	api_pass_cookie(c->app, c->req, &st);
	http_send_text(c->app->http, c->req, code, reply_status_text(&st));
}

/* A join, and whether it carried an invitation. */
struct join_call {
	struct api_call call;	/* first: join_done frees it as a whole */
	int invited;
};
/* 409 queue_not_open, with the times the visitor may come back at. */
static void
not_open(struct api_call *c, const struct standing *s)
{
	const struct result_answer *a = result_answer(RESULT_NOT_OPEN);
	char msg[256];

	http_send_json(c->app->http, c->req, a->status, json_pack("{s:{s:s,s:s,s:I,s:I}}",
	    "error", "code", a->code, "message", result_message(a, c->queue,
	    msg, sizeof msg), "opens_at", (json_int_t)s->opens_at,
	    "prequeue_from", (json_int_t)s->prequeue_from));
}

static void
join_done(enum result r, const struct standing *s, void *arg)
{
	struct api_call *c = arg;
	char tok[9];

	if (r == RESULT_USED && ((struct join_call *)c)->invited) {
		http_send_error(c->app->http, c->req, 403, "invite_used", "this invitation "
		    "to queue '%s' has been used as often as it allows",
		    c->queue);
		free(c);
		return;
	}
	if (r == RESULT_USED) {
		api_join_used(c->app, c->req, c->queue);
		free(c);
		return;
	}
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

/* 0 when a join's challenge and nonce are both strings or both absent;
 * -1 after answering 400. */
static int
join_proof_fields(struct http *h, struct evhttp_request *req,
    const struct join_fields *f)
{
	switch (join_body_proof(f)) {
	case JOIN_PROOF_OK:
		return 0;
	case JOIN_PROOF_PAIR:
		http_send_error(h, req, 400, "bad_request", "\"challenge\" and "
		    "\"nonce\" go together");
		break;
	case JOIN_PROOF_BAD_CHALLENGE:
		http_send_error(h, req, 400, "bad_request", "\"challenge\" must "
		    "be a string of 1 to 200 characters");
		break;
	case JOIN_PROOF_BAD_NONCE:
		http_send_error(h, req, 400, "bad_request", "\"nonce\" must be 1 "
		    "to 32 ASCII letters or digits");
		break;
	}
	return -1;
}

/*
 * The optional body {"user": "...", "challenge": "...", "nonce": "...",
 * "invite": "..."} into *f (join_body.c and join_body_jansson have the
 * rules; join_body_clear it after, whatever this returns): 0 when good,
 * the user, challenge and nonce then NULL or strings; -1 after answering
 * 400.
 */
static int
join_body(struct http *h, struct evhttp_request *req, struct join_fields *f)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	json_error_t jerr;

	switch (join_body_parse(f, len ? (const char *)evbuffer_pullup(in, -1) :
	    "", len, &jerr)) {
	case JOIN_BODY_OK:
		return join_proof_fields(h, req, f);
	case JOIN_BODY_BAD_JSON:
		http_send_error(h, req, 400, "bad_json", "the body is not valid "
		    "JSON: %s (line %d)", jerr.text, jerr.line);
		break;
	case JOIN_BODY_BAD_SHAPE:
		http_send_error(h, req, 400, "bad_request", "the body is a JSON "
		    "object with at most the fields \"user\", \"challenge\", "
		    "\"nonce\" and \"invite\"");
		break;
	case JOIN_BODY_USER_TYPE:
		http_send_error(h, req, 400, "bad_request",
		    "\"user\" must be a string");
		break;
	case JOIN_BODY_BAD_USER:
		http_send_error(h, req, 400, "bad_user", "a user is 1 to 128 "
		    "characters with no control characters");
		break;
	}
	return -1;
}

/*
 * The body's invitation v, if any: 0 with *use filled (its kind and id
 * borrowed from iv) or use->kind NULL when there is none; -1 after
 * answering 400 or 403 invite_invalid. Checked in memory, before the
 * join goes to Redis, so a bad one changes nothing.
 */
static int
join_invite(struct app *app, struct evhttp_request *req,
    const struct join_field *v, const char *queue, struct invite *iv,
    struct qs_use *use)
{
	const char *why;

	memset(use, 0, sizeof *use);
	if (v->type == JOIN_FIELD_NONE)
		return 0;
	if (v->type != JOIN_FIELD_STRING) {
		http_send_error(app->http, req, 400, "bad_request",
		    "\"invite\" must be a string");
		return -1;
	}
	if (invite_verify(app->passkeys, v->s, v->len, (long long)time(NULL),
	    queue, iv, &why) == -1) {
		http_send_error(app->http, req, 403, "invite_invalid", "%s", why);
		return -1;
	}
	use->kind = "invite", use->id = iv->id;
	use->limit = iv->max_uses;
	/* counted for as long as the invitation could be accepted */
	use->expires_ms = (iv->exp + PASS_LEEWAY) * 1000;
	return 0;
}

/*
 * The proof of work, unless the join carries an invitation: a site that
 * invited the visitor vouches for them, and a join holds one use key.
 * On a proof, *use becomes its challenge's. 0 when the join may go on;
 * -1 after answering 403.
 */
static int
join_proof(struct app *app, struct evhttp_request *req, const char *queue,
    const char *challenge, const char *nonce, struct qs_use *use,
    struct api_proof *proof)
{
	if (use->kind != NULL)
		return 0;
	if (api_join_proof(app, req, queue, challenge, nonce, proof) == -1)
		return -1;
	if (proof->has_use)
		*use = proof->use;
	return 0;
}

void
api_join(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct join_fields body;	/* no malloc for the body */
	struct join_call *j;
	struct api_call *c;
	struct api_proof proof;
	struct invite iv;
	struct qs_use use;
	uuid_t uu;

	if (api_join_origin(app, req) == -1)
		return;
	if (join_body(app->http, req, &body) == -1 ||
	    join_invite(app, req, &body.invite, m->queue, &iv, &use) == -1 ||
	    api_join_rate(app, req, client) == -1 ||
	    join_proof(app, req, m->queue, body.challenge.s, body.nonce.s, &use,
	    &proof) == -1)
		goto done;
	if ((j = calloc(1, sizeof *j)) == NULL) {
		http_send_error(app->http, req, 500, "internal", "out of memory");
		goto done;
	}
	c = &j->call;
	c->app = app, c->req = req;
	text_copy(c->queue, sizeof c->queue, m->queue);
	j->invited = use.kind != NULL && strcmp(use.kind, "invite") == 0;
	uuid_generate_random(uu);
	uuid_unparse_lower(uu, c->token);
	/* Before the add: a full batch is sent, and may be answered, in it. */
	http_await(req);
	if (join_batch_add(app->join_batch, c->queue, c->token, body.user.s,
	    use.kind ? &use : NULL, join_done, c) == -1) {
		http_send_error(app->http, req, 500, "internal", "out of memory");
		free(c);
	}
done:
	join_body_clear(&body);
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
	http_send_empty(c->app->http, c->req, 204);
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
