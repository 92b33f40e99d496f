/* check_validate.c: the identifiers of API.md. */
#include <string.h>

#include "validate.h"
#include "unit.h"

#define TOKEN "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21"
/* one Hangul syllable, U+D55C, three bytes of UTF-8 */
#define HAN "\xed\x95\x9c"

static char *
repeat(char *buf, const char *s, int n)
{
	buf[0] = '\0';
	while (n-- > 0)
		strcat(buf, s);
	return buf;
}

START_TEST(test_queue_id)
{
	char buf[128];

	ck_assert_int_eq(valid_queue_id("a"), 1);
	ck_assert_int_eq(valid_queue_id("concert"), 1);
	ck_assert_int_eq(valid_queue_id("AZaz09_-"), 1);
	ck_assert_int_eq(valid_queue_id(repeat(buf, "a", 64)), 1);
	ck_assert_int_eq(valid_queue_id(repeat(buf, "a", 65)), 0);
	ck_assert_int_eq(valid_queue_id(""), 0);
	ck_assert_int_eq(valid_queue_id("bad!id"), 0);
	ck_assert_int_eq(valid_queue_id("a b"), 0);
	ck_assert_int_eq(valid_queue_id("a.b"), 0);
	ck_assert_int_eq(valid_queue_id("a/b"), 0);
	ck_assert_int_eq(valid_queue_id("a:b"), 0);
	ck_assert_int_eq(valid_queue_id("{a}"), 0);
	ck_assert_int_eq(valid_queue_id(HAN), 0);
}
END_TEST

/* What libevent's strtoll would take besides digits must not frame a body. */
/* The shape the queue id, key_prefix and pass_cookie share. */
START_TEST(test_word)
{
	ck_assert_int_eq(valid_word("a", 1, ""), 1);
	ck_assert_int_eq(valid_word("ab", 1, ""), 0);
	ck_assert_int_eq(valid_word("", 8, "-"), 0);
	ck_assert_int_eq(valid_word("Az09-_", 6, "-_"), 1);
	ck_assert_int_eq(valid_word("a.b", 8, "-"), 0);
	ck_assert_int_eq(valid_word("a.b", 8, ".-"), 1);
	ck_assert_int_eq(valid_word("a\xc3\xa9", 8, ""), 0);
	ck_assert_int_eq(valid_word("a b", 8, "-"), 0);
}
END_TEST

START_TEST(test_content_length)
{
	ck_assert_int_eq(valid_content_length("0"), 1);
	ck_assert_int_eq(valid_content_length("2"), 1);
	ck_assert_int_eq(valid_content_length("0042"), 1);
	ck_assert_int_eq(valid_content_length("99999999999999999999"), 1);
	ck_assert_int_eq(valid_content_length(""), 0);
	ck_assert_int_eq(valid_content_length("+2"), 0);
	ck_assert_int_eq(valid_content_length("-1"), 0);
	ck_assert_int_eq(valid_content_length(" 2"), 0);
	ck_assert_int_eq(valid_content_length("2 "), 0);
	ck_assert_int_eq(valid_content_length("0x10"), 0);
	ck_assert_int_eq(valid_content_length("2, 2"), 0);
}
END_TEST

START_TEST(test_token_good)
{
	ck_assert_int_eq(valid_token(TOKEN), 1);
	ck_assert_int_eq(valid_token("00000000-0000-4000-8000-000000000000"),
	    1);
	ck_assert_int_eq(valid_token("ffffffff-ffff-4fff-bfff-ffffffffffff"),
	    1);
	/* every variant nibble 8, 9, a, b */
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-8a8f-7e6d5c4b3a21"),
	    1);
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-aa8f-7e6d5c4b3a21"),
	    1);
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-ba8f-7e6d5c4b3a21"),
	    1);
}
END_TEST

START_TEST(test_token_bad)
{
	/* upper case */
	ck_assert_int_eq(valid_token("0B7C5F4E-3D2A-4C1B-9A8F-7E6D5C4B3A21"),
	    0);
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3A21"),
	    0);
	/* version nibble not 4 */
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-1c1b-9a8f-7e6d5c4b3a21"),
	    0);
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-5c1b-9a8f-7e6d5c4b3a21"),
	    0);
	/* variant nibble not one of 8 9 a b */
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-7a8f-7e6d5c4b3a21"),
	    0);
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-ca8f-7e6d5c4b3a21"),
	    0);
	/* wrong length */
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a2"),
	    0);
	ck_assert_int_eq(valid_token("0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a210"),
	    0);
	ck_assert_int_eq(valid_token(""), 0);
	/* dashes missing or misplaced */
	ck_assert_int_eq(valid_token("0b7c5f4e3d2a4c1b9a8f7e6d5c4b3a21"), 0);
	ck_assert_int_eq(valid_token("0b7c5f4e03d2a-4c1b-9a8f-7e6d5c4b3a21"),
	    0);
	ck_assert_int_eq(valid_token("0b7c5f4-e3d2a-4c1b-9a8f-7e6d5c4b3a21"),
	    0);
	/* not hex */
	ck_assert_int_eq(valid_token("0b7c5f4g-3d2a-4c1b-9a8f-7e6d5c4b3a21"),
	    0);
	ck_assert_int_eq(valid_token("{b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a2}"),
	    0);
}
END_TEST

