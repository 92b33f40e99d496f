/*
 * revoke.h: what this process remembers about ended sessions, so
 * GET /v1/check asks Redis about one pass at most about once a second.
 *
 * Redis holds the truth: a DELETE of an active token sets
 * <prefix>:{<queue>}:revoked:<token> for as long as its pass could still
 * be accepted. This cache holds recent answers: "not revoked" for
 * REVOKE_FRESH_MS, "revoked" for longer (a revocation is never undone).
 * It is fixed in size, so it never grows with traffic, and
 * REVOKE_WAYS-way set-associative, so thousands of passes in use at once
 * do not push each other out (a direct-mapped table of 8192 lost 12% of
 * 1,000 passes to collisions). When a set is full, the entry that expires
 * first goes, which keeps revocations over fresh answers. Pure: the caller
 * gives the time.
 */
#ifndef WR_REVOKE_H
#define WR_REVOKE_H

#define REVOKE_SLOTS 16384	/* entries, about 2 MiB */
#define REVOKE_WAYS 4
#define REVOKE_FRESH_MS 1000
#define REVOKE_KEEP_MS 600000

struct revoke;

struct revoke *revoke_new(void);
void revoke_free(struct revoke *r);

/* -1: not known (ask Redis), 0: not revoked, 1: revoked. */
int revoke_get(const struct revoke *r, const char *queue, const char *token,
    long long now_ms);
/* Remember an answer from Redis, or a revocation made here. */
void revoke_put(struct revoke *r, const char *queue, const char *token,
    int revoked, long long now_ms);

#endif
