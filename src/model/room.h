/*
 * room.h: the operator's console's figures (doc/api.md, "The live
 * feed"), pure: what the room's read (qstore_room.h) and this process's
 * memory of the last reads make of it. Time is passed in, so the unit
 * tests inject it.
 *
 * A struct room remembers, per queue and per process reporting, the last
 * minute of counters, to make rates of them, and when each queue's
 * admitted total last moved, for the `stalled` alert. It lives while a
 * feed is open on this process.
 */
#ifndef WR_ROOM_H
#define WR_ROOM_H

#include <stddef.h>

#include <jansson.h>

#include "figures.h"

#define ROOM_RING 64		/* samples a rate remembers, one a read */
#define ROOM_MISSING_MS 1800	/* a report older than this: missing */

/* A counter's last samples, to tell how fast it grows. */
struct room_rate {
	long long at[ROOM_RING], v[ROOM_RING];
	int n, head;		/* head: the newest */
};

/* A counter's value v at at_ms; one that goes back starts anew. */
void room_rate_push(struct room_rate *r, long long at_ms, long long v);
/* Its growth per second over the last window_ms (at least two samples
 * apart); 0 when it has fewer than two samples. */
double room_rate_per_s(const struct room_rate *r, long long window_ms);

/*
 * The p50 and p90 of the times in line (s) of the admission runs of the
 * last window_ms, each run weighing as many as it admitted (half at its
 * first's wait, half at its last's); 0 when none ran in it.
 */
int room_wait_percentiles(const struct room_wait *w, size_t n,
    long long now_ms, long long window_ms, double *p50, double *p90);

/* When a queue's head last moved. */
struct room_stall {
	long long admitted;	/* its admitted total at since_ms */
	long long since_ms;	/* 0: not watched yet */
};

/*
 * Is queue q stalled at now_ms: open, people waiting, and its admitted
 * total unchanged for three admission periods (rate mode: 3 x interval;
 * capacity mode: 3 x 5 s while active < max_active)? 1 and since when
 * (ms) in *since, or 0. s is updated.
 */
int room_stalled(struct room_stall *s, const struct room_queue *q,
    long long now_ms, long long *since);

/* What this process knows besides the read. */
struct room_local {
	double latency_ms;	/* the read's round trip */
	int full;		/* Redis refused a write for memory lately */
	int readonly;		/* Redis answers READONLY */
	const int *pow_bits;	/* per queue, as its last tick said; -1 off */
};

struct room;
struct room *room_new(void);
void room_free(struct room *r);

/*
 * The `room` event of rr (names' queues, in order); a new reference,
 * NULL when out of memory. r remembers rr's counters. While Redis is full
 * or read-only no report can be written, so no instance is missing.
 */
json_t *room_event(struct room *r, const struct room_read *rr,
    const char *const *names, const struct room_local *l);
/* The `room` event when Redis does not answer, at now_ms (this clock). */
json_t *room_event_unreachable(long long now_ms);

/*
 * The `history` event: names' samples (s, in order), from from_s or
 * each one's first sample on, whichever is later, to now_s; step 1 s, or
 * 10 s when more than 8 queues; a new reference.
 */
json_t *room_history(const struct room_series *s, const char *const *names,
    size_t n, long long from_s, long long now_s);

#endif