START_TEST(test_user_good)
{
	char buf[1024];

	ck_assert_int_eq(valid_user("u-1", 3), 1);
	ck_assert_int_eq(valid_user("a", 1), 1);
	ck_assert_int_eq(valid_user("user with spaces", 16), 1);
	repeat(buf, "a", 128);
	ck_assert_int_eq(valid_user(buf, strlen(buf)), 1);
	/* 128 characters, 384 bytes */
	repeat(buf, HAN, 128);
	ck_assert_int_eq(valid_user(buf, strlen(buf)), 1);
	/* U+00A0, the first code point after C1 */
	ck_assert_int_eq(valid_user("\xc2\xa0", 2), 1);
	/* U+1F600, four bytes */
	ck_assert_int_eq(valid_user("\xf0\x9f\x98\x80", 4), 1);
	/* len is what counts, not a NUL */
	ck_assert_int_eq(valid_user("abc", 2), 1);
}
END_TEST

START_TEST(test_user_bad)
{
	char buf[1024];

	ck_assert_int_eq(valid_user("", 0), 0);
	repeat(buf, "a", 129);
	ck_assert_int_eq(valid_user(buf, strlen(buf)), 0);
	repeat(buf, HAN, 129);
	ck_assert_int_eq(valid_user(buf, strlen(buf)), 0);
	/* C0, DEL, C1 */
	ck_assert_int_eq(valid_user("a\x01", 2), 0);
	ck_assert_int_eq(valid_user("a\tb", 3), 0);
	ck_assert_int_eq(valid_user("a\nb", 3), 0);
	ck_assert_int_eq(valid_user("a\x7f", 2), 0);
	ck_assert_int_eq(valid_user("\xc2\x80", 2), 0);
	ck_assert_int_eq(valid_user("\xc2\x9f", 2), 0);
	/* invalid UTF-8 */
	ck_assert_int_eq(valid_user("\xff", 1), 0);
	ck_assert_int_eq(valid_user("\x80", 1), 0);
	ck_assert_int_eq(valid_user("a\xc3", 2), 0);
	ck_assert_int_eq(valid_user("\xed\x95", 2), 0);
	ck_assert_int_eq(valid_user("\xc0\xaf", 2), 0);		/* overlong */
	ck_assert_int_eq(valid_user("\xe0\x80\xaf", 3), 0);	/* overlong */
	ck_assert_int_eq(valid_user("\xed\xa0\x80", 3), 0);	/* surrogate */
	ck_assert_int_eq(valid_user("\xf4\x90\x80\x80", 4), 0);	/* > U+10FFFF */
	/* an embedded NUL, which len lets through */
	ck_assert_int_eq(valid_user("a\0b", 3), 0);
}
END_TEST

/* Any length of text, control characters too: only the encoding counts. */
START_TEST(test_utf8_valid)
{
	static const char *const good[] = {
		"", "/shop?x=1", "\t\x01\x7f", HAN, "\xc2\x80",
		"\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbd",
	};
	static const char *const bad[] = {
		"\xff", "\x80", "a\xc3", "\xed\x95", "\xc0\xaf", "\xe0\x80\xaf",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "ok\xf0\x9f\x98",
	};
	size_t i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++)
		ck_assert_msg(utf8_valid(good[i], strlen(good[i])) == 1,
		    "good %zu", i);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(utf8_valid(bad[i], strlen(bad[i])) == 0,
		    "bad %zu", i);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("validate");

	tcase_add_test(tc, test_queue_id);
	tcase_add_test(tc, test_word);
	tcase_add_test(tc, test_content_length);
	tcase_add_test(tc, test_token_good);
	tcase_add_test(tc, test_token_bad);
	tcase_add_test(tc, test_user_good);
	tcase_add_test(tc, test_user_bad);
	tcase_add_test(tc, test_utf8_valid);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
