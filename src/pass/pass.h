/*
 * pass.h: entry passes. An admitted token comes with a pass, a JWT signed
 * with HS256 whose claims say which queue (aud) admitted which token (sub)
 * and until when (exp: the end of the session). A protected site, or nginx
 * through GET /v1/check, accepts a visitor by the pass alone. Pure: the
 * caller gives the time.
 */
#ifndef WR_PASS_H
#define WR_PASS_H

#include <stddef.h>

#include "conf.h"
#include "passkeys.h"
#include "standing.h"
#include "validate.h"

#define PASS_MAX 1024		/* longest pass accepted; ours are ~300 */
#define PASS_LEEWAY 10		/* seconds of clock skew forgiven */

struct pass_claims {
	char queue[CONF_QUEUE_ID_MAX + 1];	/* aud */
	char token[VALID_TOKEN_LEN + 1];	/* sub */
	long long iat, nbf, exp;		/* unix seconds */
};

enum pass_verdict {
	PASS_OK,
	PASS_MISSING,		/* no pass at all (callers use it) */
	PASS_MALFORMED,		/* not three base64url JSON parts */
	PASS_BAD_ALG,		/* alg other than HS256, or crit */
	PASS_NO_KID,
	PASS_UNKNOWN_KID,
	PASS_BAD_SIGNATURE,
	PASS_BAD_CLAIMS,	/* aud, sub, iat, nbf or exp missing or bad */
	PASS_WRONG_QUEUE,
	PASS_EXPIRED,
	PASS_NOT_YET,		/* nbf or iat in the future */
	PASS_REVOKED,		/* the session was ended (callers use it) */
	PASS_DROPPED		/* its queue was dropped (callers use it) */
};

/* Sign c with the last key into out (PASS_MAX bytes); -1 on failure. */
int pass_sign(const struct passkeys *k, const struct pass_claims *c,
    char *out, size_t size);

/*
 * Check the pass s (len bytes) at time now: signature, algorithm, key,
 * claims, and, when queue is not NULL, that it admits to that queue.
 * Fills c when PASS_OK.
 */
enum pass_verdict pass_verify(const struct passkeys *k, const char *s,
    size_t len, long long now, const char *queue, struct pass_claims *c);

/*
 * The header of a JWT signed with our keys (passes, invitations): HS256,
 * no crit, typ JWT if any, a kid we hold (*key). PASS_OK,
 * PASS_MALFORMED, PASS_BAD_ALG, PASS_NO_KID or PASS_UNKNOWN_KID.
 */
struct jwt_parts;
enum pass_verdict pass_header(const struct passkeys *k,
    const struct jwt_parts *p, const struct passkey **key);

/* A sentence for people: "the pass has expired". */
const char *pass_verdict_text(enum pass_verdict v);

/*
 * Sign the pass of an active status into buf (PASS_MAX bytes), issued at
 * now (unix seconds), and point st->pass at it; nothing when k is NULL
 * (passes are off) or st is not active. -1 when signing failed.
 */
int pass_attach(const struct passkeys *k, struct token_status *st,
    long long now, char *buf);

#endif
