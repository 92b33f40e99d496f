/*
 * invite.h: invitations to a queue with access = invite. An invitation is
 * a JWT signed with HS256 by a key of pass_key_file (the passes' keys,
 * with the same rotation: the last line signs, every line verifies),
 * with the claims aud (the queue), jti (the invitation's id, any string
 * of 1 to 256 bytes), exp (unix seconds) and, optionally, max_uses (how
 * many joins it buys, 1 to INVITE_USES_MAX; default 1). The uses are
 * counted in Redis, by join.lua's use key of kind "invite" whose id is
 * the base64url SHA-256 of jti. Pure: the caller gives the time.
 */
#ifndef WR_INVITE_H
#define WR_INVITE_H

#include <stddef.h>

#include "conf.h"
#include "passkeys.h"

#define INVITE_MAX 2048		/* longest invitation accepted */
#define INVITE_JTI_MAX 256
#define INVITE_USES_MAX 1000000
#define INVITE_ID_LEN 43	/* base64url of a SHA-256 */
#define INVITE_EXP_MAX 253402300799LL	/* 9999-12-31: no overflow in ms */

struct invite {
	char queue[CONF_QUEUE_ID_MAX + 1];	/* aud */
	char id[INVITE_ID_LEN + 1];		/* from jti: a use key's id */
	long long exp;				/* unix seconds */
	long max_uses;
};

/*
 * Check the invitation s (len bytes) for queue at now. 0 and *iv when it
 * is good; else -1 and *why, a sentence for people ("the invitation has
 * expired").
 */
int invite_verify(const struct passkeys *k, const char *s, size_t len,
    long long now, const char *queue, struct invite *iv, const char **why);

/* Sign an invitation with the last key into out; -1 when it fails
 * (no key, jti empty or too long, out too small). */
int invite_sign(const struct passkeys *k, const char *queue,
    const char *jti, long long exp, long max_uses, char *out, size_t size);

#endif
