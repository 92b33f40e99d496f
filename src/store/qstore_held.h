/*
 * qstore_held.h: the facts of queues' configurations that the queue store
 * holds for its join batches (join.lua's "held facts"): what the head of a
 * batch that read a queue's whole configuration said of it, with the
 * version (the hash's 'ver') it was read at when that version may be
 * held; and the line's speed, from that head and then from each admission
 * tick that worked it out at the same version. While a batch is sent with
 * them, join.lua reads two fields of the hash instead of all, and answers
 * a short head that held_fill completes.
 *
 * A fixed table, one slot per queue by the hash of its name, so joins to
 * made-up queues cannot grow it; a queue whose slot another holds reads
 * its configuration every batch, as before. A slot with batches in Redis
 * is not given to another queue, so their short heads can be completed.
 */
#ifndef WR_QSTORE_HELD_H
#define WR_QSTORE_HELD_H

#include "standing.h"

#define HELD_SLOTS 64
#define HELD_VER_MAX 24

struct held;

/* What a batch is sent with: the version, its max_waiting and closes_at. */
struct held_send {
	char ver[HELD_VER_MAX];	/* "" when nothing is held */
	long long max_waiting;
	long long closes_at_ms;
};

/* join.lua's full head past the facts: what may be held, as it said. */
struct held_head {
	char ver[HELD_VER_MAX];	/* "" when the version may not be held */
	long long max_waiting;
	long long closes_at_ms;
};

struct held *held_new(void);
void held_free(struct held *h);

/*
 * The facts to send queue's batch with, in *out (ver "" when none); when
 * there are, the slot counts the batch in Redis until held_done.
 */
void held_send(struct held *h, const char *queue, struct held_send *out);
void held_done(struct held *h, const char *queue);

/* A full head: s (the head's queue facts) and hh are now what is held. */
void held_put(struct held *h, const char *queue, const struct standing *s,
    const struct held_head *hh);

/*
 * The line's speed after an admission tick of queue, which read its
 * configuration at version ver: kept when that is the version held (a
 * tick that ran before a change cannot bring back the old speed).
 */
void held_rate(struct held *h, const char *queue, const char *ver,
    double rate);

/*
 * A short head's batch: s (its waiting, now, last tick, state and ETA
 * band, as read) completed from what is held for queue. -1 when nothing
 * is held.
 */
int held_fill(const struct held *h, const char *queue, struct standing *s);

#endif
