/* check_eta.c: estimated waits, with the clock injected. */
#include <string.h>

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

/*
 * Abandonment counted by age: abandoners left at 10 s on average, so at
 * ages up to 20 s. A joiner's 22 places ahead joined over the last 40 s
 * (the line's first 40 s ago): of their ages, the mean share still to
 * abandon is (20 - 20^2 / 80) / 40 = a quarter, so of the half of the
 * leavers that abandoned (rate 2: batch 10 every 10 s, keep 0.5) an
 * eighth of the places ahead will still leave: 10 / 0.875 = 11.43 places
 * an interval, not 20.
 */
START_TEST(test_rate_abandonment_by_age)
{
	struct queue_facts f = rate(0);

	f.rate = 2.0;
	ck_assert_int_eq(eta_seconds(&f, 23), 20);	/* without ages */
	f.ab_ms = 10000, f.ab_n = 5, f.head_at = f.now_ms - 40000;
	ck_assert_int_eq(eta_seconds(&f, 23), 30);	/* 23 / 11.43 */
	ck_assert_int_eq(eta_seconds(&f, 22), 20);
	f.ab_n = 4;		/* too few ages yet: as before */
	ck_assert_int_eq(eta_seconds(&f, 23), 20);
	f.ab_n = 5, f.head_at = 0;	/* the line's first unknown */
	ck_assert_int_eq(eta_seconds(&f, 23), 20);
	/* a waiter 20th of 100, the line's first in for 60 s: the 19 ahead
	 * are 48.6 s to 60 s in line, past every abandoner's age */
	f.head_at = f.now_ms - 60000, f.line = 100;
	ck_assert_int_eq(eta_seconds(&f, 20), 20);
	ck_assert_int_eq(eta_seconds(&f, 21), 30);
	/* the same line read as a joiner's: ages 0 to 60 s, of which a
	 * sixth is still to abandon on average (10 / 60) */
	f.line = 0;
	ck_assert_int_eq(eta_seconds(&f, 21), 20);	/* 21 / 10.91 */
	ck_assert_int_eq(eta_seconds(&f, 22), 30);
}
END_TEST

