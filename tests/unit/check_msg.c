/*
 * check_msg.c: the parsers' messages: formatting into a caller's buffer,
 * and what a user wrote quoted safely, cut between characters.
 */
#include <string.h>

#include "msg.h"
#include "unit.h"

START_TEST(test_set)
{
	char err[16];

	msg_set(err, sizeof err, "%s:%d: %s", "w.conf", 3, "bad");
	ck_assert_str_eq(err, "w.conf:3: bad");
	/* cut to the buffer, NUL-terminated */
	msg_set(err, sizeof err, "%s", "a message longer than the buffer");
	ck_assert_str_eq(err, "a message longe");
	/* nowhere to write: nothing happens */
	msg_set(NULL, 0, "%s", "x");
	err[0] = 'z';
	msg_set(err, 0, "%s", "x");
	ck_assert_int_eq(err[0], 'z');
}
END_TEST

static const struct {
	const char *in, *shown;
} shown[] = {
	{ "", "" },
	{ "batch = 10", "batch = 10" },
	{ "tab\there", "tab\\x09here" },
	{ "bell\a", "bell\\x07" },
	{ "line\r\n", "line\\x0d\\x0a" },
	{ "del\x7f", "del\\x7f" },
	{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },
	{ "latin1 caf\xe9", "latin1 caf\\xe9" },
	{ "cut \xe2\x82", "cut \\xe2\\x82" },		/* short */
	{ "overlong \xc0\xaf", "overlong \\xc0\\xaf" },
	{ "surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80" },
};

START_TEST(test_shown)
{
	char buf[MSG_SHOWN_SIZE];

	ck_assert_ptr_eq(msg_shown(buf, shown[_i].in), buf);
	ck_assert_str_eq(buf, shown[_i].shown);
}
END_TEST

START_TEST(test_shown_cut)
{
	char in[256], want[MSG_SHOWN_SIZE], buf[MSG_SHOWN_SIZE];

	/* exactly MSG_SHOWN_MAX bytes: whole */
	memset(in, 'a', MSG_SHOWN_MAX);
	in[MSG_SHOWN_MAX] = '\0';
	ck_assert_str_eq(msg_shown(buf, in), in);

	/* one more: cut, and says so */
	memset(in, 'a', MSG_SHOWN_MAX + 1);
	in[MSG_SHOWN_MAX + 1] = '\0';
	memcpy(want, in, MSG_SHOWN_MAX);
	strcpy(want + MSG_SHOWN_MAX, "...");
	ck_assert_str_eq(msg_shown(buf, in), want);

	/* a character across the cut stays whole */
	memset(in, 'a', MSG_SHOWN_MAX - 1);
	strcpy(in + MSG_SHOWN_MAX - 1, "\xe2\x82\xac tail");
	memcpy(want, in, MSG_SHOWN_MAX + 2);
	strcpy(want + MSG_SHOWN_MAX + 2, "...");
	ck_assert_str_eq(msg_shown(buf, in), want);

	/* the worst case, escapes all along, fits the buffer */
	memset(in, '\x01', sizeof in - 1);
	in[sizeof in - 1] = '\0';
	msg_shown(buf, in);
	ck_assert_uint_eq(strlen(buf), MSG_SHOWN_MAX + 3);
	ck_assert_str_eq(buf + MSG_SHOWN_MAX, "...");
	ck_assert_mem_eq(buf, "\\x01\\x01", 8);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("msg");
	TCase *tc = tcase_create("msg");

	tcase_add_test(tc, test_set);
	tcase_add_loop_test(tc, test_shown, 0,
	    (int)(sizeof shown / sizeof shown[0]));
	tcase_add_test(tc, test_shown_cut);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
