/*
 * check_invite.c: invitations: what waitroomctl signs verifies, the id a
 * use key gets from jti, max_uses' default, and the refusals (queue,
 * time, key, signature, claims), with the clock injected.
 */
#include <string.h>

#include "invite.h"
#include "passkeys.h"
#include "unit.h"

#define S1 "0123456789abcdef0123456789abcdef"
#define S2 "abcdefghijklmnopqrstuvwxyz0123456789"
#define NOW 1800000000LL

static struct passkeys *
keys(const char *text)
{
	char err[512];
	struct passkeys *k = passkeys_load_string(text, "keys", err,
	    sizeof err);

	ck_assert_msg(k != NULL, "keys refused: %s", err);
	return k;
}

START_TEST(test_sign_verify)
{
	struct passkeys *k = keys("k1 " S1 "\n");
	char a[INVITE_MAX], b[INVITE_MAX];
	struct invite iv, iw;
	const char *why;

	ck_assert_int_eq(invite_sign(k, "vip", "guest-7", NOW + 60, 3, a,
	    sizeof a), 0);
	ck_assert_int_eq(invite_verify(k, a, strlen(a), NOW, "vip", &iv, &why),
	    0);
	ck_assert_str_eq(iv.queue, "vip");
	ck_assert_int_eq(iv.exp, NOW + 60);
	ck_assert_int_eq(iv.max_uses, 3);
	ck_assert_uint_eq(strlen(iv.id), INVITE_ID_LEN);
	ck_assert_uint_eq(strspn(iv.id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789-_"), INVITE_ID_LEN);
	/* the id is the jti's, whatever else the invitation says */
	ck_assert_int_eq(invite_sign(k, "vip", "guest-7", NOW + 99, 1, b,
	    sizeof b), 0);
	ck_assert_int_eq(invite_verify(k, b, strlen(b), NOW, "vip", &iw, &why),
	    0);
	ck_assert_str_eq(iw.id, iv.id);
	ck_assert_int_eq(invite_sign(k, "vip", "guest-8", NOW + 99, 1, b,
	    sizeof b), 0);
	invite_verify(k, b, strlen(b), NOW, "vip", &iw, &why);
	ck_assert_str_ne(iw.id, iv.id);
	passkeys_free(k);
}
END_TEST

START_TEST(test_refused)
{
	struct passkeys *k = keys("k1 " S1 "\n"), *other = keys("k1 " S2 "\n");
	struct passkeys *rotated = keys("k1 " S1 "\nk2 " S2 "\n");
	char a[INVITE_MAX];
	struct invite iv;
	const char *why;

	invite_sign(k, "vip", "g", NOW + 60, 1, a, sizeof a);
	ck_assert_int_eq(invite_verify(k, a, strlen(a), NOW, "public", &iv,
	    &why), -1);
	ck_assert_str_eq(why, "the invitation is for another queue");
	ck_assert_int_eq(invite_verify(k, a, strlen(a), NOW + 60 + 10, "vip",
	    &iv, &why), -1);
	ck_assert_str_eq(why, "the invitation has expired");
	ck_assert_int_eq(invite_verify(k, a, strlen(a), NOW + 69, "vip", &iv,
	    &why), 0);
	ck_assert_int_eq(invite_verify(other, a, strlen(a), NOW, "vip", &iv,
	    &why), -1);
	ck_assert_str_eq(why, "the signature of the invitation is wrong");
	/* rotation: an invitation of the old key still verifies */
	ck_assert_int_eq(invite_verify(rotated, a, strlen(a), NOW, "vip", &iv,
	    &why), 0);
	a[strlen(a) - 1] ^= 1;
	ck_assert_int_eq(invite_verify(k, a, strlen(a), NOW, "vip", &iv, &why),
	    -1);
	ck_assert_int_eq(invite_verify(k, "a.b", 3, NOW, "vip", &iv, &why), -1);
	ck_assert_int_eq(invite_verify(k, "", 0, NOW, "vip", &iv, &why), -1);
	ck_assert_int_eq(invite_verify(NULL, "a.b.c", 5, NOW, "vip", &iv,
	    &why), -1);
	/* an exp past the year 9999 would overflow in ms: refused */
	invite_sign(k, "vip", "g", 9223372036854775807LL, 1, a, sizeof a);
	ck_assert_int_eq(invite_verify(k, a, strlen(a), NOW, "vip", &iv, &why),
	    -1);
	ck_assert_str_eq(why, "the invitation lacks a valid aud, jti or exp");
	ck_assert_int_eq(invite_sign(k, "vip", "", NOW, 1, a, sizeof a), -1);
	ck_assert_int_eq(invite_sign(k, "vip", "g", NOW, 1, a, 20), -1);
	passkeys_free(k);
	passkeys_free(other);
	passkeys_free(rotated);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("invite");
	TCase *tc = tcase_create("invite");

	tcase_add_test(tc, test_sign_verify);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
