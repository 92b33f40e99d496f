/*
 * check_standing.c: a token's standing as API.md's status object: an
 * active session's end and redirect, a waiter's position, ETA and range,
 * a stream's waiters sharing one run's facts, the pre-queue's ticket, and
 * poll_after's rule with injected pushes, TTLs, waits and positions.
 */
#include <string.h>

#include "conf.h"
#include "standing.h"
#include "unit.h"

/* check_ticket.c's token and its ticket (Python's hashlib). */
#define TOKEN "0b7c1a2e-3f4d-4c5b-8a6e-7f8091a2b3c4"
#define TICKET "5009e8b2339af9d79f565d558a577994"

/* A rate queue: 10 every 5 s, its last admission 2 s ago. */
static void
rate_queue(struct standing *s)
{
	memset(s, 0, sizeof *s);
	strcpy(s->token, TOKEN);
	s->waiting = 40;
	s->q.mode = MODE_RATE;
	s->q.state = STATE_OPEN;
	s->q.batch = 10;
	s->q.interval = 5;
	s->q.now_ms = 100000;
	s->q.last_tick_ms = 98000;
	s->q.waiting_ttl = 120;
}

#define PUSH 3		/* push_interval's default */

START_TEST(test_waiting)
{
	struct token_status st;
	struct standing s;

	rate_queue(&s);
	s.n = 24;		/* 0-based rank */
	standing_status(&s, "shop", PUSH, &st);
	ck_assert_str_eq(st.queue, "shop");
	ck_assert_str_eq(st.token, TOKEN);
	ck_assert_int_eq(st.active, 0);
	ck_assert_int_eq(st.prequeue, 0);
	ck_assert_int_eq(st.position, 25);
	ck_assert_int_eq(st.waiting, 40);
	/* 25th: three batches, 15 s from the last admission, 2 s ago */
	ck_assert_int_eq(st.eta_seconds, 13);
	/* a new rate queue's range: [eta / 1.1, eta / 0.9], rounded */
	ck_assert_int_eq(st.eta_low, 12);
	ck_assert_int_eq(st.eta_high, 14);
	ck_assert_int_eq(st.poll_after, PUSH);	/* 13 s: near the front */
	ck_assert_ptr_null(st.redirect);
	ck_assert_int_eq(st.active_until, 0);
}
END_TEST

START_TEST(test_paused)
{
	struct token_status st;
	struct standing s;

	rate_queue(&s);
	s.q.state = STATE_PAUSED;
	s.n = 0;
	standing_status(&s, "shop", PUSH, &st);
	ck_assert_int_eq(st.position, 1);
	ck_assert_int_eq(st.eta_seconds, -1);	/* null: no estimate */
	ck_assert_int_eq(st.eta_low, -1);
	ck_assert_int_eq(st.eta_high, -1);
	ck_assert_int_eq(st.poll_after, PUSH);	/* the position stands in */
	s.n = 3;
	standing_status(&s, "shop", PUSH, &st);
	ck_assert_int_eq(st.poll_after, 4 * PUSH);
	s.n = 1000000;
	standing_status(&s, "shop", PUSH, &st);
	ck_assert_int_eq(st.poll_after, STANDING_POLL_MAX);
}
END_TEST

START_TEST(test_active)
{
	struct token_status st;
	struct standing s;

	rate_queue(&s);
	s.active = 1;
	s.n = 1700000300999;	/* expiry, ms */
	strcpy(s.redirect, "https://shop.example/enter");
	standing_status(&s, "shop", PUSH, &st);
	ck_assert_int_eq(st.active, 1);
	ck_assert_int_eq(st.active_until, 1700000300);
	ck_assert_str_eq(st.redirect, "https://shop.example/enter");
	ck_assert_int_eq(st.position, 0);
	ck_assert_int_eq(st.eta_seconds, 0);
	ck_assert_int_eq(st.waiting, 40);
	ck_assert_ptr_null(st.pass);
	ck_assert_int_eq(st.poll_after, PUSH);	/* nothing to wait for */

	s.redirect[0] = '\0';
	standing_status(&s, "shop", PUSH, &st);
	ck_assert_ptr_null(st.redirect);		/* none, not "" */
}
END_TEST

/* A stream's batch: each token its own rank, the facts of one run. */
START_TEST(test_stream_waiters)
{
	struct token_status st;
	struct standing s;

	memset(&s, 0, sizeof s);
	strcpy(s.token, "not-the-one-asked-about");
	s.waiting = 7;
	s.q.mode = MODE_CAPACITY;
	s.q.max_active = 2;
	s.q.active_ttl = 600;
	standing_waiting(&s, "hall", TOKEN, 2, PUSH, &st);
	ck_assert_str_eq(st.token, TOKEN);
	ck_assert_str_eq(st.queue, "hall");
	ck_assert_int_eq(st.position, 3);
	ck_assert_int_eq(st.waiting, 7);
	/* no session ended yet: 2 slots turn over every 600 s */
	ck_assert_int_eq(st.eta_seconds, 1200);
	/* a new capacity queue's range: -20% / +30% over the square root
	 * of the wait's rounds, 1200 s of a new room's mean session, 600 /
	 * 1.1 s: 2.2 rounds, [eta / 1.202, eta / 0.865] */
	ck_assert_int_eq(st.eta_low, 998);
	ck_assert_int_eq(st.eta_high, 1387);
	/* no waiting_ttl in these facts: the cap alone */
	ck_assert_int_eq(st.poll_after, STANDING_POLL_MAX);

	/* the line's measured speed, once sessions have ended */
	s.q.rate = 0.5;
	standing_waiting(&s, "hall", TOKEN, 2, PUSH, &st);
	ck_assert_int_eq(st.eta_seconds, 6);
}
END_TEST

