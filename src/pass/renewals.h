/*
 * renewals.h: what this process last heard from Redis about a session's
 * end, so GET /v1/check asks Redis to renew one pass's session (renew.lua)
 * at most once every RENEWALS_FRESH_MS. renew.lua itself writes the new
 * end at most once every few seconds per token, for every instance
 * together; this cache saves the round trips in between.
 *
 * Fixed in size (direct-mapped: a collision costs one more round trip,
 * never a wrong answer, since each slot keeps its queue and token), so
 * it never grows with traffic. Pure: the caller gives the time.
 */
#ifndef WR_RENEWALS_H
#define WR_RENEWALS_H

#define RENEWALS_SLOTS 8192	/* entries, about 1 MiB */
#define RENEWALS_FRESH_MS 1000

/* What renew.lua said of a session. */
struct renewal {
	int renews;		/* 1: the queue renews sessions */
	long long expiry_ms;	/* the session's end in force */
};

struct renewals;

struct renewals *renewals_new(void);
void renewals_free(struct renewals *r);

/* 1 and *rn when Redis answered about queue's token within
 * RENEWALS_FRESH_MS of now; else 0 (ask it). */
int renewals_get(const struct renewals *r, const char *queue,
    const char *token, long long now_ms, struct renewal *rn);

/* Remember Redis's answer. */
void renewals_put(struct renewals *r, const char *queue, const char *token,
    const struct renewal *rn, long long now_ms);

/* Remember that Redis said queue does not renew sessions, so its other
 * passes need not ask either (renewals_fixed). */
void renewals_put_fixed(struct renewals *r, const char *queue,
    long long now_ms);

/* 1 when Redis said within RENEWALS_FRESH_MS of now that queue does not
 * renew sessions: a pass of it has nothing to renew. */
int renewals_fixed(const struct renewals *r, const char *queue,
    long long now_ms);

#endif
