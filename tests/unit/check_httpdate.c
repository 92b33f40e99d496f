/*
 * check_httpdate.c: the Date header's IMF-fixdate, from year 0 to 9999
 * (the dates from GNU date).
 */
#include <string.h>

#include "httpdate.h"
#include "unit.h"

static const struct {
	long long t;
	const char *text;
} dates[] = {
	{ 784111777, "Sun, 06 Nov 1994 08:49:37 GMT" },	/* RFC 9110's */
	{ 0, "Thu, 01 Jan 1970 00:00:00 GMT" },
	{ -1, "Wed, 31 Dec 1969 23:59:59 GMT" },
	{ 951782400, "Tue, 29 Feb 2000 00:00:00 GMT" },
	{ 1798794000, "Fri, 01 Jan 2027 09:00:00 GMT" },
	{ 253402300799LL, "Fri, 31 Dec 9999 23:59:59 GMT" },
	{ -62167219200LL, "Sat, 01 Jan 0000 00:00:00 GMT" },
};

START_TEST(test_format)
{
	char out[HTTPDATE_LEN + 1];

	memset(out, 'x', sizeof out);
	ck_assert_int_eq(httpdate_format(out, (time_t)dates[_i].t), 0);
	ck_assert_str_eq(out, dates[_i].text);
	ck_assert_uint_eq(strlen(out), HTTPDATE_LEN);
}
END_TEST

START_TEST(test_out_of_range)
{
	char out[HTTPDATE_LEN + 1];

	ck_assert_int_eq(httpdate_format(out, (time_t)253402300800LL), -1);
	ck_assert_int_eq(httpdate_format(out, (time_t)-62167219201LL), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("httpdate");
	TCase *tc = tcase_create("httpdate");

	tcase_add_loop_test(tc, test_format, 0,
	    (int)(sizeof dates / sizeof dates[0]));
	tcase_add_test(tc, test_out_of_range);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
