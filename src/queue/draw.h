/*
 * draw.h: this process's part in the draws of scheduled queues (doc/
 * design.md, "The draw"). The admission tick says when a queue's draw
 * is due; the process then tries to drive it through draw_step.lua,
 * which lets one instance at a time (a lock in Redis with a lifetime)
 * and keeps every step, so another instance finishes a draw whose
 * instance died. Each step is one script run, and the next read or
 * place step is sent before the last is answered, so that Redis works
 * while this process hashes or merges; the hashing of a chunk is the
 * longest work done here, a few milliseconds.
 */
#ifndef WR_DRAW_H
#define WR_DRAW_H

#include "qstore.h"	/* qs_seeded_cb */

struct draws;

/* The draws this process drives, through qs (borrowed). */
struct draws *draws_new(struct qstore *qs);
/* Runs in flight end when their answer comes back. */
void draws_free(struct draws *d);

/* queue's draw is due: drive it, unless this process already does. */
void draws_due(struct draws *d, const char *queue);
/*
 * Write a queue of the file (qstore_seed, how "replace" or "missing")
 * with a fresh seed, which Redis keeps in the same run should the queue
 * have a schedule and no seed yet: no schedule is ever seen without its
 * commitment. -1 when the call was not sent (cb is not called).
 */
int draws_write_conf(struct draws *d, const struct queue_conf *q,
    const char *how, qs_seeded_cb *cb, void *arg);
/* queue has a schedule but no seed (a hash not written by this version's
 * scripts): draw one and commit to it. */
void draws_seed(struct draws *d, const char *queue);

#endif
