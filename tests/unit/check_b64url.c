/*
 * check_b64url.c: base64url without padding against RFC 4648's vectors,
 * and the strict decoder: one encoding per byte string, nothing else.
 */
#include <string.h>

#include "b64url.h"
#include "unit.h"

/* RFC 4648 section 10, less the padding. */
static const struct {
	const char *bytes, *text;
} rfc[] = {
	{ "", "" },
	{ "f", "Zg" },
	{ "fo", "Zm8" },
	{ "foo", "Zm9v" },
	{ "foob", "Zm9vYg" },
	{ "fooba", "Zm9vYmE" },
	{ "foobar", "Zm9vYmFy" },
};

START_TEST(test_rfc_vectors)
{
	size_t n = strlen(rfc[_i].bytes);
	unsigned char out[16];
	char text[16];

	ck_assert_uint_eq(B64URL_LEN(n), strlen(rfc[_i].text));
	b64url_encode((const unsigned char *)rfc[_i].bytes, n, text);
	ck_assert_str_eq(text, rfc[_i].text);
	ck_assert_int_eq(b64url_decode(rfc[_i].text, strlen(rfc[_i].text),
	    out, sizeof out), (long)n);
	ck_assert_mem_eq(out, rfc[_i].bytes, n);
}
END_TEST

START_TEST(test_url_alphabet)
{
	const unsigned char b[] = { 0xfb, 0xff, 0xbf };
	unsigned char out[3];
	char text[5];

	/* 62 and 63 are - and _, where base64 has + and / */
	b64url_encode(b, sizeof b, text);
	ck_assert_str_eq(text, "-_-_");
	ck_assert_int_eq(b64url_decode("-_-_", 4, out, sizeof out), 3);
	ck_assert_mem_eq(out, b, 3);
	ck_assert_int_eq(b64url_decode("+/+/", 4, out, sizeof out), -1);
}
END_TEST

START_TEST(test_round_trip)
{
	unsigned char b[256], out[256];
	char text[B64URL_LEN(256) + 1];

	for (int i = 0; i < 256; i++)
		b[i] = (unsigned char)(255 - i);
	for (size_t n = 0; n <= sizeof b; n += 1 + n / 8) {
		b64url_encode(b, n, text);
		ck_assert_uint_eq(strlen(text), B64URL_LEN(n));
		ck_assert_int_eq(b64url_decode(text, strlen(text), out,
		    sizeof out), (long)n);
		ck_assert_mem_eq(out, b, n);
	}
}
END_TEST

static const char *const not_canonical[] = {
	"Zg==",		/* padding */
	"Zg=",
	"Zm9v Zm8",	/* whitespace */
	"Zm9\nvZm8",
	"Z",		/* a length no byte string has */
	"Zm9vY",
	"Zh",		/* the last character's unused bits set */
	"Zm9",
	"Zm9vYmF!",	/* outside the alphabet */
	"Zm9v\xc3\xa9",
};

START_TEST(test_strict)
{
	unsigned char out[16];
	const char *s = not_canonical[_i];

	ck_assert_msg(b64url_decode(s, strlen(s), out, sizeof out) == -1,
	    "'%s' was taken", s);
}
END_TEST

START_TEST(test_fits)
{
	unsigned char out[6];

	/* exactly the room it needs, and one byte less */
	ck_assert_int_eq(b64url_decode("Zm9vYmFy", 8, out, 6), 6);
	ck_assert_int_eq(b64url_decode("Zm9vYmFy", 8, out, 5), -1);
	/* len bounds what is read: the rest of the string is not looked at */
	ck_assert_int_eq(b64url_decode("Zm9v!!", 4, out, 6), 3);
	ck_assert_mem_eq(out, "foo", 3);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("b64url");
	TCase *tc = tcase_create("b64url");

	tcase_add_loop_test(tc, test_rfc_vectors, 0,
	    (int)(sizeof rfc / sizeof rfc[0]));
	tcase_add_test(tc, test_url_alphabet);
	tcase_add_test(tc, test_round_trip);
	tcase_add_loop_test(tc, test_strict, 0,
	    (int)(sizeof not_canonical / sizeof not_canonical[0]));
	tcase_add_test(tc, test_fits);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
