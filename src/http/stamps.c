/*
 * stamps.c: an open-addressed table by the request's address, linear
 * probing, grown to keep it at most half full; a take shifts the entries
 * after it back, so no slot is ever a tombstone. It never shrinks: its
 * size follows the most requests that ever awaited their answers at once
 * (24 bytes a slot, two to four a request: 20,000 at once is 1.5 MiB).
 */
#include <stdint.h>
#include <stdlib.h>

#include "stamps.h"

#define STAMPS_MIN 256		/* slots, a power of two */

struct stamp {
	const void *req;	/* NULL: a free slot */
	long long start_us;
	int route;
};

struct stamps {
	struct stamp *slot;
	unsigned long size, count;
};

static unsigned long
stamps_home(const struct stamps *st, const void *req)
{
	uint64_t h = (uint64_t)(uintptr_t)req * 0x9e3779b97f4a7c15ULL;

	return (unsigned long)(h >> 32) & (st->size - 1);
}

/* req's slot, or the free slot where it would go. */
static unsigned long
stamps_find(const struct stamps *st, const void *req)
{
	unsigned long i = stamps_home(st, req);

	while (st->slot[i].req != NULL && st->slot[i].req != req)
		i = (i + 1) & (st->size - 1);
	return i;
}

struct stamps *
stamps_new(void)
{
	struct stamps *st = calloc(1, sizeof *st);

	if (st == NULL)
		return NULL;
	st->size = STAMPS_MIN;
	if ((st->slot = calloc(st->size, sizeof *st->slot)) == NULL) {
		free(st);
		return NULL;
	}
	return st;
}

void
stamps_free(struct stamps *st)
{
	if (st == NULL)
		return;
	free(st->slot);
	free(st);
}

static int
stamps_grow(struct stamps *st)
{
	struct stamp *old = st->slot;
	unsigned long n = st->size;

	if ((st->slot = calloc(2 * n, sizeof *st->slot)) == NULL) {
		st->slot = old;
		return -1;
	}
	st->size = 2 * n;
	for (unsigned long i = 0; i < n; i++)
		if (old[i].req != NULL)
			st->slot[stamps_find(st, old[i].req)] = old[i];
	free(old);
	return 0;
}

int
stamps_put(struct stamps *st, const void *req, int route, long long start_us)
{
	unsigned long i;

	if (2 * (st->count + 1) > st->size && stamps_grow(st) == -1)
		return -1;
	i = stamps_find(st, req);
	if (st->slot[i].req == NULL)
		st->count++;
	st->slot[i] = (struct stamp){ req, start_us, route };
	return 0;
}

/* Empty slot i and move back each entry after it that may fill it. */
static void
stamps_remove(struct stamps *st, unsigned long i)
{
	unsigned long mask = st->size - 1, j = i, home;

	for (;;) {
		st->slot[i].req = NULL;
		do {
			j = (j + 1) & mask;
			if (st->slot[j].req == NULL)
				return;
			home = stamps_home(st, st->slot[j].req);
			/* j stays if its home lies cyclically in (i, j]. */
		} while (i <= j ? i < home && home <= j : i < home || home <= j);
		st->slot[i] = st->slot[j];
		i = j;
	}
}

int
stamps_take(struct stamps *st, const void *req, int *route,
    long long *start_us)
{
	unsigned long i = stamps_find(st, req);

	if (st->slot[i].req == NULL)
		return -1;
	*route = st->slot[i].route, *start_us = st->slot[i].start_us;
	stamps_remove(st, i);
	st->count--;
	return 0;
}

unsigned long
stamps_count(const struct stamps *st)
{
	return st->count;
}
