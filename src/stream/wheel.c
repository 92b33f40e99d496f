/* wheel.c: the schedule of open streams; see wheel.h. */
#include <stdlib.h>

#include "sse.h"
#include "wheel.h"

int
wheel_init(struct wheel *w, int nslots)
{
	w->slots = calloc((size_t)nslots, sizeof *w->slots);
	w->n = calloc((size_t)nslots, sizeof *w->n);
	w->nslots = nslots, w->cur = 0;
	if (w->slots == NULL || w->n == NULL) {
		wheel_free(w);
		return -1;
	}
	return 0;
}

void
wheel_free(struct wheel *w)
{
	free(w->slots);
	free(w->n);
	w->slots = NULL, w->n = NULL, w->nslots = 0;
}

int
wheel_pick(const struct wheel *w)
{
	int best = -1;

	for (int k = w->nslots / 2; k <= w->nslots; k++) {
		int s = (w->cur + k - 1) % w->nslots;

		if (best == -1 || w->n[s] < w->n[best])
			best = s;
	}
	return best;
}

void
wheel_put(struct wheel *w, struct stream *st, int slot)
{
	st->slot = (uint16_t)slot;
	st->prev = NULL;
	st->next = w->slots[slot];
	if (st->next)
		st->next->prev = st;
	w->slots[slot] = st;
	w->n[slot]++;
}

void
wheel_remove(struct wheel *w, struct stream *st)
{
	if (st->prev)
		st->prev->next = st->next;
	else
		w->slots[st->slot] = st->next;
	if (st->next)
		st->next->prev = st->prev;
	w->n[st->slot]--;
}

int
wheel_turn(struct wheel *w)
{
	int s = w->cur;

	w->cur = (w->cur + 1) % w->nslots;
	return s;
}

int
wheel_resize(struct wheel *w, int nslots)
{
	struct wheel old = *w;
	struct stream *st, *next;

	if (wheel_init(w, nslots) == -1) {
		*w = old;
		return -1;
	}
	for (int s = 0; s < old.nslots; s++)
		for (st = old.slots[s]; st; st = next) {
			next = st->next;
			wheel_put(w, st, (int)((long)s * nslots / old.nslots));
		}
	w->cur = (int)((long)old.cur * nslots / old.nslots);
	wheel_free(&old);
	return 0;
}
