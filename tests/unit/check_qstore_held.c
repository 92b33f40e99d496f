/* check_qstore_held.c: the configuration facts held for join batches. */
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "hash.h"
#include "qstore_held.h"
#include "unit.h"

/* A full head's facts of a rate queue, and what may be held of them. */
static void
full_head(struct standing *s, struct held_head *hh, const char *ver)
{
	memset(s, 0, sizeof *s);
	memset(hh, 0, sizeof *hh);
	s->waiting = 7;
	s->q.now_ms = 1000, s->q.last_tick_ms = 900;
	s->q.mode = MODE_RATE, s->q.state = STATE_OPEN;
	s->q.batch = 10, s->q.interval = 2, s->q.active_ttl = 300;
	s->q.rate = 5;
	snprintf(s->redirect, sizeof s->redirect, "https://shop.example/");
	snprintf(hh->ver, sizeof hh->ver, "%s", ver);
	hh->max_waiting = 50, hh->closes_at_ms = 123456;
}

/* A full head of queue whose version ver may be held (""; may not). */
static void
put_full(struct held *h, const char *queue, const char *ver)
{
	struct standing s;
	struct held_head hh;

	full_head(&s, &hh, ver);
	held_put(h, queue, &s, &hh);
}

/* A queue name other than queue in the same slot. */
static void
same_slot(const char *queue, char *out, size_t size)
{
	unsigned long want = hash_str(HASH_SEED, queue) % HELD_SLOTS;

	for (int i = 0;; i++) {
		snprintf(out, size, "other%d", i);
		if (hash_str(HASH_SEED, out) % HELD_SLOTS == want)
			return;
	}
}

START_TEST(test_nothing_held)
{
	struct held *h = held_new();
	struct held_send hs;
	struct standing s = { 0 };

	held_send(h, "q", &hs);
	ck_assert_str_eq(hs.ver, "");
	ck_assert_int_eq(held_fill(h, "q", &s), -1);
	held_free(h);
}
END_TEST

START_TEST(test_held_after_head_and_tick)
{
	struct held *h = held_new();
	struct held_send hs;
	struct standing got = { 0 };

	put_full(h, "q", "1700000000000001");
	/* a tick that read the configuration before it changed */
	held_rate(h, "q", "1699999999999999", 9);
	held_rate(h, "q", "1700000000000001", 2.5);
	held_rate(h, "q", "1699999999999999", 9);
	held_send(h, "q", &hs);
	ck_assert_str_eq(hs.ver, "1700000000000001");
	ck_assert_int_eq(hs.max_waiting, 50);
	ck_assert_int_eq(hs.closes_at_ms, 123456);
	held_send(h, "other", &hs);
	ck_assert_str_eq(hs.ver, "");
	/* a short head: its own line, clock, tick, state and the line's
	 * ages; the rest held */
	got.waiting = 40, got.q.now_ms = 5000, got.q.last_tick_ms = 4000;
	got.q.state = STATE_PAUSED;
	got.q.head_at = 1000, got.q.line = 40;
	got.q.ab_ms = 700, got.q.ab_n = 6;
	ck_assert_int_eq(held_fill(h, "q", &got), 0);
	ck_assert(got.q.head_at == 1000 && got.q.line == 40);
	ck_assert(got.q.ab_ms == 700 && got.q.ab_n == 6);
	ck_assert_int_eq(got.waiting, 40);
	ck_assert_int_eq(got.q.now_ms, 5000);
	ck_assert_int_eq(got.q.last_tick_ms, 4000);
	ck_assert_int_eq(got.q.state, STATE_PAUSED);
	ck_assert_int_eq(got.q.batch, 10);
	ck_assert_int_eq(got.q.interval, 2);
	ck_assert(got.q.rate == 2.5);
	ck_assert_str_eq(got.redirect, "https://shop.example/");
	held_done(h, "q");
	held_free(h);
}
END_TEST

START_TEST(test_version_not_holdable)
{
	struct held *h = held_new();
	struct held_send hs;
	struct standing got = { 0 };

	put_full(h, "q", "1700000000000001");
	put_full(h, "q", "");		/* e.g. made a capacity queue */
	held_send(h, "q", &hs);
	ck_assert_str_eq(hs.ver, "");
	ck_assert_int_eq(held_fill(h, "q", &got), -1);
	held_free(h);
}
END_TEST

START_TEST(test_slot_kept_while_batches_run)
{
	struct held *h = held_new();
	struct held_send hs;
	struct standing got = { 0 };
	char other[32];

	same_slot("q", other, sizeof other);
	put_full(h, "q", "11");
	held_send(h, "q", &hs);		/* a batch in Redis */
	ck_assert_str_eq(hs.ver, "11");
	put_full(h, other, "22");	/* may not take the slot */
	held_send(h, other, &hs);
	ck_assert_str_eq(hs.ver, "");
	ck_assert_int_eq(held_fill(h, "q", &got), 0);
	held_done(h, "q");
	put_full(h, other, "22");	/* now it may */
	held_send(h, other, &hs);
	ck_assert_str_eq(hs.ver, "22");
	held_send(h, "q", &hs);
	ck_assert_str_eq(hs.ver, "");
	held_done(h, other);
	held_free(h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("qstore_held");
	TCase *tc = tcase_create("qstore_held");

	tcase_add_test(tc, test_nothing_held);
	tcase_add_test(tc, test_held_after_head_and_tick);
	tcase_add_test(tc, test_version_not_holdable);
	tcase_add_test(tc, test_slot_kept_while_batches_run);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
