/*
 * check_revoke.c: the cache GET /v1/check keeps of ended sessions and
 * dropped queues: what a pass's facts mean, how long an answer is kept,
 * that a fresh answer never hides a revocation, and what a full set
 * gives up.
 */
#include <stdio.h>

#include "revoke.h"
#include "unit.h"

#define T0 1700000000000LL	/* ms */
#define TOK "3b241101-e2bb-4255-8caf-4136c566a962"

static const struct revoke_facts fresh = { 0, 0 };
static const struct revoke_facts ended = { 1, 0 };

START_TEST(test_verdict)
{
	struct revoke_facts f = { 0, 0 };

	ck_assert_int_eq(revoke_verdict(&f, T0 / 1000), PASS_OK);
	f.revoked = 1;
	ck_assert_int_eq(revoke_verdict(&f, T0 / 1000), PASS_REVOKED);
	/* a drop refuses passes issued before it, PASS_LEEWAY of skew too */
	f.revoked = 0;
	f.dropped_ms = T0;
	ck_assert_int_eq(revoke_verdict(&f, T0 / 1000 - 3600), PASS_DROPPED);
	ck_assert_int_eq(revoke_verdict(&f, T0 / 1000 + PASS_LEEWAY),
	    PASS_DROPPED);
	/* and not those of the queue made again afterwards */
	ck_assert_int_eq(revoke_verdict(&f, T0 / 1000 + PASS_LEEWAY + 1),
	    PASS_OK);
	/* an ended session is revoked, whenever its pass was issued */
	f.revoked = 1;
	ck_assert_int_eq(revoke_verdict(&f, T0 / 1000 + 3600), PASS_REVOKED);
}
END_TEST

START_TEST(test_fresh_answer)
{
	struct revoke *r = revoke_new();

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(revoke_get(r, "shop", TOK, T0 / 1000, T0), -1);
	revoke_put(r, "shop", TOK, &fresh, T0);
	ck_assert_int_eq(revoke_get(r, "shop", TOK, T0 / 1000, T0), PASS_OK);
	ck_assert_int_eq(revoke_get(r, "shop", TOK, T0 / 1000,
	    T0 + REVOKE_FRESH_MS - 1), PASS_OK);
	/* asked again once a second */
	ck_assert_int_eq(revoke_get(r, "shop", TOK, T0 / 1000,
	    T0 + REVOKE_FRESH_MS), -1);
	/* the same token in another queue is another pass */
	ck_assert_int_eq(revoke_get(r, "other", TOK, T0 / 1000, T0), -1);
	revoke_free(r);
	revoke_free(NULL);
}
END_TEST

START_TEST(test_revocation_kept)
{
	struct revoke *r = revoke_new();

	revoke_put(r, "shop", TOK, &ended, T0);
	ck_assert_int_eq(revoke_get(r, "shop", TOK, T0 / 1000,
	    T0 + REVOKE_KEEP_MS - 1), PASS_REVOKED);
	ck_assert_int_eq(revoke_get(r, "shop", TOK, T0 / 1000,
	    T0 + REVOKE_KEEP_MS), -1);
	revoke_free(r);
}
END_TEST

START_TEST(test_fresh_never_hides)
{
	struct revoke *r = revoke_new();
	struct revoke_facts dropped = { 0, T0 };

	/* a late answer from Redis that knows nothing yet */
	revoke_put(r, "shop", TOK, &ended, T0);
	revoke_put(r, "shop", TOK, &fresh, T0 + 10);
	ck_assert_int_eq(revoke_get(r, "shop", TOK, T0 / 1000, T0 + 5000),
	    PASS_REVOKED);
	/* nor a drop known here */
	revoke_put(r, "gone", TOK, &dropped, T0);
	revoke_put(r, "gone", TOK, &fresh, T0 + 10);
	ck_assert_int_eq(revoke_get(r, "gone", TOK, T0 / 1000, T0 + 20),
	    PASS_DROPPED);
	/* a queue made again: its new passes are good */
	ck_assert_int_eq(revoke_get(r, "gone", TOK, T0 / 1000 + 60, T0 + 20),
	    PASS_OK);
	revoke_free(r);
}
END_TEST

START_TEST(test_forget)
{
	struct revoke *r = revoke_new();

	revoke_put(r, "shop", "a-fresh-one", &fresh, T0);
	revoke_put(r, "shop", "an-ended-one", &ended, T0);
	revoke_put(r, "other", "a-fresh-one", &fresh, T0);
	revoke_forget(r, "shop");
	ck_assert_int_eq(revoke_get(r, "shop", "a-fresh-one", 0, T0 + 1), -1);
	ck_assert_int_eq(revoke_get(r, "shop", "an-ended-one", 0, T0 + 1),
	    PASS_REVOKED);
	ck_assert_int_eq(revoke_get(r, "other", "a-fresh-one", 0, T0 + 1),
	    PASS_OK);
	revoke_free(r);
}
END_TEST

/*
 * Hundreds of revocations outlast a flood of fresh answers many times the
 * table's size: a full set gives up what expires first.
 */
START_TEST(test_revocations_outlast_fresh)
{
	struct revoke *r = revoke_new();
	char tok[40];
	int i;

	for (i = 0; i < 500; i++) {
		snprintf(tok, sizeof tok, "ended-%d", i);
		revoke_put(r, "shop", tok, &ended, T0);
	}
	for (i = 0; i < 4 * REVOKE_SLOTS; i++) {
		snprintf(tok, sizeof tok, "fresh-%d", i);
		revoke_put(r, "shop", tok, &fresh, T0 + 100);
	}
	for (i = 0; i < 500; i++) {
		snprintf(tok, sizeof tok, "ended-%d", i);
		ck_assert_msg(revoke_get(r, "shop", tok, 0, T0 + 200) ==
		    PASS_REVOKED, "%s was pushed out", tok);
	}
	/* the newest fresh answer is there */
	snprintf(tok, sizeof tok, "fresh-%d", 4 * REVOKE_SLOTS - 1);
	ck_assert_int_eq(revoke_get(r, "shop", tok, 0, T0 + 200), PASS_OK);
	revoke_free(r);
}
END_TEST

/* A thousand passes in use at once all stay known. */
START_TEST(test_thousand_passes)
{
	struct revoke *r = revoke_new();
	char tok[40];
	int i;

	for (i = 0; i < 1000; i++) {
		snprintf(tok, sizeof tok, "%08x-0000-4000-8000-%012d", i * 7919,
		    i);
		revoke_put(r, "shop", tok, &fresh, T0);
	}
	for (i = 0; i < 1000; i++) {
		snprintf(tok, sizeof tok, "%08x-0000-4000-8000-%012d", i * 7919,
		    i);
		ck_assert_msg(revoke_get(r, "shop", tok, 0, T0 + 1) == PASS_OK,
		    "%s was pushed out", tok);
	}
	revoke_free(r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("revoke");
	TCase *tc = tcase_create("revoke");

	tcase_add_test(tc, test_verdict);
	tcase_add_test(tc, test_fresh_answer);
	tcase_add_test(tc, test_revocation_kept);
	tcase_add_test(tc, test_fresh_never_hides);
	tcase_add_test(tc, test_forget);
	tcase_add_test(tc, test_revocations_outlast_fresh);
	tcase_add_test(tc, test_thousand_passes);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
