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

#include "admission.h"
#include "eta.h"
#include "api.h"
#include "http_reply.h"
#include "invite.h"
#include "join_batch.h"
#include "join_body.h"
#include "log.h"
#include "qstore.h"
#include "refusals.h"
#include "text.h"

/*
 * The status object, as code. A GET's (retry) also says poll_after as
 * Retry-After while the token waits, for clients that honour the header.
 */
static void
status_reply(struct api_call *c, const struct standing *s, int code,
    int retry)
{
	struct token_status st;
	char pass[PASS_MAX], after[24];

	standing_status(s, c->queue, api_conf(c->api)->push_interval, &st);
	if (retry && !st.active) {
		snprintf(after, sizeof after, "%ld", st.poll_after);
		evhttp_add_header(evhttp_request_get_output_headers(c->req),
		    "Retry-After", after);
	}
	st.notice = admission_notice(c->api->admission, c->queue, NULL);
	api_pass_attach(c->api, &st, pass);
	api_pass_cookie(c->api, c->req, &st);
	http_send_text(c->api->http, c->req, code, reply_status_text(&st));
}

/* ---- a join, top down ------------------------------------------------------
 *
 * api_join runs the guards in order, each in the file of its rule, each
 * saying 0 (go on) or its refusal in a verdict: the origin, the body, the
 * invitation, the rate per address, the proof of work. The first refusal
 * is sent by api_join itself; a join that passes them all goes to Redis
 * with the next batch (join_batch.c), and join_done answers it: a place
 * in line, or a verdict, sent once.
 */

/* A join, and whether it carried an invitation. */
struct join_call {
	struct api_call call;	/* first: join_done frees it as a whole */
	int invited;
};

/* A join's fields, and what it spends in Redis: filled by the guards. */
struct join_ask {
	struct join_fields body;	/* no malloc for the body */
	struct invite iv;
	struct api_proof proof;
	struct qs_use use;		/* kind NULL: none */
};

/* The challenge and the nonce of a good body: both strings, or none. */
static int
join_proof_fields(const struct join_fields *f, struct verdict *v)
{
	switch (join_body_proof(f)) {
	case JOIN_PROOF_OK:
		return 0;
	case JOIN_PROOF_PAIR:
		return verdict_refuse(v, 400, "bad_request", "\"challenge\" "
		    "and \"nonce\" go together");
	case JOIN_PROOF_BAD_CHALLENGE:
		return verdict_refuse(v, 400, "bad_request", "\"challenge\" "
		    "must be a string of 1 to 200 characters");
	case JOIN_PROOF_BAD_NONCE:
	default:
		return verdict_refuse(v, 400, "bad_request", "\"nonce\" must "
		    "be 1 to 32 ASCII letters or digits");
	}
}

/*
 * The optional body {"user": "...", "challenge": "...", "nonce": "...",
 * "invite": "..."} into *f (join_body.c has the rules; join_body_clear it
 * after, whatever this says): 0 when good, the user, challenge and nonce
 * then NULL or strings; -1 with a 400 in v.
 */
static int
join_body(struct evhttp_request *req, struct join_fields *f,
    struct verdict *v)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	json_error_t jerr;

	switch (join_body_parse(f, len ? (const char *)evbuffer_pullup(in, -1) :
	    "", len, &jerr)) {
	case JOIN_BODY_OK:
		return join_proof_fields(f, v);
	case JOIN_BODY_BAD_JSON:
		return verdict_refuse(v, 400, "bad_json", "the body is not "
		    "valid JSON: %s (line %d)", jerr.text, jerr.line);
	case JOIN_BODY_BAD_SHAPE:
		return verdict_refuse(v, 400, "bad_request", "the body is a "
		    "JSON object with at most the fields \"user\", "
		    "\"challenge\", \"nonce\" and \"invite\"");
	case JOIN_BODY_USER_TYPE:
		return verdict_refuse(v, 400, "bad_request",
		    "\"user\" must be a string");
	case JOIN_BODY_BAD_USER:
	default:
		return verdict_refuse(v, 400, "bad_user", "a user is 1 to 128 "
		    "characters with no control characters");
	}
}

/*
 * The body's invitation, if any: 0 with a->use filled (its kind and id
 * borrowed from a->iv) or a->use.kind NULL when there is none; -1 with a
 * 400 or 403 invite_invalid in v. Checked in memory, before the join goes
 * to Redis, so a bad one changes nothing.
 */
static int
join_invite(struct api *api, const char *queue, struct join_ask *a,
    struct verdict *v)
{
	const struct join_field *f = &a->body.invite;
	struct qs_use *use = &a->use;
	const char *why;

	memset(use, 0, sizeof *use);
	if (f->type == JOIN_FIELD_NONE)
		return 0;
	if (f->type != JOIN_FIELD_STRING)
		return verdict_refuse(v, 400, "bad_request",
		    "\"invite\" must be a string");
	if (invite_verify(api_passkeys(api), f->s, f->len,
	    (long long)time(NULL),
	    queue, &a->iv, &why) == -1)
		return verdict_refuse(v, 403, "invite_invalid", "%s", why);
	use->kind = "invite", use->id = a->iv.id;
	use->limit = a->iv.max_uses;
	/* counted for as long as the invitation could be accepted */
	use->expires_ms = (a->iv.exp + PASS_LEEWAY) * 1000;
	return 0;
}

/*
 * The proof of work (api_challenge.c), unless the join carries an
 * invitation: a site that invited the visitor vouches for them, and a
 * join holds one use key. On a proof, a->use becomes its challenge's.
 */
