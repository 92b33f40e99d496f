/* check_decimal.c: integers in decimal, to both ends of a long long. */
#include <limits.h>
#include <string.h>

#include "decimal.h"
#include "unit.h"

static const struct {
	long long v;
	const char *text;
} cases[] = {
	{ 0, "0" },
	{ 7, "7" },
	{ -7, "-7" },
	{ 10, "10" },
	{ 1000000, "1000000" },
	{ -1700000000123LL, "-1700000000123" },
	{ LLONG_MAX, "9223372036854775807" },
	{ LLONG_MIN, "-9223372036854775808" },
};

START_TEST(test_str)
{
	char buf[DECIMAL_MAX + 1];

	memset(buf, 'x', sizeof buf);
	ck_assert_ptr_eq(decimal_str(buf, cases[_i].v), buf);
	ck_assert_str_eq(buf, cases[_i].text);
}
END_TEST

START_TEST(test_put)
{
	char buf[64], *end;

	/* no NUL: a caller writes on after it */
	memset(buf, 'x', sizeof buf);
	end = decimal_put(buf, -42);
	ck_assert_ptr_eq(end, buf + 3);
	ck_assert_mem_eq(buf, "-42x", 4);
	end = decimal_put(end, LLONG_MIN);
	ck_assert_int_eq(end - buf, 3 + DECIMAL_MAX);
	*end = '\0';
	ck_assert_str_eq(buf, "-42-9223372036854775808");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("decimal");
	TCase *tc = tcase_create("decimal");

	tcase_add_loop_test(tc, test_str, 0,
	    (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, test_put);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
