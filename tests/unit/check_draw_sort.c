/*
 * check_draw_sort.c: the daemon's order of the draw (draw_sort.c) is the
 * order of ticket_member's strings, the one doc/api.md specifies: for
 * entrants added in chunks of any size, handed out in pieces of any size,
 * each exactly once, with the order in which it was added.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw_sort.h"
#include "ticket.h"
#include "unit.h"

#define N 3000

static char tokens[N][40];
static char members[N][TICKET_MEMBER_MAX + 1];

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The order as ticket_member's strings sort: "ticket token" each. */
static void
want_order(const unsigned char key[32], size_t n)
{
	for (size_t i = 0; i < n; i++)
		ticket_member(key, tokens[i], members[i]);
	qsort(members, n, sizeof members[0], str_cmp);
}

/* Every entrant in chunks of `chunk`, handed out `piece` at a time. */
static void
check_run(const unsigned char key[32], size_t n, size_t chunk, size_t piece)
{
	struct draw_set *s = draw_set_new(key);
	const char *list[N];
	char *buf = malloc(N * (DRAW_MEMBER_MAX + 1));
	const char **got = calloc(N, sizeof *got);
	unsigned long *seq = calloc(N, sizeof *seq);
	size_t k = 0, m;

	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < n; i++)
		list[i] = tokens[i];
	for (size_t i = 0; i < n; i += chunk)
		ck_assert_int_eq(draw_set_add(s, list + i, n - i < chunk ?
		    n - i : chunk), 0);
	ck_assert_uint_eq(draw_set_size(s), n);
	want_order(key, n);
	while ((m = draw_set_next(s, piece, buf, got, seq)) > 0) {
		ck_assert_uint_le(m, piece);
		for (size_t j = 0; j < m; j++, k++) {
			ck_assert_uint_lt(k, n);
			/* the member without its HMAC: ticket then token */
			ck_assert_str_eq(got[j], members[k] + TICKET_HEX);
			/* added as the seq-th */
			ck_assert_uint_lt(seq[j], n);
			ck_assert_str_eq(got[j] + TICKET_LEN, tokens[seq[j]]);
		}
	}
	ck_assert_uint_eq(k, n);
	draw_set_free(s);
	free(seq);
	free(got);
	free(buf);
}

START_TEST(test_order)
{
	unsigned char key[32];

	for (int i = 0; i < 32; i++)
		key[i] = (unsigned char)(7 * i + 1);
	for (size_t i = 0; i < N; i++)
		snprintf(tokens[i], sizeof tokens[i],
		    "%08zx-4f4d-4c5b-8a6e-%012zx", i * 2654435761u % 4294967291u,
		    i);
	check_run(key, N, N, N);		/* one chunk, one piece */
	check_run(key, N, 1000, 700);		/* chunks and pieces */
	check_run(key, N, 7, 1);		/* many small chunks */
	check_run(key, N, 1, 5000);		/* a chunk each */
	check_run(key, 1, 10, 10);		/* one entrant */
}
END_TEST

START_TEST(test_empty)
{
	unsigned char key[32] = { 0 };
	struct draw_set *s = draw_set_new(key);
	char buf[DRAW_MEMBER_MAX + 1];
	const char *m[1];
	unsigned long seq[1];

	ck_assert_int_eq(draw_set_add(s, NULL, 0), 0);
	ck_assert_uint_eq(draw_set_next(s, 1, buf, m, seq), 0);
	/* nothing may be added once handing out has begun */
	ck_assert_int_eq(draw_set_add(s, m, 0), -1);
	draw_set_free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("draw_sort");
	TCase *tc = tcase_create("draw_sort");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_empty);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
