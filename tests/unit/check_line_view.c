/*
 * check_line_view.c: ranks from the line as line.lua returns it (each
 * part's lowest and highest number, its members, and the bits of those
 * who left), against the rank a sorted set would give: drawn places
 * first, then pre-queue tickets, then tickets; bits in Redis's order
 * (SETBIT 0 is the high bit).
 */
#include <stdlib.h>
#include <string.h>

#include "line_view.h"
#include "unit.h"

#define TICKETS 5000
#define PRE_TOP 1200		/* tickets up to it joined before an opening */
#define PLACES 700

static unsigned char line_map[TICKETS / 8 + 1], place_map[PLACES / 8 + 1];
static int waits[TICKETS + 1], drawn[PLACES + 1];

static void
setbit(unsigned char *m, long long k)
{
	m[k / 8] |= (unsigned char)(0x80 >> (k % 8));
}

/* Part pt of the numbers lo..hi that still wait (in[]), and a bit set
 * in map for each one between the first and the last that left. */
static void
part_of(struct qs_line_part *pt, const int *in, int lo, int hi,
    unsigned char *map)
{
	memset(pt, 0, sizeof *pt);
	pt->exact = 1;
	for (int k = lo; k <= hi; k++) {
		if (!in[k])
			continue;
		if (pt->low == 0)
			pt->low = k;
		pt->high = k;
		pt->count++;
	}
	for (long long k = pt->low; pt->low && k <= pt->high; k++)
		if (!in[k])
			setbit(map, k);
}

/* A line: the front admitted (no bits), some left from the middle. */
static void
fill(struct qs_line *ln)
{
	memset(line_map, 0, sizeof line_map);
	memset(place_map, 0, sizeof place_map);
	memset(ln, 0, sizeof *ln);
	srand(7);
	for (int t = 1; t <= TICKETS; t++)
		waits[t] = t > 100 && rand() % 3 != 0;
	for (int p = 1; p <= PLACES; p++)
		drawn[p] = p > 17 && rand() % 5 != 0;
	part_of(&ln->d, drawn, 1, PLACES, place_map);
	part_of(&ln->p, waits, 1, PRE_TOP, line_map);
	part_of(&ln->t, waits, PRE_TOP + 1, TICKETS, line_map);
	ln->s.entrants = ln->p.count;
	ln->line_from = ln->p.low / 8;
	ln->line = line_map + ln->line_from;
	ln->line_len = sizeof line_map - (size_t)ln->line_from;
	ln->places_from = ln->d.low / 8;
	ln->places = place_map + ln->places_from;
	ln->places_len = sizeof place_map - (size_t)ln->places_from;
}

START_TEST(test_ranks_match_sorted_set)
{
	struct line_view v;
	struct qs_line ln;
	long long value, rank = 0;

	memset(&v, 0, sizeof v);
	fill(&ln);
	ck_assert_int_eq(line_view_set(&v, &ln, TICKETS, PLACES, 1000), 0);
	for (int p = 1; p <= PLACES; p++) {
		char k = line_view_rank(&v, -p, 0, &value);

		ck_assert_int_eq(k, drawn[p] ? 'w' : 0);
		if (drawn[p])
			ck_assert_int_eq(value, rank++);
	}
	for (int t = 1; t <= PRE_TOP; t++) {
		char k = line_view_rank(&v, t, 1, &value);

		ck_assert_int_eq(k, waits[t] ? 'p' : 0);
		if (waits[t])
			ck_assert_int_eq(value, ln.p.count);
		rank += waits[t];
	}
	for (int t = PRE_TOP + 1; t <= TICKETS; t++) {
		char k = line_view_rank(&v, t, 0, &value);

		ck_assert_int_eq(k, waits[t] ? 'w' : 0);
		if (waits[t])
			ck_assert_int_eq(value, rank++);
	}
	ck_assert_int_eq(rank, ln.d.count + ln.p.count + ln.t.count);
	line_view_clear(&v);
}
END_TEST

