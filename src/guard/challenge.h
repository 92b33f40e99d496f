/*
 * challenge.h: the daemon's side of the join's proof of work (pow.h):
 * the HMAC key every instance shares, and challenges issued and checked
 * with it. The key is 32 random bytes kept in Redis (<prefix>:powkey, 64
 * hex digits), written once by the first instance to find none and read
 * by each at every connect, so a challenge issued by one instance is
 * checked by any. Issuing and checking touch no Redis.
 */
#ifndef WR_CHALLENGE_H
#define WR_CHALLENGE_H

#include <jansson.h>

#include "pow.h"

struct qstore;

/* The shared key, once read; none until then. */
struct challenge_key;

/* Nothing read yet; the calls to read it go through qs (borrowed). */
struct challenge_key *challenge_key_new(struct qstore *qs);
void challenge_key_free(struct challenge_key *k);
/* Read the key, creating it when Redis has none (at each connect). */
void challenge_key_load(struct challenge_key *k);
/* 1 once the key is read: challenges can be issued and checked. */
int challenge_key_ok(const struct challenge_key *k);

/*
 * A new challenge for queue at bits, valid for ttl seconds, as the JSON
 * object {"challenge", "bits", "expires"}; NULL when the key is not read
 * yet (or out of memory). Counted in the metrics.
 */
json_t *challenge_new(const struct challenge_key *k, const char *queue,
    int bits, long ttl);

/* pow_check with the shared key and the clock. */
enum pow_verdict challenge_check(const struct challenge_key *k,
    const char *queue, const char *challenge, const char *nonce,
    struct pow_challenge *c);

#endif
