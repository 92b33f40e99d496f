/*
 * check_pow.c: the proof-of-work challenge: leading zero bits (at byte
 * boundaries and inside a byte), the published test vector, the tag, the
 * queue, the expiry, what a challenge is worth, and the shapes the parser
 * refuses.
 */
#include <stdio.h>
#include <string.h>

#include "pow.h"
#include "unit.h"

/* doc/api.md's vector: key bytes 1..32, 16 zero random bytes. */
#define VECTOR "1.concert.8.2000000000.AAAAAAAAAAAAAAAAAAAAAA." \
    "DTsCnasp8RB2JvU2Ra4keg"
#define EXP 2000000000LL

static unsigned char key[POW_KEY_LEN], zero[POW_RANDOM_LEN];

static void
setup(void)
{
	for (int i = 0; i < POW_KEY_LEN; i++)
		key[i] = (unsigned char)(i + 1);
}

START_TEST(test_zero_bits)
{
	const unsigned char a[] = { 0xff }, b[] = { 0x80 }, c[] = { 0x7f },
	    d[] = { 0x01 }, e[] = { 0x00, 0x80 }, f[] = { 0x00, 0x00, 0x01 },
	    g[] = { 0x00, 0x00 }, h[] = { 0x0f, 0x00 };

	ck_assert_int_eq(pow_zero_bits(a, 1), 0);
	ck_assert_int_eq(pow_zero_bits(b, 1), 0);
	ck_assert_int_eq(pow_zero_bits(c, 1), 1);
	ck_assert_int_eq(pow_zero_bits(d, 1), 7);
	ck_assert_int_eq(pow_zero_bits(e, 2), 8);
	ck_assert_int_eq(pow_zero_bits(f, 3), 23);
	ck_assert_int_eq(pow_zero_bits(g, 2), 16);
	ck_assert_int_eq(pow_zero_bits(h, 2), 4);
}
END_TEST

START_TEST(test_vector)
{
	char ch[POW_CHALLENGE_MAX + 1];
	struct pow_challenge c;

	ck_assert_int_eq(pow_issue(ch, key, "concert", 8, EXP, zero), 0);
	ck_assert_str_eq(ch, VECTOR);
	/* SHA-256(VECTOR "213") starts 00 38: ten zero bits */
	ck_assert_int_eq(pow_check(key, "concert", VECTOR, "213", EXP - 1, &c),
	    POW_OK);
	ck_assert_str_eq(c.queue, "concert");
	ck_assert_int_eq(c.bits, 8);
	ck_assert_int_eq(c.expires, EXP);
	ck_assert_str_eq(c.random, "AAAAAAAAAAAAAAAAAAAAAA");
	/* no nonce below 213 reaches 8 bits: 212 is a wrong answer */
	ck_assert_int_eq(pow_check(key, "concert", VECTOR, "212", EXP - 1, &c),
	    POW_FAILED);
}
END_TEST

/* The tag covers every field; any other key, queue or byte fails. */
START_TEST(test_tag)
{
	char ch[POW_CHALLENGE_MAX + 1];
	unsigned char other[POW_KEY_LEN];
	struct pow_challenge c;

	strcpy(ch, VECTOR);
	ch[10] = '9';		/* bits 8 -> 9 */
	ck_assert_int_eq(pow_check(key, "concert", ch, "213", 0, &c),
	    POW_FAILED);
	strcpy(ch, VECTOR);
	ch[strlen(ch) - 1] = 'f';	/* the tag's last character */
	ck_assert_int_eq(pow_check(key, "concert", ch, "213", 0, &c),
	    POW_FAILED);
	strcpy(ch, VECTOR);
	ch[20] = '1';		/* the expiry */
	ck_assert_int_eq(pow_check(key, "concert", ch, "213", 0, &c),
	    POW_FAILED);
	memcpy(other, key, sizeof other);
	other[31] ^= 1;
	ck_assert_int_eq(pow_check(other, "concert", VECTOR, "213", 0, &c),
	    POW_FAILED);
	ck_assert_int_eq(pow_check(key, "concerts", VECTOR, "213", 0, &c),
	    POW_FAILED);
	ck_assert_int_eq(pow_issue(ch, key, "other", 8, EXP, zero), 0);
	ck_assert_int_eq(pow_check(key, "concert", ch, "213", 0, &c),
	    POW_FAILED);
}
END_TEST

/* Expired from expires on; an expired forgery is still a forgery. */
START_TEST(test_expiry)
{
	char ch[POW_CHALLENGE_MAX + 1];
	struct pow_challenge c;

	ck_assert_int_eq(pow_check(key, "concert", VECTOR, "213", EXP, &c),
	    POW_EXPIRED);
	ck_assert_int_eq(pow_check(key, "concert", VECTOR, "212", EXP + 5, &c),
	    POW_EXPIRED);
	strcpy(ch, VECTOR);
	ch[strlen(ch) - 2] ^= 1;
	ck_assert_int_eq(pow_check(key, "concert", ch, "213", EXP + 5, &c),
	    POW_FAILED);
}
END_TEST

