/*
 * line_view.h: a queue's line as this instance last read it (line.lua),
 * enough to rank its own streams without asking Redis per stream (doc/
 * design.md, "Live positions"). Pure: no I/O, the clock passed in.
 */
#ifndef WR_LINE_VIEW_H
#define WR_LINE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "qstore_line.h"

/* One bitmap's part: bits from byte `from` on (bits past them are 0),
 * and the bits set before each 8-byte word of it. */
struct line_bits {
	long long from;
	size_t len;
	unsigned char *bytes;
	uint32_t *sum;
	uint32_t total;		/* bits set in all */
};

struct line_view {
	struct standing s;	/* the queue's facts when read */
	int valid;		/* it holds a read */
	long long read_ms;	/* when read (the caller's clock) */
	long long line_to, places_to;	/* what was asked for */
	struct qs_line_part d, p, t;	/* the line's parts (qstore_line.h) */
	struct line_bits line, places;	/* their bits: who left */
};

/*
 * v from ln, read at now_ms for tickets up to line_to and places up to
 * places_to; -1 when out of memory (v then holds nothing).
 */
int line_view_set(struct line_view *v, const struct qs_line *ln,
    long long line_to, long long places_to, long long now_ms);
/* Free what v holds; it then holds nothing (valid 0). */
void line_view_clear(struct line_view *v);

/*
 * Where the token numbered line (its ticket; minus its drawn place)
 * stands: 'w' and its 0-based rank into *value, 'p' (pre: it awaits the
 * draw) and the entrants, or 0 when v cannot say (it left its part, its
 * part is not exact, or v does not cover it): ask Redis.
 */
char line_view_rank(const struct line_view *v, long long line, int pre,
    long long *value);

/*
 * Does v know that the token numbered line left its part of the line
 * (admitted from the front, or its bit set): 1, else 0 (it waits, or v
 * cannot say).
 */
int line_view_left(const struct line_view *v, long long line, int pre);

#endif
