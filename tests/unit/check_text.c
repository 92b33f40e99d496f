/*
 * check_text.c: the small writers that replace printf on the hot path
 * (decimal.h, httpdate.h, text.h), each against what libc would write.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "decimal.h"
#include "httpdate.h"
#include "text.h"
#include "unit.h"

START_TEST(test_decimal)
{
	const long long v[] = { 0, 1, -1, 9, 10, 99, 100, 12345, -987654321,
	    1700000000123456LL, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1 };
	char got[DECIMAL_MAX + 1], want[32];

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		snprintf(want, sizeof want, "%lld", v[i]);
		ck_assert_str_eq(decimal_str(got, v[i]), want);
	}
}
END_TEST

/* decimal_put writes no NUL: it leaves what follows alone */
START_TEST(test_decimal_put_end)
{
	char buf[8] = "xxxxxxx";

	ck_assert_ptr_eq(decimal_put(buf, 42), buf + 2);
	ck_assert_str_eq(buf, "42xxxxx");
}
END_TEST

static void
check_date(time_t t)
{
	char got[HTTPDATE_LEN + 1], want[64];
	struct tm tm;

	gmtime_r(&t, &tm);
	/* the C locale's names are the header's */
	strftime(want, sizeof want, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	ck_assert_int_eq(httpdate_format(got, t), 0);
	ck_assert_str_eq(got, want);
	ck_assert_uint_eq(strlen(got), HTTPDATE_LEN);
}

START_TEST(test_httpdate)
{
	check_date(0);
	check_date(784111777);		/* RFC 9110's own example */
	check_date(951782400);		/* 29 Feb 2000 */
	check_date(1795460399);
	check_date(253402300799LL);	/* the last second of 9999 */
	check_date(-1);			/* 1969 */
	/* every weekday and month */
	for (time_t t = 1700000000; t < 1700000000 + 400 * 86400; t += 86399)
		check_date(t);
}
END_TEST

START_TEST(test_httpdate_out_of_range)
{
	char got[HTTPDATE_LEN + 1];

	ck_assert_int_eq(httpdate_format(got, 253402300800LL), -1);	/* 10000 */
	ck_assert_int_eq(httpdate_format(got, -62167219201LL), -1);	/* -1 */
}
END_TEST

START_TEST(test_text_copy)
{
	char buf[4];

	ck_assert_str_eq(text_copy(buf, sizeof buf, "abc"), "abc");
	ck_assert_str_eq(text_copy(buf, sizeof buf, "abcdef"), "abc");
	ck_assert_str_eq(text_copy(buf, sizeof buf, ""), "");
	ck_assert_str_eq(text_copy(buf, 1, "abc"), "");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_decimal);
	tcase_add_test(tc, test_decimal_put_end);
	tcase_add_test(tc, test_httpdate);
	tcase_add_test(tc, test_httpdate_out_of_range);
	tcase_add_test(tc, test_text_copy);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
