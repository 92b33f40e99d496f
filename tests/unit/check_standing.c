/*
 * check_standing.c: a token's standing as API.md's status object: an
 * active session's end and redirect, a waiter's position, ETA and range,
 * a stream's waiters sharing one run's facts, and the pre-queue's ticket.
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
}

START_TEST(test_waiting)
{
	struct token_status st;
	struct standing s;

	rate_queue(&s);
	s.n = 24;		/* 0-based rank */
	standing_status(&s, "shop", &st);
	ck_assert_str_eq(st.queue, "shop");
	ck_assert_str_eq(st.token, TOKEN);
	ck_assert_int_eq(st.active, 0);
	ck_assert_int_eq(st.prequeue, 0);
	ck_assert_int_eq(st.position, 25);
	ck_assert_int_eq(st.waiting, 40);
	/* 25th: three batches, 15 s from the last admission, 2 s ago */
	ck_assert_int_eq(st.eta_seconds, 13);
	/* rate mode's range: [eta / 1.11, eta / 0.88] */
	ck_assert_int_eq(st.eta_low, 11);
	ck_assert_int_eq(st.eta_high, 15);
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
	standing_status(&s, "shop", &st);
	ck_assert_int_eq(st.position, 1);
	ck_assert_int_eq(st.eta_seconds, -1);	/* null: no estimate */
	ck_assert_int_eq(st.eta_low, -1);
	ck_assert_int_eq(st.eta_high, -1);
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
	standing_status(&s, "shop", &st);
	ck_assert_int_eq(st.active, 1);
	ck_assert_int_eq(st.active_until, 1700000300);
	ck_assert_str_eq(st.redirect, "https://shop.example/enter");
	ck_assert_int_eq(st.position, 0);
	ck_assert_int_eq(st.eta_seconds, 0);
	ck_assert_int_eq(st.waiting, 40);
	ck_assert_ptr_null(st.pass);

	s.redirect[0] = '\0';
	standing_status(&s, "shop", &st);
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
	standing_waiting(&s, "hall", TOKEN, 2, &st);
	ck_assert_str_eq(st.token, TOKEN);
	ck_assert_str_eq(st.queue, "hall");
	ck_assert_int_eq(st.position, 3);
	ck_assert_int_eq(st.waiting, 7);
	/* no session ended yet: 2 slots turn over every 600 s */
	ck_assert_int_eq(st.eta_seconds, 1200);
	/* capacity mode's range: [eta / 1.33, eta / 0.88] */
	ck_assert_int_eq(st.eta_low, 902);
	ck_assert_int_eq(st.eta_high, 1364);

	/* the line's measured speed, once sessions have ended */
	s.q.rate = 0.5;
	standing_waiting(&s, "hall", TOKEN, 2, &st);
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
	standing_status(&s, "sale", &st);
	ck_assert_int_eq(st.prequeue, 1);
	ck_assert_int_eq(st.entrants, 300);
	ck_assert_int_eq(st.opens_at, 1798794000);
	ck_assert_str_eq(st.ticket, TICKET);
	/* no place in line yet, so no position or ETA */
	ck_assert_int_eq(st.position, 0);
	ck_assert_int_eq(st.eta_seconds, 0);
	ck_assert_int_eq(st.active, 0);

	standing_prequeue(&s, "sale", TOKEN, 301, &st);
	ck_assert_int_eq(st.entrants, 301);
	ck_assert_str_eq(st.ticket, TICKET);
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
	suite_add_tcase(s, tc);
	return unit_run(s);
}
