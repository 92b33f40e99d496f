/* check_hex.c: bytes to hex and back, and fresh random hex. */
#include <string.h>

#include "hex.h"
#include "unit.h"

START_TEST(test_round_trip)
{
	const unsigned char b[] = { 0x00, 0x0f, 0xa5, 0xff };
	unsigned char back[4];
	char h[9];

	hex_encode(b, sizeof b, h);
	ck_assert_str_eq(h, "000fa5ff");
	ck_assert_int_eq(hex_decode(h, back, sizeof back), 4);
	ck_assert_mem_eq(back, b, sizeof b);
	ck_assert_int_eq(hex_decode("000FA5FF", back, sizeof back), 4);
	ck_assert_mem_eq(back, b, sizeof b);
	ck_assert_int_eq(hex_decode("", back, sizeof back), 0);
}
END_TEST

START_TEST(test_refused)
{
	unsigned char out[2];

	ck_assert_int_eq(hex_decode("abc", out, sizeof out), -1);	/* odd */
	ck_assert_int_eq(hex_decode("0g", out, sizeof out), -1);	/* not hex */
	ck_assert_int_eq(hex_decode("000102", out, sizeof out), -1); /* long */
}
END_TEST

START_TEST(test_random)
{
	char a[33], b[33];
	unsigned char raw[16];

	ck_assert_int_eq(hex_random(16, a), 0);
	ck_assert_int_eq(hex_random(16, b), 0);
	ck_assert_uint_eq(strlen(a), 32);
	ck_assert_int_eq(hex_decode(a, raw, sizeof raw), 16);
	ck_assert_str_ne(a, b);
	ck_assert_int_eq(hex_random(65, a), -1);	/* over what it draws */
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hex");
	TCase *tc = tcase_create("hex");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
