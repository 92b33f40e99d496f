/* check_sha256.c: SHA-256 and the prepared HMAC-SHA256 against published
 * vectors (FIPS 180-2's "abc", RFC 4231's test cases 1 and 2), a key
 * used many times over, and a key longer than a block refused. */
#include <string.h>

#include "hex.h"
#include "sha256.h"
#include "unit.h"

/* hex of the 32 bytes at b */
static const char *
hex32(const unsigned char b[SHA256_LEN])
{
	static char h[2 * SHA256_LEN + 1];

	hex_encode(b, SHA256_LEN, h);
	return h;
}

START_TEST(test_digest)
{
	unsigned char md[SHA256_LEN];

	ck_assert_int_eq(sha256("abc", 3, md), 0);
	ck_assert_str_eq(hex32(md), "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	ck_assert_int_eq(sha256("", 0, md), 0);
	ck_assert_str_eq(hex32(md), "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855");
}
END_TEST

START_TEST(test_mac)
{
	unsigned char key1[20], md[SHA256_LEN];
	struct sha256_mac *m;

	memset(key1, 0x0b, sizeof key1);
	m = sha256_mac_new(key1, sizeof key1);
	ck_assert_ptr_nonnull(m);
	/* the prepared state is copied, never spent: the same twice */
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(sha256_mac(m, "Hi There", 8, md), 0);
		ck_assert_str_eq(hex32(md), "b0344c61d8db38535ca8afceaf0bf12b"
		    "881dc200c9833da726e9376c2e32cff7");
	}
	sha256_mac_free(m);
	m = sha256_mac_new((const unsigned char *)"Jefe", 4);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(sha256_mac(m, "what do ya want for nothing?", 28,
	    md), 0);
	ck_assert_str_eq(hex32(md), "5bdcc146bf60754e6a042426089575c7"
	    "5a003f089d2739839dec58b964ec3843");
	sha256_mac_free(m);
}
END_TEST

START_TEST(test_long_key)
{
	unsigned char key[65] = { 0 };

	ck_assert_ptr_null(sha256_mac_new(key, sizeof key));
	sha256_mac_free(NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("sha256");

	tcase_add_test(tc, test_digest);
	tcase_add_test(tc, test_mac);
	tcase_add_test(tc, test_long_key);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
