/* check_renewals.c: the cache of renew.lua's answers, by the clock given. */
#include "renewals.h"
#include "unit.h"

#define TOK "0b7c1a2e-3f4d-4c5b-8a6e-7f8091a2b3c4"

START_TEST(test_fresh_then_stale)
{
	struct renewals *r = renewals_new();
	struct renewal rn = { 1, 5000 }, got;

	ck_assert_int_eq(renewals_get(r, "q", TOK, 1000, &got), 0);
	renewals_put(r, "q", TOK, &rn, 1000);
	ck_assert_int_eq(renewals_get(r, "q", TOK, 1999, &got), 1);
	ck_assert_int_eq(got.renews, 1);
	ck_assert_int_eq(got.expiry_ms, 5000);
	ck_assert_int_eq(renewals_get(r, "q", TOK, 2000, &got), 0);
	ck_assert_int_eq(renewals_get(r, "other", TOK, 1500, &got), 0);
	ck_assert_int_eq(renewals_fixed(r, "q", 1500), 0);
	renewals_free(r);
}
END_TEST

START_TEST(test_fixed_queue)
{
	struct renewals *r = renewals_new();

	renewals_put_fixed(r, "q", 1000);
	ck_assert_int_eq(renewals_fixed(r, "q", 1500), 1);
	ck_assert_int_eq(renewals_fixed(r, "other", 1500), 0);
	ck_assert_int_eq(renewals_fixed(r, "q", 2000), 0);	/* asked again */
	renewals_free(r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("renewals");
	TCase *tc = tcase_create("renewals");

	tcase_add_test(tc, test_fresh_then_stale);
	tcase_add_test(tc, test_fixed_queue);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
