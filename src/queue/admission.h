/*
 * admission.h: the admission tick. Every instance runs one timer per queue;
 * each tick is one call of lua/tick.lua, whose tick key in Redis makes the
 * configured rate global however many instances run.
 *
 * The queues are those of the registry in Redis (keys_registry): the file's
 * queues are written there at startup, the admin API adds and drops
 * others, and every instance reads it again each period, so a queue
 * created on one instance is ticked by all within one period. A tick reads
 * the queue's configuration from Redis, so an admin change takes effect on
 * every instance at its next tick.
 */
#ifndef WR_ADMISSION_H
#define WR_ADMISSION_H

#include <stddef.h>

#include <event2/event.h>

struct conf;
struct draws;
struct qstore;

#define ADMISSION_PERIOD_MS 250	/* how often each instance ticks */
#define ADMISSION_CAP 5000	/* most tokens moved or swept per call */

struct admission;

/*
 * Start ticking, on base, every queue of c (the file's), and follow the
 * registry; a tick calls qs, and tells draws of a draw that is due. All
 * borrowed: c only for this call.
 */
struct admission *admission_new(struct event_base *base, struct qstore *qs,
    struct draws *draws, const struct conf *c);
/* Free after store_free: a tick in flight is answered there. */
void admission_free(struct admission *a);

/* Tick queue from now on (the admin API created it); 0, or -1 (memory). */
int admission_add(struct admission *a, const char *queue);
/* Stop ticking queue (the admin API dropped it). */
void admission_remove(struct admission *a, const char *queue);

/*
 * The proof of work a join of queue needs now, as its last tick said:
 * *bits (-1: join_challenge is off; 0: none needed now) and *ttl, the
 * seconds a challenge stays valid. -1 when no tick of queue has answered
 * yet (not a queue, or one the admin API created less than a period
 * ago); a queue of the file asks what the file says until then.
 */
int admission_pow(const struct admission *a, const char *queue, int *bits,
    long *ttl);

/*
 * The notice of queue as its last tick read it, borrowed until the next
 * tick (NULL: none), and *serial (when not NULL), which moves each time
 * it changes: a stream pushes `event: notice` when it moved.
 */
const char *admission_notice(const struct admission *a, const char *queue,
    unsigned long *serial);
/* The admin API set queue's notice ("": cleared): this instance knows now. */
void admission_notice_set(struct admission *a, const char *queue,
    const char *notice);

/* The names of the queues ticked, borrowed until the next change, sorted. */
size_t admission_names(const struct admission *a, const char **names,
    size_t max);

#endif
