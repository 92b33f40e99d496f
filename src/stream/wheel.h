/*
 * wheel.h: the schedule of a process's open streams. The push interval is
 * cut into slots; every open stream sits in exactly one slot's list
 * (linked through its prev and next), and each tick visits the slot under
 * the hand and moves the hand on, so a stream is visited once per turn.
 */
#ifndef WR_WHEEL_H
#define WR_WHEEL_H

#include <stdint.h>

struct stream;

struct wheel {
	struct stream **slots;
	uint32_t *n;		/* streams in each slot */
	int nslots;
	int cur;		/* the slot the next tick visits */
};

/* nslots empty slots; -1 when out of memory. */
int wheel_init(struct wheel *w, int nslots);
void wheel_free(struct wheel *w);

/*
 * The least loaded slot between half a turn and a whole one ahead: a new
 * stream's next visit comes within one turn, and a burst of new streams
 * spreads over the slots instead of landing in one.
 */
int wheel_pick(const struct wheel *w);
void wheel_put(struct wheel *w, struct stream *st, int slot);
void wheel_remove(struct wheel *w, struct stream *st);

/* The slot to visit now; the hand moves on to the next. */
int wheel_turn(struct wheel *w);

/*
 * nslots slots (the push interval changed): every stream moves to the same
 * fraction of the turn, so they stay spread out. -1 when out of memory,
 * the wheel unchanged.
 */
int wheel_resize(struct wheel *w, int nslots);

#endif
