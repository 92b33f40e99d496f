/* check_stamps.c: the route and arrival of requests, keyed by address. */
#include <stdint.h>
#include <stdlib.h>

#include "stamps.h"
#include "unit.h"

#define N 5000

/* Made-up request addresses, 16 apart like malloc's. */
static const void *
addr(unsigned long i)
{
	return (const void *)(uintptr_t)(0x10000 + 16 * i);
}

START_TEST(test_take_once)
{
	struct stamps *st = stamps_new();
	long long start;
	int route;

	ck_assert_ptr_nonnull(st);
	ck_assert_int_eq(stamps_take(st, addr(1), &route, &start), -1);
	ck_assert_int_eq(stamps_put(st, addr(1), 3, 1234), 0);
	ck_assert_int_eq(stamps_put(st, addr(1), 4, 5678), 0);	/* again */
	ck_assert_uint_eq(stamps_count(st), 1);
	ck_assert_int_eq(stamps_take(st, addr(1), &route, &start), 0);
	ck_assert_int_eq(route, 4);
	ck_assert_int_eq(start, 5678);
	ck_assert_int_eq(stamps_take(st, addr(1), &route, &start), -1);
	ck_assert_uint_eq(stamps_count(st), 0);
	stamps_free(st);
}
END_TEST

/*
 * Thousands at once, put and taken in a random interleaving against a
 * plain array: each is found with its own stamp, once, through the growth
 * of the table and every back shift of a take.
 */
START_TEST(test_many_in_any_order)
{
	struct stamps *st = stamps_new();
	static char live[N];
	unsigned long i, k, n = 0;
	long long start;
	int route;

	srand(7);
	for (k = 0; k < 4 * N; k++) {
		i = (unsigned long)rand() % N;
		if (rand() % 3 != 0) {
			ck_assert_int_eq(stamps_put(st, addr(i), (int)(i % 21),
			    1000000LL + (long long)i), 0);
			n += !live[i], live[i] = 1;
		} else {
			ck_assert_int_eq(stamps_take(st, addr(i), &route,
			    &start), live[i] ? 0 : -1);
			if (live[i]) {
				ck_assert_int_eq(route, (int)(i % 21));
				ck_assert_int_eq(start, 1000000LL + (long long)i);
			}
			n -= live[i], live[i] = 0;
		}
		ck_assert_uint_eq(stamps_count(st), n);
	}
	ck_assert_uint_gt(n, N / 2);
	for (i = 0; i < N; i++) {
		ck_assert_int_eq(stamps_take(st, addr(i), &route, &start),
		    live[i] ? 0 : -1);
		if (live[i])
			ck_assert_int_eq(start, 1000000LL + (long long)i);
	}
	ck_assert_uint_eq(stamps_count(st), 0);
	stamps_free(st);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("stamps");
	TCase *tc = tcase_create("stamps");

	tcase_add_test(tc, test_take_once);
	tcase_add_test(tc, test_many_in_any_order);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