/* Work at 0 bits and at 12; a nonce found by search, one that fails. */
START_TEST(test_work)
{
	char ch[POW_CHALLENGE_MAX + 1], nonce[16];
	struct pow_challenge c;
	int good = -1, bad = -1;

	ck_assert_int_eq(pow_issue(ch, key, "q", 0, EXP, zero), 0);
	ck_assert_int_eq(pow_check(key, "q", ch, "x", 0, &c), POW_OK);
	ck_assert_int_eq(pow_issue(ch, key, "q", 12, EXP, zero), 0);
	for (int i = 0; i < 1 << 20 && (good < 0 || bad < 0); i++) {
		snprintf(nonce, sizeof nonce, "%d", i);
		if (pow_check(key, "q", ch, nonce, 0, &c) == POW_OK)
			good = good < 0 ? i : good;
		else
			bad = bad < 0 ? i : bad;
	}
	ck_assert_int_ge(good, 0);
	ck_assert_int_ge(bad, 0);
}
END_TEST

/*
 * What a challenge is worth is its stated bits: the vector states 8, and
 * "213" happens to hash to ten zero bits, which count for nothing.
 */
START_TEST(test_enough)
{
	struct pow_challenge c;

	ck_assert_int_eq(pow_check(key, "concert", VECTOR, "213", 0, &c),
	    POW_OK);
	ck_assert_int_eq(c.bits, 8);
	ck_assert(pow_enough(c.bits, 0));
	ck_assert(pow_enough(c.bits, 7));
	ck_assert(pow_enough(c.bits, 8));
	ck_assert(!pow_enough(c.bits, 9));
	ck_assert(!pow_enough(c.bits, 10));
	ck_assert(pow_enough(0, 0));
	ck_assert(!pow_enough(0, 1));
	ck_assert(pow_enough(POW_BITS_MAX, POW_BITS_MAX));
}
END_TEST

START_TEST(test_nonce)
{
	struct pow_challenge c;
	char long_nonce[40];

	ck_assert(pow_valid_nonce("aZ09", 4));
	ck_assert(!pow_valid_nonce("", 0));
	ck_assert(!pow_valid_nonce("a-b", 3));
	ck_assert(!pow_valid_nonce("a b", 3));
	ck_assert(!pow_valid_nonce("\xc3\xa9", 2));
	memset(long_nonce, 'a', 33);
	long_nonce[33] = '\0';
	ck_assert(!pow_valid_nonce(long_nonce, 33));
	ck_assert(pow_valid_nonce(long_nonce, 32));
	ck_assert_int_eq(pow_check(key, "concert", VECTOR, "21 3", 0, &c),
	    POW_FAILED);
}
END_TEST

START_TEST(test_parse_refuses)
{
	const char *bad[] = {
		"",
		"1.",
		"2.concert.8.2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.08.2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.33.2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.8.02000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.8.-2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg",
		"1.con.cert.8.2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg",
		"1..8.2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.8.2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4ke",
		"1.concert.8.2000000000.AAAAAAAAAAAAAAAAAAAAAA.DTsCnasp8RB2JvU2Ra4keg.",
		"1.concert.8.2000000000.AAAAAAAAAAAAAAAAAAAAAB.DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.8.2000000000.AAAAAAAAAAAAAAAAAAAA+A.DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.8.2000000000.AAAAAAAAAAAAAAAAAAAAAA=DTsCnasp8RB2JvU2Ra4keg",
		"1.concert.8.2000000000",
	};
	struct pow_challenge c;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(pow_parse(bad[i], strlen(bad[i]), &c) == -1,
		    "accepted %s", bad[i]);
	ck_assert_int_eq(pow_parse(VECTOR, strlen(VECTOR), &c), 0);
}
END_TEST

/* The longest queue name still fits POW_CHALLENGE_MAX. */
START_TEST(test_longest)
{
	char ch[POW_CHALLENGE_MAX + 1], q[65];
	struct pow_challenge c;

	memset(q, 'q', 64);
	q[64] = '\0';
	ck_assert_int_eq(pow_issue(ch, key, q, 32, 999999999999LL, zero), 0);
	ck_assert_int_le(strlen(ch), POW_CHALLENGE_MAX);
	ck_assert_int_eq(pow_parse(ch, strlen(ch), &c), 0);
	ck_assert_str_eq(c.queue, q);
	ck_assert_int_eq(pow_issue(ch, key, "a.b", 8, EXP, zero), -1);
	ck_assert_int_eq(pow_issue(ch, key, "q", 33, EXP, zero), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("pow");
	TCase *tc = tcase_create("pow");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_zero_bits);
	tcase_add_test(tc, test_vector);
	tcase_add_test(tc, test_tag);
	tcase_add_test(tc, test_expiry);
	tcase_add_test(tc, test_work);
	tcase_add_test(tc, test_enough);
	tcase_add_test(tc, test_nonce);
	tcase_add_test(tc, test_parse_refuses);
	tcase_add_test(tc, test_longest);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
