/*
 * revoke.h: what this process remembers about ended sessions and dropped
 * queues, so GET /v1/check asks Redis about one pass at most about once a
 * second.
 *
 * Redis holds the truth, in two keys of the pass's queue that one MGET
 * reads: a DELETE of an active token sets <prefix>:{<queue>}:revoked:<token>,
 * a DELETE of the queue sets <prefix>:{<queue>}:dropped to when that was
 * (ms, Redis's clock); each lives as long as a pass it refuses could still
 * be accepted. A drop refuses the passes issued before it and not those of
 * a queue created again under the same name afterwards: iat tells them
 * apart, give or take PASS_LEEWAY of clock skew between the instance that
 * signed and Redis (a pass issued up to that long after the drop is refused
 * too).
 *
 * This cache holds recent answers: a revocation for REVOKE_KEEP_MS (it is
 * never undone), any other answer for REVOKE_FRESH_MS (a pass of a dropped
 * queue sends its visitor to a waiting page that knows no such queue, so
 * it is not asked about for long). It is fixed in size, so it
 * never grows with traffic, and REVOKE_WAYS-way set-associative, so
 * thousands of passes in use at once do not push each other out (a
 * direct-mapped table of 8192 lost 12% of 1,000 passes to collisions).
 * When a set is full, the entry that expires first goes, which keeps
 * revocations over fresh answers. Pure: the caller gives the time.
 */
#ifndef WR_REVOKE_H
#define WR_REVOKE_H

#include "pass.h"

#define REVOKE_SLOTS 16384	/* entries, about 2 MiB */
#define REVOKE_WAYS 4
#define REVOKE_FRESH_MS 1000
#define REVOKE_KEEP_MS 600000

/* What Redis says about a pass's token and queue. */
struct revoke_facts {
	int revoked;		/* the token's session was ended */
	long long dropped_ms;	/* the queue's last drop; 0: none */
};

struct revoke;

struct revoke *revoke_new(void);
void revoke_free(struct revoke *r);

/* What f says of a pass issued at iat (unix seconds): PASS_OK,
 * PASS_REVOKED or PASS_DROPPED. */
enum pass_verdict revoke_verdict(const struct revoke_facts *f,
    long long iat);

/* -1: not known (ask Redis), else revoke_verdict of what is known. */
int revoke_get(const struct revoke *r, const char *queue, const char *token,
    long long iat, long long now_ms);
/* Remember an answer from Redis, or a revocation made here. */
void revoke_put(struct revoke *r, const char *queue, const char *token,
    const struct revoke_facts *f, long long now_ms);
/* Forget the fresh answers about queue: it was dropped here, and the next
 * check of its passes asks Redis, which knows. */
void revoke_forget(struct revoke *r, const char *queue);

#endif