START_TEST(test_prequeue)
{
	struct token_status st;
	struct standing s;

	rate_queue(&s);
	s.prequeue = 1;
	s.n = 300;		/* the entrants */
	s.opens_at = 1798794000;
	standing_status(&s, "sale", PUSH, &st);
	ck_assert_int_eq(st.prequeue, 1);
	ck_assert_int_eq(st.entrants, 300);
	ck_assert_int_eq(st.opens_at, 1798794000);
	ck_assert_str_eq(st.ticket, TICKET);
	/* no place in line yet, so no position or ETA */
	ck_assert_int_eq(st.position, 0);
	ck_assert_int_eq(st.eta_seconds, 0);
	ck_assert_int_eq(st.active, 0);
	/* the opening is far: the cap */
	ck_assert_int_eq(st.poll_after, STANDING_POLL_MAX);
	s.opens_at = 100 + 50;	/* 50 s after now */
	standing_status(&s, "sale", PUSH, &st);
	ck_assert_int_eq(st.poll_after, 5);
	s.opens_at = 90;	/* passed: the draw is due */
	standing_status(&s, "sale", PUSH, &st);
	ck_assert_int_eq(st.poll_after, PUSH);

	standing_prequeue(&s, "sale", TOKEN, 301, PUSH, &st);
	ck_assert_int_eq(st.entrants, 301);
	ck_assert_str_eq(st.ticket, TICKET);
}
END_TEST

/* A tenth of the wait, from the push up to the cap. */
START_TEST(test_poll_grows_with_wait)
{
	ck_assert_int_eq(standing_poll_after(3, 120, 0, 1), 3);
	ck_assert_int_eq(standing_poll_after(3, 120, 39, 1), 3);
	ck_assert_int_eq(standing_poll_after(3, 120, 40, 2), 4);
	ck_assert_int_eq(standing_poll_after(3, 120, 150, 9), 15);
	ck_assert_int_eq(standing_poll_after(3, 120, 299, 50), 29);
	ck_assert_int_eq(standing_poll_after(3, 120, 300, 50), 30);
	ck_assert_int_eq(standing_poll_after(3, 120, 86400, 5000),
	    STANDING_POLL_MAX);
	ck_assert_int_eq(standing_poll_after(10, 120, 20, 1), 10);
}
END_TEST

/* Without an estimate, push seconds a place, to the cap. */
START_TEST(test_poll_no_estimate)
{
	ck_assert_int_eq(standing_poll_after(3, 120, -1, 1), 3);
	ck_assert_int_eq(standing_poll_after(3, 120, -1, 2), 6);
	ck_assert_int_eq(standing_poll_after(3, 120, -1, 10), 30);
	ck_assert_int_eq(standing_poll_after(3, 120, -1, 11), 30);
	ck_assert_int_eq(standing_poll_after(300, 0, -1, 1000000000000LL),
	    STANDING_POLL_MAX);
}
END_TEST

/* Never more than the cap, nor half of waiting_ttl: one who polls when
 * told is seen again well before the sweep would drop them. */
START_TEST(test_poll_bounds)
{
	long push, ttl;
	long long wait, pos;

	ck_assert_int_eq(standing_poll_after(300, 120, 0, 1),
	    STANDING_POLL_MAX);
	ck_assert_int_eq(standing_poll_after(3, 5, 86400, 1), 2);
	ck_assert_int_eq(standing_poll_after(3, 5, -1, 9), 2);
	ck_assert_int_eq(standing_poll_after(30, 40, 600, 1), 20);
	ck_assert_int_eq(standing_poll_after(0, 120, 0, 1), 1);
	ck_assert_int_eq(standing_poll_after(-5, 120, -1, -3), 1);
	for (push = 1; push <= 300; push += 13)
		for (ttl = 5; ttl <= 86400; ttl = ttl * 3 + 1)
			for (wait = -1; wait <= 100000;
			    wait = wait < 0 ? 0 : wait * 7 + 3)
				for (pos = 1; pos <= 100000000; pos *= 9) {
					long p = standing_poll_after(push, ttl,
					    wait, pos);

					ck_assert_int_ge(p, 1);
					ck_assert_int_le(p, STANDING_POLL_MAX);
					ck_assert_int_le(p, ttl / 2);
				}
}
END_TEST

/* Further back is never told to ask sooner. */
START_TEST(test_poll_monotone)
{
	long last = 0;
	long long wait;

	for (wait = 0; wait <= 1000; wait++) {
		long p = standing_poll_after(3, 120, wait, 1);

		ck_assert_int_ge(p, last);
		last = p;
	}
	last = 0;
	for (wait = 1; wait <= 100; wait++) {
		long p = standing_poll_after(3, 120, -1, wait);

		ck_assert_int_ge(p, last);
		last = p;
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("standing");
	TCase *tc = tcase_create("standing");

	tcase_add_test(tc, test_waiting);
	tcase_add_test(tc, test_paused);
	tcase_add_test(tc, test_active);
	tcase_add_test(tc, test_stream_waiters);
	tcase_add_test(tc, test_prequeue);
	tcase_add_test(tc, test_poll_grows_with_wait);
	tcase_add_test(tc, test_poll_no_estimate);
	tcase_add_test(tc, test_poll_bounds);
	tcase_add_test(tc, test_poll_monotone);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
