/*
 * api_challenge.c: the join's proof of work (challenge.h): GET
 * /v1/queues/{q}/challenge, and the check a join on such a queue must
 * pass before it goes to Redis. What a queue asks now comes from its last
 * admission tick (admission_pow), so neither costs a Redis call; the one
 * Redis write, the challenge's use, is part of the join's own script run.
 * The check says its verdict to the join's handler, which answers.
 *
 * A challenge pays for a join only at what the queue asks at the moment
 * of the join (pow_enough), not at what it asked when it was issued: a
 * challenge fetched while the queue was calm (0 bits under auto) is
 * refused once it asks more, with a fresh one at the bits asked now. The
 * fresh one has more bits than the one refused, so a client that follows
 * the refusals is refused at most POW_BITS_MAX times in a row, however
 * the bits move.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "admission.h"
#include "api.h"
#include "challenge.h"
#include "http_reply.h"
#include "log.h"
#include "metrics.h"
#include "text.h"

/*
 * How long a used challenge's record outlives the challenge: instances
 * check expiry by their own clock and Redis drops the record by its own,
 * so a clock behind Redis's by less than this cannot let a challenge be
 * spent twice.
 */
#define POW_USED_SLACK 60

/*
 * 403 code with message into v, and a fresh challenge when fresh_bits >=
 * 0; counted and logged as a refusal. -1.
 */
static int
refuse(struct api *api, const char *queue, enum metrics_pow_refusal why,
    const char *code, const char *message, int fresh_bits, long ttl,
    struct verdict *v)
{
	metrics_pow_refused(why);
	log_debug("event=join_refused queue=%s reason=%s", queue, code);
	verdict_refuse(v, 403, code, "%s", message);
	if (fresh_bits >= 0)
		verdict_add(v, "challenge", challenge_new(api->challenge, queue,
		    fresh_bits, ttl));
	return -1;
}

/* A solved challenge of fewer bits than the queue asks now: a fresh one. */
static int
too_easy(struct api *api, const char *queue, int had, int bits, long ttl,
    struct verdict *v)
{
	char msg[160];

	snprintf(msg, sizeof msg, "the challenge asks %d bits and this line "
	    "asks %d now: solve the one given here", had, bits);
	return refuse(api, queue, MPOW_TOO_EASY, "challenge_too_easy", msg,
	    bits, ttl, v);
}

int
api_join_proof(struct api *api, const char *queue, const char *challenge,
    const char *nonce, struct api_proof *p, struct verdict *v)
{
	struct pow_challenge c;
	int bits;
	long ttl;

	p->has_use = 0;
	if (admission_pow(api->admission, queue, &bits, &ttl) == -1 ||
	    bits < 0)
		return 0;	/* no such queue (yet), or no challenge */
	if (challenge == NULL && bits == 0)
		return 0;	/* calm: no work asked */
	if (!challenge_key_ok(api->challenge))
		return verdict_result(v, RESULT_UNAVAILABLE, NULL);
	if (challenge == NULL)
		return refuse(api, queue, MPOW_REQUIRED, "challenge_required",
		    "this line asks for a proof of work at the moment, which "
		    "the waiting page solves by itself: solve the challenge "
		    "given here (doc/api.md, \"Proof of work\") and join again "
		    "with \"challenge\" and \"nonce\"", bits, ttl, v);
	switch (challenge_check(api->challenge, queue, challenge, nonce, &c)) {
	case POW_OK:
		if (!pow_enough(c.bits, bits))
			return too_easy(api, queue, c.bits, bits, ttl, v);
		break;
	case POW_EXPIRED:
		return refuse(api, queue, MPOW_EXPIRED, "challenge_expired",
		    "the challenge has expired: solve the one given here",
		    bits, ttl, v);
	default:
		return refuse(api, queue, MPOW_FAILED, "challenge_failed",
		    "the nonce does not solve the challenge, or the challenge "
		    "is not one this queue issued", -1, 0, v);
	}
	text_copy(p->id, sizeof p->id, c.random);
	p->use.kind = "pow", p->use.id = p->id, p->use.limit = 1;
	p->use.expires_ms = (c.expires + POW_USED_SLACK) * 1000;
	p->has_use = 1;
	return 0;
}

void
api_join_used(struct api *api, const char *queue, struct verdict *v)
{
	refuse(api, queue, MPOW_USED, "challenge_used", "this challenge was "
	    "used for a join already: each buys one join; fetch a new one",
	    -1, 0, v);
}

void
api_challenge(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	json_t *ch;
	int bits;
	long ttl;

	(void)client;
	if (admission_pow(api->admission, m->queue, &bits, &ttl) == -1) {
		http_send_result(api->http, req, m->queue, RESULT_NO_QUEUE);
		return;
	}
	if ((ch = challenge_new(api->challenge, m->queue, bits < 0 ? 0 : bits,
	    ttl)) ==
	    NULL) {
		http_send_unavailable(api->http, req);
		return;
	}
	http_send_json(api->http, req, 200, ch);
}