static int
join_proof(struct api *api, const char *queue, struct join_ask *a,
    struct verdict *v)
{
	if (a->use.kind != NULL)
		return 0;
	if (api_join_proof(api, queue, a->body.challenge.s, a->body.nonce.s,
	    &a->proof, v) == -1)
		return -1;
	if (a->proof.has_use)
		a->use = a->proof.use;
	return 0;
}

/* A refused join, for the console: by queue only for a queue this
 * process ticks, so made-up names cannot fill the table. */
static void
join_count_refusal(struct api *api, const char *queue, const char *code)
{
	int bits;
	long ttl;

	refusals_count(admission_pow(api->admission, queue, &bits, &ttl) == 0 ?
	    queue : NULL, code);
}

/* Why a join took no place in Redis (r), into v. */
static void
join_refusal(struct join_call *j, enum result r, const struct standing *s,
    struct verdict *v)
{
	struct api_call *c = &j->call;

	if (r == RESULT_USED && j->invited)
		verdict_refuse(v, 403, "invite_used", "this invitation to "
		    "queue '%s' has been used as often as it allows", c->queue);
	else if (r == RESULT_USED)
		api_join_used(c->api, c->queue, v);
	else {
		verdict_result(v, r, c->queue);
		if (r != RESULT_NOT_OPEN)
			return;
		/* the times the visitor may come back at */
		verdict_add(v, "opens_at", json_integer(s->opens_at));
		verdict_add(v, "prequeue_from", json_integer(s->prequeue_from));
	}
}

/* The answer from Redis: the join's place in line, or why it has none. */
static void
join_done(enum result r, const struct standing *s, void *arg)
{
	struct join_call *j = arg;
	struct api_call *c = &j->call;
	struct verdict v = { 0 };
	char tok[9];

	if (r != RESULT_NEW && r != RESULT_EXISTING) {
		join_refusal(j, r, s, &v);
		join_count_refusal(c->api, c->queue, v.code);
		api_send_verdict(c->api, c->req, &v);
		free(j);
		return;
	}
	if (r == RESULT_NEW && j->invited)
		refusals_invite_used(c->queue);
	if (r == RESULT_NEW && !s->active && !s->prequeue)
		refusals_eta_told(c->queue, eta_seconds(&s->q, s->n + 1),
		    s->n + 1, s->q.now_ms);
	if (s->active)
		log_debug("event=join queue=%s token=%s result=%s "
		    "status=active", c->queue, log_tok(s->token, tok),
		    r == RESULT_NEW ? "new" : "existing");
	else
		log_debug("event=join queue=%s token=%s result=%s "
		    "position=%lld", c->queue, log_tok(s->token, tok),
		    r == RESULT_NEW ? "new" : "existing", s->n + 1);
	status_reply(c, s, result_answer(r)->status, 0);
	free(j);
}

/*
 * A join that passed its guards, to Redis with the next batch: a new
 * token, and join_done for the answer. -1 with a 500 in v.
 */
static int
join_send(struct api *api, struct evhttp_request *req, const char *queue,
    struct join_ask *a, struct verdict *v)
{
	struct join_call *j = calloc(1, sizeof *j);
	struct api_call *c;
	uuid_t uu;

	if (j == NULL)
		return verdict_refuse(v, 500, "internal", "out of memory");
	c = &j->call;
	c->api = api, c->req = req;
	text_copy(c->queue, sizeof c->queue, queue);
	j->invited = a->use.kind != NULL && strcmp(a->use.kind, "invite") == 0;
	uuid_generate_random(uu);
	uuid_unparse_lower(uu, c->token);
	/* Before the add: a full batch is sent, and may be answered, in it. */
	http_await(req);
	if (join_batch_add(api->join_batch, c->queue, c->token,
	    a->body.user.s, a->use.kind ? &a->use : NULL, join_done, j) == -1) {
		free(j);
		return verdict_refuse(v, 500, "internal", "out of memory");
	}
	return 0;
}

void
api_join(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct join_ask a;
	struct verdict v = { 0 };

	a.body.doc = NULL;
	if (api_join_origin(api, req, &v) == 0 &&
	    join_body(req, &a.body, &v) == 0 &&
	    join_invite(api, m->queue, &a, &v) == 0 &&
	    api_join_rate(api, client, &v) == 0 &&
	    join_proof(api, m->queue, &a, &v) == 0)
		join_send(api, req, m->queue, &a, &v);
	if (v.status != 0) {
		join_count_refusal(api, m->queue, v.code);
		api_send_verdict(api, req, &v);
	}
	join_body_clear(&a.body);
}

static void
status_done(enum result r, const struct standing *s, void *arg)
{
	struct api_call *c = arg;

	if (r == RESULT_OK)
		status_reply(c, s, 200, 1);
	else
		api_send_result(c, r);
	free(c);
}

static void
leave_done(enum result r, int was_active, void *arg)
{
	struct api_call *c = arg;
	char tok[9];

	if (r == RESULT_OK)
		log_debug("event=leave queue=%s token=%s", c->queue,
		    log_tok(c->token, tok));
	api_token_removed(c, r, was_active);
}

/* GET: where the token stands; DELETE: leave the line or end the session. */
void
api_token(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c = api_call_new(api, req, m->queue, m->token);

	if (c == NULL)
		return;
	if (m->method == RM_DELETE)
		api_call_sent(c, qstore_leave(api->qstore, c->queue,
		    c->token, leave_done, c));
	else
		api_call_sent(c, qstore_status(api->qstore, c->queue, c->token,
		    status_done, c));
}
