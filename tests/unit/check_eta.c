/* check_eta.c: estimated waits, with the clock injected. */
#include "conf.h"
#include "eta.h"
#include "unit.h"

#define T0 1763800000000LL	/* a Redis TIME in ms */

/* Rate mode: batch 10 every 10 s, last admission at T0, no session cap. */
static struct queue_facts
rate(long long since_ms)
{
	struct queue_facts f = {
		.mode = MODE_RATE, .state = STATE_OPEN, .batch = 10,
		.interval = 10, .max_active = 0, .active_ttl = 300,
		.now_ms = T0 + since_ms, .last_tick_ms = T0, .rate = 0,
	};

	return f;
}

/* Capacity mode: 100 active at once for 300 s each, no batch cap. */
static struct queue_facts
capacity(double per_second)
{
	struct queue_facts f = {
		.mode = MODE_CAPACITY, .state = STATE_OPEN, .batch = 0,
		.interval = 10, .max_active = 100, .active_ttl = 300,
		.now_ms = T0, .last_tick_ms = T0 - 1000, .rate = per_second,
	};

	return f;
}

START_TEST(test_rate_just_after_tick)
{
	struct queue_facts f = rate(0);

	ck_assert_int_eq(eta_seconds(&f, 1), 10);
	ck_assert_int_eq(eta_seconds(&f, 10), 10);
	ck_assert_int_eq(eta_seconds(&f, 11), 20);
	ck_assert_int_eq(eta_seconds(&f, 25), 30);
	ck_assert_int_eq(eta_seconds(&f, 1000), 1000);
}
END_TEST

START_TEST(test_rate_since_tick)
{
	struct queue_facts f = rate(9000);	/* interval - 1 s */

	ck_assert_int_eq(eta_seconds(&f, 1), 1);
	ck_assert_int_eq(eta_seconds(&f, 11), 11);
	f = rate(2000);
	ck_assert_int_eq(eta_seconds(&f, 25), 28);
	f = rate(5000);
	ck_assert_int_eq(eta_seconds(&f, 10), 5);
}
END_TEST

START_TEST(test_rate_never_negative)
{
	struct queue_facts f = rate(10000);

	ck_assert_int_eq(eta_seconds(&f, 1), 0);
	f = rate(60000);	/* the tick is late */
	ck_assert_int_eq(eta_seconds(&f, 1), 0);
	ck_assert_int_eq(eta_seconds(&f, 11), 0);
}
END_TEST

START_TEST(test_rate_never_ticked)
{
	struct queue_facts f = rate(0);

	f.last_tick_ms = 0;
	ck_assert_int_eq(eta_seconds(&f, 1), 10);
	ck_assert_int_eq(eta_seconds(&f, 25), 30);
	ck_assert_int_eq(eta_seconds(&f, 100), 100);
}
END_TEST

START_TEST(test_rate_other_figures)
{
	struct queue_facts f = rate(3000);

	f.batch = 1400;
	f.interval = 10;
	ck_assert_int_eq(eta_seconds(&f, 1400), 7);
	ck_assert_int_eq(eta_seconds(&f, 1401), 17);
	f.batch = 1;
	f.interval = 60;
	ck_assert_int_eq(eta_seconds(&f, 3), 177);
}
END_TEST

START_TEST(test_paused)
{
	struct queue_facts f = rate(0);

	f.state = STATE_PAUSED;
	ck_assert_int_eq(eta_seconds(&f, 1), -1);
	ck_assert_int_eq(eta_seconds(&f, 500), -1);
	f = capacity(2.0);
	f.state = STATE_PAUSED;
	ck_assert_int_eq(eta_seconds(&f, 1), -1);
}
END_TEST

START_TEST(test_capacity_rate)
{
	struct queue_facts f = capacity(2.0);

	ck_assert_int_eq(eta_seconds(&f, 1), 1);
	ck_assert_int_eq(eta_seconds(&f, 4), 2);
	ck_assert_int_eq(eta_seconds(&f, 5), 3);
	f = capacity(0.5);
	ck_assert_int_eq(eta_seconds(&f, 3), 6);
	f = capacity(0.3);
	ck_assert_int_eq(eta_seconds(&f, 1), 4);
}
END_TEST