START_TEST(test_what_it_cannot_say)
{
	struct line_view v;
	struct qs_line ln;
	long long value;
	int t = TICKETS;

	memset(&v, 0, sizeof v);
	fill(&ln);
	while (!waits[t])
		t--;
	/* asked up to t - 1: t is not covered */
	ck_assert_int_eq(line_view_set(&v, &ln, t - 1, PLACES, 0), 0);
	ck_assert_int_eq(line_view_rank(&v, t, 0, &value), 0);
	ck_assert_int_eq(line_view_rank(&v, 0, 0, &value), 0);
	/* below a part's lowest, past its highest */
	ck_assert_int_eq(line_view_rank(&v, 3, 0, &value), 0);
	ck_assert_int_eq(line_view_rank(&v, -(PLACES + 9), 0, &value), 0);
	/* a part that is not exact (a bit missing): not from it */
	ln.t.exact = 0;
	ck_assert_int_eq(line_view_set(&v, &ln, TICKETS, PLACES, 0), 0);
	ck_assert_int_eq(line_view_rank(&v, t, 0, &value), 0);
	ck_assert_int_eq(line_view_rank(&v, -(int)ln.d.low, 0, &value), 'w');
	ck_assert_int_eq(value, 0);
	line_view_clear(&v);
	ck_assert_int_eq(line_view_rank(&v, -(int)ln.d.low, 0, &value), 0);
}
END_TEST

START_TEST(test_bytes_end_early)
{
	struct line_view v;
	struct qs_line ln;
	long long value;

	/* tickets 9..20 wait, none left: Redis's string is shorter than
	 * asked (no bit was ever set), and every rank still holds */
	memset(&v, 0, sizeof v);
	memset(&ln, 0, sizeof ln);
	ln.t.low = 9, ln.t.high = 20, ln.t.count = 12, ln.t.exact = 1;
	ln.line = ln.places = (const unsigned char *)"";
	ck_assert_int_eq(line_view_set(&v, &ln, 20, 0, 0), 0);
	for (int t = 9; t <= 20; t++) {
		ck_assert_int_eq(line_view_rank(&v, t, 0, &value), 'w');
		ck_assert_int_eq(value, t - 9);
	}
	ck_assert_int_eq(line_view_rank(&v, 21, 0, &value), 0);
	line_view_clear(&v);
}
END_TEST

START_TEST(test_who_left)
{
	struct line_view v;
	struct qs_line ln;
	int t;

	memset(&v, 0, sizeof v);
	fill(&ln);
	ck_assert_int_eq(line_view_set(&v, &ln, TICKETS, PLACES, 0), 0);
	/* every number: left exactly when it does not wait (the front that
	 * was admitted included); drawn places the same */
	for (t = PRE_TOP + 1; t <= TICKETS; t++)
		ck_assert_int_eq(line_view_left(&v, t, 0), t >= ln.t.low &&
		    waits[t] ? 0 : 1);
	for (t = 1; t <= PLACES; t++)
		ck_assert_int_eq(line_view_left(&v, -t, 0), !drawn[t]);
	/* not known, not covered, not exact: it cannot say */
	ck_assert_int_eq(line_view_left(&v, 0, 0), 0);
	ln.t.exact = 0;
	ck_assert_int_eq(line_view_set(&v, &ln, TICKETS, PLACES, 0), 0);
	ck_assert_int_eq(line_view_left(&v, (int)ln.t.low - 1, 0), 0);
	ln.t.exact = 1;
	ck_assert_int_eq(line_view_set(&v, &ln, PRE_TOP + 5, PLACES, 0), 0);
	ck_assert_int_eq(line_view_left(&v, TICKETS, 0), 0);
	line_view_clear(&v);
	ck_assert_int_eq(line_view_left(&v, 1, 0), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("line_view");
	TCase *tc = tcase_create("line_view");

	tcase_add_test(tc, test_ranks_match_sorted_set);
	tcase_add_test(tc, test_what_it_cannot_say);
	tcase_add_test(tc, test_bytes_end_early);
	tcase_add_test(tc, test_who_left);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
