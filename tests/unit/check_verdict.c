/*
 * check_verdict.c: a guard's verdict, and the body a handler answers it
 * with: the very text of every other error (reply_error_body), with what
 * a guard adds after the message, in the order it adds it.
 */
#include <stdlib.h>
#include <string.h>

#include "reply.h"
#include "verdict.h"
#include "unit.h"

/* The body of v is want; v is cleared after. */
static void
body_is(struct verdict *v, const char *want)
{
	char *got = verdict_body(v);

	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	free(got);
	verdict_clear(v);
	ck_assert_int_eq(v->status, 0);
	ck_assert_ptr_null(v->more);
}

START_TEST(test_pass)
{
	struct verdict v = { 0 };

	ck_assert_int_eq(v.status, 0);
	ck_assert_ptr_null(verdict_body(&v));
	verdict_clear(&v);
}
END_TEST

START_TEST(test_refuse)
{
	struct verdict v = { 0 };
	char *want = reply_error_body("forbidden_origin", "joins from the "
	    "origin 'https://x.example' are not allowed");

	ck_assert_int_eq(verdict_refuse(&v, 403, "forbidden_origin", "joins "
	    "from the origin '%s' are not allowed", "https://x.example"), -1);
	ck_assert_int_eq(v.status, 403);
	ck_assert_ptr_null(v.retry_after);
	body_is(&v, want);
	free(want);
}
END_TEST

START_TEST(test_retry_after)
{
	struct verdict v = { 0 };

	verdict_retry_after(&v, 3);
	verdict_refuse(&v, 429, "rate_limited", "too many");
	ck_assert_str_eq(v.retry_after, "3");
	body_is(&v, "{\"error\":{\"code\":\"rate_limited\","
	    "\"message\":\"too many\"}}");
}
END_TEST

/* result.h's table, as http_send_result answers it. */
START_TEST(test_result)
{
	struct verdict v = { 0 };

	ck_assert_int_eq(verdict_result(&v, RESULT_FULL, "sale"), -1);
	ck_assert_int_eq(v.status, 503);
	ck_assert_str_eq(v.retry_after, "10");
	body_is(&v, "{\"error\":{\"code\":\"queue_full\",\"message\":"
	    "\"the line for 'sale' is full; try again later\"}}");
	verdict_result(&v, RESULT_UNAVAILABLE, NULL);
	ck_assert_int_eq(v.status, 503);
	ck_assert_str_eq(v.retry_after, "1");
	verdict_clear(&v);
	/* a success has no body: the handler sends its status alone */
	verdict_result(&v, RESULT_OK, "sale");
	ck_assert_int_eq(v.status, 200);
	ck_assert_ptr_null(verdict_body(&v));
}
END_TEST

START_TEST(test_more)
{
	struct verdict v = { 0 };

	verdict_refuse(&v, 409, "queue_not_open", "not yet");
	verdict_add(&v, "opens_at", json_integer(1700000000));
	verdict_add(&v, "prequeue_from", json_integer(1699999000));
	verdict_add(&v, "nothing", NULL);
	body_is(&v, "{\"error\":{\"code\":\"queue_not_open\",\"message\":"
	    "\"not yet\",\"opens_at\":1700000000,"
	    "\"prequeue_from\":1699999000}}");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("verdict");

	tcase_add_test(tc, test_pass);
	tcase_add_test(tc, test_refuse);
	tcase_add_test(tc, test_retry_after);
	tcase_add_test(tc, test_result);
	tcase_add_test(tc, test_more);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