START_TEST(test_capacity_no_rate)
{
	struct queue_facts f = capacity(0);

	ck_assert_int_eq(eta_seconds(&f, 1), 300);
	ck_assert_int_eq(eta_seconds(&f, 100), 300);
	ck_assert_int_eq(eta_seconds(&f, 101), 600);
	ck_assert_int_eq(eta_seconds(&f, 150), 600);
	ck_assert_int_eq(eta_seconds(&f, 1000), 3000);
}
END_TEST

/* Both caps: the slower one binds. */
START_TEST(test_both_caps)
{
	struct queue_facts f = rate(0);

	/* 8 sessions of 600 s against 5 a second: sessions bind */
	f.batch = 5, f.interval = 1, f.max_active = 8, f.active_ttl = 600;
	ck_assert_int_eq(eta_seconds(&f, 1), 75);
	ck_assert_int_eq(eta_seconds(&f, 8), 600);
	/* 1000 sessions of 300 s against 10 every 10 s: the rate binds */
	f = rate(0);
	f.max_active = 1000;
	ck_assert_int_eq(eta_seconds(&f, 1), 10);
	ck_assert_int_eq(eta_seconds(&f, 25), 30);
	/* capacity at 2 a second measured, but 1 every 10 s allowed */
	f = capacity(2.0);
	f.batch = 1;
	f.interval = 10;
	f.last_tick_ms = T0;
	ck_assert_int_eq(eta_seconds(&f, 3), 30);
	f.batch = 0;
	ck_assert_int_eq(eta_seconds(&f, 3), 2);
}
END_TEST

/* Waiters who abandon ahead move the line too (line_speed's rate). */
START_TEST(test_rate_abandonment)
{
	struct queue_facts f = rate(0);

	f.rate = 1.25;		/* 10 every 10 s, 80% of leavers admitted */
	ck_assert_int_eq(eta_seconds(&f, 25), 20);
	ck_assert_int_eq(eta_seconds(&f, 12), 10);
	ck_assert_int_eq(eta_seconds(&f, 13), 20);
	f.rate = 0.5;		/* slower than the batch: the batch holds */
	ck_assert_int_eq(eta_seconds(&f, 25), 30);
}
END_TEST

/* The range: bench/eta's p10 to p90 around the estimate, per mode. */
START_TEST(test_range)
{
	struct queue_facts f = rate(0);
	long long lo, hi;

	eta_range(&f, 100, &lo, &hi);
	ck_assert(lo <= 100 && hi >= 100 && lo < hi);
	ck_assert_int_eq(lo, 90);
	ck_assert_int_eq(hi, 114);
	eta_range(&f, 0, &lo, &hi);
	ck_assert_int_eq(lo, 0);
	ck_assert_int_eq(hi, 0);
	eta_range(&f, -1, &lo, &hi);
	ck_assert_int_eq(lo, -1);
	ck_assert_int_eq(hi, -1);
	f = capacity(1.0);
	eta_range(&f, 300, &lo, &hi);
	ck_assert(lo < 300 && hi > 300);
}
END_TEST

START_TEST(test_passthrough)
{
	struct queue_facts f = rate(0);

	f.mode = MODE_PASSTHROUGH;
	ck_assert_int_eq(eta_seconds(&f, 1), 0);
	ck_assert_int_eq(eta_seconds(&f, 5000), 0);
	f.state = STATE_PAUSED;
	ck_assert_int_eq(eta_seconds(&f, 1), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("queue");
	TCase *tc = tcase_create("eta");

	tcase_add_test(tc, test_rate_just_after_tick);
	tcase_add_test(tc, test_rate_since_tick);
	tcase_add_test(tc, test_rate_never_negative);
	tcase_add_test(tc, test_rate_never_ticked);
	tcase_add_test(tc, test_rate_other_figures);
	tcase_add_test(tc, test_paused);
	tcase_add_test(tc, test_capacity_rate);
	tcase_add_test(tc, test_capacity_no_rate);
	tcase_add_test(tc, test_both_caps);
	tcase_add_test(tc, test_rate_abandonment);
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_passthrough);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
