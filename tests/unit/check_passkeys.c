/*
 * check_passkeys.c: pass_key_file: the last key signs, every key
 * verifies, and a bad file is refused with a message naming the file and
 * the line, never the secret.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "passkeys.h"
#include "unit.h"

#define S32 "0123456789abcdef0123456789abcdef"	/* 32 characters */
#define S33 "X123456789abcdef0123456789abcdefY"

static char err[512];

static struct passkeys *
load(const char *text)
{
	err[0] = '\0';
	return passkeys_load_string(text, "keys", err, sizeof err);
}

START_TEST(test_signer_and_find)
{
	struct passkeys *k = load(
	    "# keys of the shop\n"
	    "\n"
	    "2026-01 " S32 "\n"
	    "  2026-02\t\t" S33 "  \r\n"
	    "# the next one signs\n");
	const struct passkey *p;

	ck_assert_msg(k != NULL, "%s", err);
	ck_assert_uint_eq(k->n, 2);
	ck_assert_ptr_nonnull(p = passkeys_signer(k));
	ck_assert_str_eq(p->kid, "2026-02");
	ck_assert_uint_eq(p->len, 33);
	ck_assert_mem_eq(p->secret, S33, 33);
	/* every key verifies */
	ck_assert_ptr_nonnull(p = passkeys_find(k, "2026-01", 7));
	ck_assert_mem_eq(p->secret, S32, 32);
	/* kid is len bytes, not a prefix */
	ck_assert_ptr_nonnull(passkeys_find(k, "2026-01xyz", 7));
	ck_assert_ptr_null(passkeys_find(k, "2026-0", 6));
	ck_assert_ptr_null(passkeys_find(k, "2026-011", 8));
	ck_assert_ptr_null(passkeys_find(k, "2026-03", 7));
	passkeys_free(k);
	passkeys_free(NULL);
	ck_assert_ptr_null(passkeys_signer(NULL));
	ck_assert_ptr_null(passkeys_find(NULL, "x", 1));
}
END_TEST

static const struct {
	const char *text, *want;
} bad[] = {
	{ "k1\n", "keys:1: expected 'KID SECRET' (two words)" },
	{ "k1 " S32 " extra\n", "keys:1: expected 'KID SECRET' (two words)" },
	{ "# c\nk/1 " S32 "\n", "keys:2: bad key id (accepted: 1 to 64 of "
	  "A-Z a-z 0-9 . _ -)" },
	{ "k1 0123456789abcdef0123456789abcde\n", "keys:1: the secret of key "
	  "'k1' is 31 characters (accepted: 32 to 512)" },
	{ "k1 " S32 "\nk2 " S33 "\nk1 " S33 "\n",
	  "keys:3: duplicate key id 'k1'" },
	{ "k1 " S32 "\x01\n", "keys:1: control character in line" },
	{ "", "keys: no keys (expected lines 'KID SECRET', secret of 32 or "
	  "more characters)" },
	{ "# only\n\n  # comments\n", "keys: no keys (expected lines "
	  "'KID SECRET', secret of 32 or more characters)" },
};

START_TEST(test_bad)
{
	ck_assert_ptr_null(load(bad[_i].text));
	ck_assert_str_eq(err, bad[_i].want);
	/* the secret is never shown */
	ck_assert_ptr_null(strstr(err, "0123456789abcdef"));
}
END_TEST

START_TEST(test_limits)
{
	char *text = malloc(100000), *p = text;
	char kid[PASSKEYS_KID_MAX + 2], secret[PASSKEYS_SECRET_MAX + 2];
	struct passkeys *k;

	/* the longest id and secret accepted, and one more */
	memset(kid, 'k', sizeof kid - 1);
	kid[PASSKEYS_KID_MAX] = '\0';
	memset(secret, 's', sizeof secret - 1);
	secret[PASSKEYS_SECRET_MAX] = '\0';
	snprintf(text, 100000, "%s %s\n", kid, secret);
	ck_assert_msg((k = load(text)) != NULL, "%s", err);
	ck_assert_uint_eq(passkeys_signer(k)->len, PASSKEYS_SECRET_MAX);
	passkeys_free(k);
	kid[PASSKEYS_KID_MAX] = 'k';
	kid[PASSKEYS_KID_MAX + 1] = '\0';
	snprintf(text, 100000, "%s %s\n", kid, S32);
	ck_assert_ptr_null(load(text));
	ck_assert_str_eq(err, "keys:1: bad key id (accepted: 1 to 64 of "
	    "A-Z a-z 0-9 . _ -)");
	secret[PASSKEYS_SECRET_MAX] = 's';
	secret[PASSKEYS_SECRET_MAX + 1] = '\0';
	snprintf(text, 100000, "k %s\n", secret);
	ck_assert_ptr_null(load(text));
	ck_assert_str_eq(err, "keys:1: the secret of key 'k' is 513 "
	    "characters (accepted: 32 to 512)");

	/* PASSKEYS_MAX keys, then one too many */
	for (int i = 0; i < PASSKEYS_MAX; i++)
		p += sprintf(p, "k%d %s\n", i, S32);
	ck_assert_msg((k = load(text)) != NULL, "%s", err);
	ck_assert_str_eq(passkeys_signer(k)->kid, "k63");
	passkeys_free(k);
	sprintf(p, "k%d %s\n", PASSKEYS_MAX, S32);
	ck_assert_ptr_null(load(text));
	ck_assert_str_eq(err, "keys:65: more than 64 keys");
	free(text);
}
END_TEST

/* A new temp file holding the len bytes of text; its name in path. */
static void
write_file(char path[64], const char *text, size_t len)
{
	FILE *f;
	int fd;

	strcpy(path, "/tmp/check_passkeys.XXXXXX");
	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_ptr_nonnull(f = fdopen(fd, "w"));
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_file)
{
	const char text[] = "old " S32 "\nnew " S33 "\n";
	char path[64], want[128];
	struct passkeys *k;
	char *big;

	write_file(path, text, strlen(text));
	k = passkeys_load_file(path, err, sizeof err);
	ck_assert_msg(k != NULL, "%s", err);
	ck_assert_str_eq(passkeys_signer(k)->kid, "new");
	passkeys_free(k);
	unlink(path);

	/* messages name the path */
	write_file(path, "k1\n", 3);
	ck_assert_ptr_null(passkeys_load_file(path, err, sizeof err));
	snprintf(want, sizeof want, "%s:1: expected 'KID SECRET' (two words)",
	    path);
	ck_assert_str_eq(err, want);
	unlink(path);

	write_file(path, "k1 " S32 "\0\n", strlen(S32) + 5);
	ck_assert_ptr_null(passkeys_load_file(path, err, sizeof err));
	snprintf(want, sizeof want, "%s: cannot read: holds a NUL byte", path);
	ck_assert_str_eq(err, want);
	unlink(path);

	big = malloc(65537);
	memset(big, '#', 65537);
	write_file(path, big, 65537);
	free(big);
	ck_assert_ptr_null(passkeys_load_file(path, err, sizeof err));
	snprintf(want, sizeof want, "%s: cannot read: larger than 64 KiB",
	    path);
	ck_assert_str_eq(err, want);
	unlink(path);

	ck_assert_ptr_null(passkeys_load_file("/nonexistent/keys", err,
	    sizeof err));
	ck_assert_str_eq(err, "/nonexistent/keys: cannot read: No such file "
	    "or directory");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("passkeys");
	TCase *tc = tcase_create("passkeys");

	tcase_add_test(tc, test_signer_and_find);
	tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_file);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