/* The range: bench/eta's p10 to p90 around the estimate, per mode. */
START_TEST(test_range)
{
	struct queue_facts f = rate(0);
	long long lo, hi;

	eta_range(&f, 100, &lo, &hi);
	ck_assert(lo <= 100 && hi >= 100 && lo < hi);
	ck_assert_int_eq(lo, 91);		/* 100 / 1.1, rounded */
	ck_assert_int_eq(hi, 111);		/* 100 / 0.9 */
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

/*
 * Capacity mode with the sessions inside known: 4 slots of 10 s, all
 * taken, ending in 2, 5, 7 and 9 s; every session runs its whole time
 * (mean session = active_ttl) and nobody abandons (keep 1): a room with a
 * long history that says so, a billion leavers and a million seconds of
 * sessions, against which eta.c's priors weigh nothing.
 */
static struct queue_facts
known(void)
{
	struct queue_facts f = {
		.mode = MODE_CAPACITY, .state = STATE_OPEN, .max_active = 4,
		.active_ttl = 10, .now_ms = T0, .last_tick_ms = T0 - 1000,
		.rate = 0.4, .keep = 1, .active = 4,
		.nends = 4, .ends = { 2000, 5000, 7000, 9000 },
		.leavers = 1000000000, .ended_ms = 1000000000,
	};

	return f;
}

/* Without early ends: the p-th waiter enters at the p-th end (and the
 * tick after it), then the rounds after it each one whole session later. */
START_TEST(test_capacity_known_ends)
{
	struct queue_facts f = known();

	ck_assert_int_eq(eta_seconds(&f, 1), 2);
	ck_assert_int_eq(eta_seconds(&f, 2), 5);
	ck_assert_int_eq(eta_seconds(&f, 3), 7);
	ck_assert_int_eq(eta_seconds(&f, 4), 9);
	ck_assert_int_eq(eta_seconds(&f, 5), 12);
	ck_assert_int_eq(eta_seconds(&f, 8), 19);
	ck_assert_int_eq(eta_seconds(&f, 9), 22);
	f.ends[0] = 1300;		/* ms, and the tick's 125, rounded once */
	ck_assert_int_eq(eta_seconds(&f, 1), 1);
	ck_assert_int_eq(eta_seconds(&f, 5), 11);
}
END_TEST

/* A free slot takes the first waiter at once; the rest shift by one. */
START_TEST(test_capacity_free_slot)
{
	struct queue_facts f = known();

	f.active = 3, f.nends = 3;
	ck_assert_int_eq(eta_seconds(&f, 1), 0);
	ck_assert_int_eq(eta_seconds(&f, 2), 2);
	ck_assert_int_eq(eta_seconds(&f, 4), 7);
	ck_assert_int_eq(eta_seconds(&f, 5), 12);
}
END_TEST

/* Half the line's leavers abandoned: of 4 places ahead, 2 are admitted. */
START_TEST(test_capacity_abandonment)
{
	struct queue_facts f = known();

	f.keep = 0.5;
	ck_assert_int_eq(eta_seconds(&f, 4), 5);
	ck_assert_int_eq(eta_seconds(&f, 3), 5);	/* 1.5 places: 2 */
	ck_assert_int_eq(eta_seconds(&f, 16), 19);
}
END_TEST

/* The same in a capacity room: with every place ahead past the
 * abandoners' ages (10 s at most), none of them leaves; a joiner's line
 * of 40 s whose abandoners left at 10 s on average: a quarter of the
 * half still leaves, 14 of 16 are admitted. */
START_TEST(test_capacity_abandonment_by_age)
{
	struct queue_facts f = known();

	f.keep = 0.5, f.ab_ms = 5000, f.ab_n = 5;
	f.head_at = f.now_ms - 60000, f.line = 20;
	ck_assert_int_eq(eta_seconds(&f, 16), 39);	/* as keep 1 */
	f.ab_ms = 10000, f.head_at = f.now_ms - 40000, f.line = 0;
	ck_assert_int_eq(eta_seconds(&f, 16), 35);
}
END_TEST

/*
 * Sessions that end early free slots before the known ends: 18 early
 * ends, and the prior's 0.8 (a fifth of the round of 4 counted as if
 * before the first), in 72 s of sessions (the ended ones 15 s, the 4
 * inside 8 + 5 + 3 + 1 s, and that round of 4 whole ones, 40 s) is h =
 * 0.261 a second each, 1.044 a second among the 4. By t, the ends up to t
 * still inside (1 / (1 + h e) of them) and 1.044 t early ones.
 */
START_TEST(test_capacity_early_ends)
{
	struct queue_facts f = known();

	f.early = 18, f.ended_ms = 15000;
	/* 1 at 0.96 s, before the first end */
	ck_assert_int_eq(eta_seconds(&f, 1), 1);
	/* 2 at 1.91 s, still before it */
	ck_assert_int_eq(eta_seconds(&f, 2), 2);
	/* then, with the end at 2 s still there (1 / 1.52 = 0.66): 3 at
	 * 2.24 s */
	ck_assert_int_eq(eta_seconds(&f, 3), 2);
	/* the rounds after: a mean session of 10 / (1 + 1.31) = 4.34 s */
	ck_assert_int_eq(eta_seconds(&f, 5), 5);	/* 0.96 + 4.34 */
	f.early = 1, f.ended_ms = 0;	/* one early end, in a round's time */
	ck_assert_int_eq(eta_seconds(&f, 1), 2);
	/* none early in a long history: the ends as they are */
	f.early = 0, f.ended_ms = 1000000000;
	ck_assert_int_eq(eta_seconds(&f, 3), 7);
	ck_assert_int_eq(eta_seconds(&f, 5), 12);
}
END_TEST

/*
 * A room's first minutes, before its own leavers and sessions say much:
 * eta.c's priors. known()'s room with no leaver yet and no session ended:
 * of 10 places ahead 8 are taken as admitted (the keep prior, 0.8), and
 * the prior's 0.8 early ends over the 4 inside (17 s) and the round
 * before (40 s), h = 0.014 a second, make a mean session of 10 / (1 +
 * 0.07) = 9.34 s, not 10.
 */
START_TEST(test_capacity_priors)
{
	struct queue_facts f = known();

	f.leavers = 0, f.ended_ms = 0;
	ck_assert_int_eq(eta_seconds(&f, 1), 2);	/* the ends still */
	ck_assert_int_eq(eta_seconds(&f, 4), 9);
	ck_assert_int_eq(eta_seconds(&f, 5), 9);	/* 4 places: 4th end */
	ck_assert_int_eq(eta_seconds(&f, 6), 11);	/* 5: 2 + 9.34 */
	ck_assert_int_eq(eta_seconds(&f, 10), 18);	/* 8: 9 + 9.34 */
	/* The prior weighs as 20 leavers: with 20 of the room's own, half
	 * of them admitted, keep is (10 + 16) / 40 = 0.65. */
	f.ended_ms = 1000000000;
	f.leavers = 20, f.keep = 0.5;
	ck_assert_int_eq(eta_seconds(&f, 10), 17);	/* 7 (6.5): 7 + 10 */
	f.leavers = 0;
	ck_assert_int_eq(eta_seconds(&f, 10), 19);	/* 8: 9 + 10 */
	f.leavers = 1000000000;		/* the room's own alone */
	ck_assert_int_eq(eta_seconds(&f, 10), 12);	/* 5: 2 + 10 */
}
END_TEST

/* More sessions than ends known: the rest on the line to the latest. */
START_TEST(test_capacity_ends_sampled)
{
	struct queue_facts f = known();

	f.max_active = 10, f.active = 10, f.nends = 2;
	f.ends[0] = 1000, f.ends[1] = 2000, f.last_end = 10000;
	ck_assert_int_eq(eta_seconds(&f, 2), 2);
	ck_assert_int_eq(eta_seconds(&f, 3), 3);	/* 2 + 8 / 8 */
	ck_assert_int_eq(eta_seconds(&f, 10), 10);
	ck_assert_int_eq(eta_seconds(&f, 11), 11);	/* 1 + 10 */
}
END_TEST

/* Without ends (a summary before any session) the speed alone, as ever;
 * a batch cap still binds. */
START_TEST(test_capacity_no_ends)
{
	struct queue_facts f = known();

	f.nends = 0;
	ck_assert_int_eq(eta_seconds(&f, 4), 10);	/* 4 / 0.4 */
	f = known();
	f.batch = 1, f.interval = 5;
	ck_assert_int_eq(eta_seconds(&f, 4), 19);	/* 4 batches, 1 s in */
}
END_TEST

/*
 * The queue's own band, once it has one, weighed with bench/eta's (here
 * capacity's, -12% / +28%) as its n errors against 100 more.
 */
START_TEST(test_range_own)
{
	struct queue_facts f = known();
	long long lo, hi;

	f.active_ttl = 100;	/* a wait of 100 s is one round: -20% / +30% */
	ck_assert_int_eq(eta_band_parse(&f, "-40 40 50"), 0);
	ck_assert_int_eq(f.band_own, 1);
	eta_range(&f, 100, &lo, &hi);
	ck_assert_int_eq(lo, 82);		/* p90 0.30 - (0.30 - 0.04) / 3 */
	ck_assert_int_eq(hi, 117);		/* p10 -0.20 + 0.16 / 3 */
	ck_assert_int_eq(eta_band_parse(&f, "-40 40 200"), 0);
	eta_range(&f, 100, &lo, &hi);
	ck_assert_int_eq(lo, 89);		/* p90 0.30 - 0.26 * 2 / 3 */
	ck_assert_int_eq(hi, 110);		/* p10 -0.20 + 0.16 * 2 / 3 */
	ck_assert_int_eq(eta_band_parse(&f, "-200 250 100"), 0);
	eta_range(&f, 100, &lo, &hi);
	ck_assert_int_eq(lo, 78);		/* 100 / 1.275 */
	ck_assert_int_eq(hi, 125);		/* 100 / 0.8 */
	ck_assert_int_eq(eta_band_parse(&f, "300 500 200"), 0);
	eta_range(&f, 100, &lo, &hi);
	ck_assert_int_eq(lo, 70);		/* always estimates high */
	ck_assert_int_eq(hi, 100);		/* ...and eta stays inside */
	ck_assert_int_eq(eta_band_parse(&f, "-1000 0 100000"), 0);
	eta_range(&f, 100, &lo, &hi);
	ck_assert_int_eq(hi, 2000);		/* p10 held at -95% */
	f.mode = MODE_RATE;
	ck_assert_int_eq(eta_band_parse(&f, "-40 40 100"), 0);
	eta_range(&f, 100, &lo, &hi);
	ck_assert_int_eq(lo, 93);		/* rate's +10%: 100 / 1.07 */
	ck_assert_int_eq(hi, 108);		/* and -10%: 100 / 0.93 */
	ck_assert_int_eq(eta_band_parse(&f, ""), 0);
	ck_assert_int_eq(f.band_own, 0);
	ck_assert_int_eq(eta_band_parse(&f, "-200 250"), -1);
	ck_assert_int_eq(eta_band_parse(&f, "250 -200 80"), -1);
	ck_assert_int_eq(eta_band_parse(&f, "-200 250 80 1"), -1);
	ck_assert_int_eq(eta_band_parse(&f, "-200 250 0"), -1);
	ck_assert_int_eq(f.band_own, 0);
}
END_TEST

/*
 * A capacity wait of r rounds (mean sessions: 10 s in known(), whose long
 * history says none end early) has the one-round default divided by
 * sqrt(r): -20% / +30% up to 10 s, -10% / +15% at 40 s, a third of it
 * at 90 s.
 */
START_TEST(test_range_rounds)
{
	struct queue_facts f = known();
	long long lo, hi;

	eta_range(&f, 9, &lo, &hi);
	ck_assert_int_eq(lo, 7);		/* 9 / 1.3 */
	ck_assert_int_eq(hi, 11);		/* 9 / 0.8 */
	eta_range(&f, 6, &lo, &hi);		/* less than a round: as one */
	ck_assert_int_eq(lo, 5);		/* 6 / 1.3 */
	ck_assert_int_eq(hi, 8);		/* 6 / 0.8 */
	eta_range(&f, 40, &lo, &hi);
	ck_assert_int_eq(lo, 35);		/* 40 / 1.15 */
	ck_assert_int_eq(hi, 44);		/* 40 / 0.9 */
	eta_range(&f, 90, &lo, &hi);
	ck_assert_int_eq(lo, 82);		/* 90 / 1.1 */
	ck_assert_int_eq(hi, 96);		/* 90 / (1 - 0.0667) */
}
END_TEST

/* The ages field: 'head_at sum n', the mean age sum / n; '' none. */
START_TEST(test_ages_parse)
{
	struct queue_facts f = rate(0);
	const char *bad[] = {
		"1 2", "1 2 3 4", "x 2 3", "1 -2 3", "1  2 3", " 1 2 3",
		"1 2 3 ", "1 2 3x", "-1 2 3",
	};

	ck_assert_int_eq(eta_ages_parse(&f, "1795781210697 48000 6"), 0);
	ck_assert(f.head_at == 1795781210697LL);
	ck_assert_int_eq(f.ab_ms, 8000);
	ck_assert_int_eq(f.ab_n, 6);
	ck_assert_int_eq(eta_ages_parse(&f, "0 0 0"), 0);
	ck_assert(f.head_at == 0 && f.ab_ms == 0 && f.ab_n == 0);
	ck_assert_int_eq(eta_ages_parse(&f, "5 7 0"), 0);
	ck_assert_int_eq(f.ab_ms, 0);
	ck_assert_int_eq(eta_ages_parse(&f, "1795781210697 48000 6"), 0);
	ck_assert_int_eq(eta_ages_parse(&f, ""), 0);	/* never written */
	ck_assert(f.head_at == 0 && f.ab_n == 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(eta_ages_parse(&f, bad[i]) == -1, "'%s' was read",
		    bad[i]);
}
END_TEST

START_TEST(test_ends_parse)
{
	struct queue_facts f = { 0 };
	char many[ETA_ENDS_MAX * 4 + 8] = "";

	ck_assert_int_eq(eta_ends_parse(&f, "10 20 20 35"), 0);
	ck_assert_int_eq(f.nends, 4);
	ck_assert_int_eq(f.ends[3], 35);
	ck_assert_int_eq(eta_ends_parse(&f, ""), 0);
	ck_assert_int_eq(f.nends, 0);
	ck_assert_int_eq(eta_ends_parse(&f, "20 10"), -1);
	ck_assert_int_eq(eta_ends_parse(&f, "10 x"), -1);
	ck_assert_int_eq(eta_ends_parse(&f, "10x"), -1);
	f.now_ms = 100;		/* unix ms: an end before now is now */
	ck_assert_int_eq(eta_ends_parse(&f, "90 130"), 0);
	ck_assert_int_eq(f.ends[0], 0);
	ck_assert_int_eq(f.ends[1], 30);
	f.now_ms = 0;
	for (int i = 0; i < ETA_ENDS_MAX + 2; i++)
		strcat(many, "7 ");
	ck_assert_int_eq(eta_ends_parse(&f, many), 0);
	ck_assert_int_eq(f.nends, ETA_ENDS_MAX);	/* the rest unread */
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
	tcase_add_test(tc, test_rate_abandonment_by_age);
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_capacity_known_ends);
	tcase_add_test(tc, test_capacity_free_slot);
	tcase_add_test(tc, test_capacity_abandonment);
	tcase_add_test(tc, test_capacity_abandonment_by_age);
	tcase_add_test(tc, test_capacity_early_ends);
	tcase_add_test(tc, test_capacity_priors);
	tcase_add_test(tc, test_capacity_ends_sampled);
	tcase_add_test(tc, test_capacity_no_ends);
	tcase_add_test(tc, test_range_own);
	tcase_add_test(tc, test_range_rounds);
	tcase_add_test(tc, test_ages_parse);
	tcase_add_test(tc, test_ends_parse);
	tcase_add_test(tc, test_passthrough);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
