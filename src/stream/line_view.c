/*
 * line_view.c: a queue's line as this instance last read it; see
 * line_view.h. Bit k of a bitmap is Redis's: the high bit of byte k / 8
 * is bit 0 of it (SETBIT's order).
 */
#include <stdlib.h>
#include <string.h>

#include "line_view.h"

static void
bits_clear(struct line_bits *lb)
{
	free(lb->bytes);
	free(lb->sum);
	memset(lb, 0, sizeof *lb);
}

static int
bits_set(struct line_bits *lb, long long from, const unsigned char *p,
    size_t len)
{
	uint32_t n = 0;

	lb->from = from, lb->len = len;
	lb->bytes = malloc(len ? len : 1);
	lb->sum = malloc((len / 8 + 1) * sizeof *lb->sum);
	if (lb->bytes == NULL || lb->sum == NULL)
		return -1;
	memcpy(lb->bytes, p, len);
	for (size_t i = 0; i < len; i++) {
		if (i % 8 == 0)
			lb->sum[i / 8] = n;
		n += (uint32_t)__builtin_popcount(p[i]);
	}
	if (len % 8 == 0)
		lb->sum[len / 8] = n;
	lb->total = n;
	return 0;
}

/* The bits set in lb before bit k (k at or past its first byte), and
 * whether k's own is set. */
static long long
bits_before(const struct line_bits *lb, long long k, int *set)
{
	size_t i = (size_t)(k / 8 - lb->from);
	uint32_t n;

	*set = 0;
	if (i >= lb->len)	/* past the bytes read: no bit set there */
		return lb->total;
	n = lb->sum[i / 8];
	for (size_t j = i - i % 8; j < i; j++)
		n += (uint32_t)__builtin_popcount(lb->bytes[j]);
	n += (uint32_t)__builtin_popcount(lb->bytes[i] >> (8 - k % 8));
	*set = lb->bytes[i] >> (7 - k % 8) & 1;
	return n;
}

int
line_view_set(struct line_view *v, const struct qs_line *ln,
    long long line_to, long long places_to, long long now_ms)
{
	line_view_clear(v);
	v->s = ln->s;
	v->read_ms = now_ms;
	v->line_to = line_to, v->places_to = places_to;
	v->d = ln->d, v->p = ln->p, v->t = ln->t;
	if (bits_set(&v->line, ln->line_from, ln->line, ln->line_len) == -1 ||
	    bits_set(&v->places, ln->places_from, ln->places,
	    ln->places_len) == -1) {
		line_view_clear(v);
		return -1;
	}
	v->valid = 1;
	return 0;
}

void
line_view_clear(struct line_view *v)
{
	bits_clear(&v->line);
	bits_clear(&v->places);
	memset(v, 0, sizeof *v);
}

/* Where a stream's number lies: its part (drawn places when line < 0,
 * the pre-queue when pre, else the tickets), that part's bits, how far
 * they were read, and the number in the part. */
struct part_of {
	const struct qs_line_part *pt;
	const struct line_bits *lb;
	long long to, x;
};

static struct part_of
part_of(const struct line_view *v, long long line, int pre)
{
	struct part_of w = { pre ? &v->p : &v->t, &v->line, v->line_to, line };

	if (line < 0) {
		w.pt = &v->d, w.lb = &v->places;
		w.to = v->places_to, w.x = -line;
	}
	return w;
}

/*
 * The members of w's part (its bits read up to w->to) before number
 * w->x, into *ahead; 0 when the part cannot say where w->x is.
 */
static int
part_ahead(const struct part_of *w, long long *ahead)
{
	const struct qs_line_part *pt = w->pt;
	long long gone, x = w->x;
	int set, low_set;

	if (!pt->exact || pt->count == 0 || x < pt->low || x > pt->high ||
	    x > w->to || pt->low / 8 < w->lb->from)
		return 0;
	gone = bits_before(w->lb, x, &set) -
	    bits_before(w->lb, pt->low, &low_set);
	if (set)
		return 0;
	*ahead = x - pt->low - gone;
	return 1;
}

char
line_view_rank(const struct line_view *v, long long line, int pre,
    long long *value)
{
	struct part_of w;
	long long ahead;

	if (!v->valid || line == 0)
		return 0;
	w = part_of(v, line, pre);
	if (!part_ahead(&w, &ahead))
		return 0;
	if (line < 0) {			/* a drawn place */
		*value = ahead;
		return 'w';
	}
	if (pre) {
		*value = v->s.entrants;
		return 'p';
	}
	*value = v->d.count + v->p.count + ahead;
	return 'w';
}

int
line_view_left(const struct line_view *v, long long line, int pre)
{
	struct part_of w;
	int set = 0;

	if (!v->valid || line == 0)
		return 0;
	w = part_of(v, line, pre);
	if (!w.pt->exact || w.x > w.to)
		return 0;
	if (w.pt->count == 0 || w.x < w.pt->low)
		return 1;
	if (w.x / 8 >= w.lb->from)
		bits_before(w.lb, w.x, &set);
	return set;
}
