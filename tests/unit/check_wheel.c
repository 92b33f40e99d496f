/* check_wheel.c: the schedule of streams: spreading, turning, resizing. */
#include <string.h>

#include "sse.h"
#include "unit.h"
#include "wheel.h"

#define N 300

static struct stream st[N];

/* Every slot's list holds as many streams as its count says, and each
 * stream in it knows its slot; returns the streams seen. */
static int
consistent(const struct wheel *w)
{
	int all = 0;

	for (int s = 0; s < w->nslots; s++) {
		uint32_t n = 0;

		for (const struct stream *p = w->slots[s]; p; p = p->next) {
			ck_assert_int_eq(p->slot, s);
			if (p->next)
				ck_assert_ptr_eq(p->next->prev, p);
			n++;
		}
		ck_assert_uint_eq(n, w->n[s]);
		all += (int)n;
	}
	return all;
}

START_TEST(test_spread)
{
	struct wheel w;
	uint32_t lo = N, hi = 0;

	memset(st, 0, sizeof st);
	ck_assert_int_eq(wheel_init(&w, 30), 0);
	for (int i = 0; i < N; i++) {
		int s = wheel_pick(&w);

		/* between half a turn and a whole one ahead of the hand */
		ck_assert_int_ge(s, 14);
		ck_assert_int_le(s, 29);
		wheel_put(&w, &st[i], s);
	}
	ck_assert_int_eq(consistent(&w), N);
	for (int s = 14; s < 30; s++) {
		lo = w.n[s] < lo ? w.n[s] : lo;
		hi = w.n[s] > hi ? w.n[s] : hi;
	}
	ck_assert_uint_le(hi - lo, 1);	/* a burst spreads evenly */
	wheel_free(&w);
}
END_TEST

START_TEST(test_turn_remove)
{
	struct wheel w;

	memset(st, 0, sizeof st);
	ck_assert_int_eq(wheel_init(&w, 3), 0);
	ck_assert_int_eq(wheel_turn(&w), 0);
	ck_assert_int_eq(wheel_turn(&w), 1);
	ck_assert_int_eq(wheel_turn(&w), 2);
	ck_assert_int_eq(wheel_turn(&w), 0);	/* round again */
	for (int i = 0; i < 3; i++)
		wheel_put(&w, &st[i], 2);
	wheel_remove(&w, &st[1]);		/* the middle one */
	wheel_remove(&w, &st[2]);		/* the head */
	ck_assert_int_eq(consistent(&w), 1);
	ck_assert_ptr_eq(w.slots[2], &st[0]);
	wheel_free(&w);
}
END_TEST

START_TEST(test_resize)
{
	struct wheel w;

	memset(st, 0, sizeof st);
	ck_assert_int_eq(wheel_init(&w, 30), 0);
	for (int i = 0; i < N; i++)
		wheel_put(&w, &st[i], i % 30);
	for (int i = 0; i < 15; i++)
		wheel_turn(&w);
	ck_assert_int_eq(wheel_resize(&w, 10), 0);	/* 3 s -> 1 s */
	ck_assert_int_eq(w.nslots, 10);
	ck_assert_int_eq(w.cur, 5);		/* the same point of the turn */
	ck_assert_int_eq(consistent(&w), N);
	for (int s = 0; s < 10; s++)
		ck_assert_uint_eq(w.n[s], N / 10);	/* still spread */
	ck_assert_int_eq(st[29].slot, 9);	/* slot 29 of 30 -> 9 of 10 */
	ck_assert_int_eq(wheel_resize(&w, 50), 0);	/* 1 s -> 5 s */
	ck_assert_int_eq(consistent(&w), N);
	ck_assert_int_eq(w.cur, 25);
	wheel_free(&w);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("wheel");
	TCase *tc = tcase_create("wheel");

	tcase_add_test(tc, test_spread);
	tcase_add_test(tc, test_turn_remove);
	tcase_add_test(tc, test_resize);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
