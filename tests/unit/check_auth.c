/* check_auth.c: a bearer token: constant-time compare, header, a
 * secret's file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "unit.h"

#define TOKEN "admin-token-0123456789"

START_TEST(test_equal)
{
	ck_assert_int_eq(auth_equal("abc", 3, "abc", 3), 1);
	ck_assert_int_eq(auth_equal("abd", 3, "abc", 3), 0);
	ck_assert_int_eq(auth_equal("xbc", 3, "abc", 3), 0);
	ck_assert_int_eq(auth_equal("ab", 2, "abc", 3), 0);
	ck_assert_int_eq(auth_equal("abcd", 4, "abc", 3), 0);
	/* a prefix repeated is not the token (a is cycled, lengths differ) */
	ck_assert_int_eq(auth_equal("abcabc", 6, "abc", 3), 0);
	ck_assert_int_eq(auth_equal("", 0, "abc", 3), 0);
	ck_assert_int_eq(auth_equal("", 0, "", 0), 1);
	/* the lengths count, not the NUL */
	ck_assert_int_eq(auth_equal("ab\0", 3, "ab", 2), 0);
}
END_TEST

START_TEST(test_check)
{
	ck_assert_int_eq(auth_check("Bearer " TOKEN, TOKEN), 1);
	ck_assert_int_eq(auth_check("bearer " TOKEN, TOKEN), 1);
	ck_assert_int_eq(auth_check("BEARER  " TOKEN, TOKEN), 1);
	ck_assert_int_eq(auth_check("Bearer " TOKEN "x", TOKEN), 0);
	ck_assert_int_eq(auth_check("Bearer " TOKEN " ", TOKEN), 0);
	ck_assert_int_eq(auth_check("Basic " TOKEN, TOKEN), 0);
	ck_assert_int_eq(auth_check(TOKEN, TOKEN), 0);
	ck_assert_int_eq(auth_check("Bearer", TOKEN), 0);
	ck_assert_int_eq(auth_check("Bearer ", TOKEN), 0);
	ck_assert_int_eq(auth_check(NULL, TOKEN), 0);
	ck_assert_int_eq(auth_check("Bearer x", NULL), 0);
}
END_TEST

static char path[64];

/* A temp file holding text; its path in path. */
static void
file_with(const char *text)
{
	int fd;

	snprintf(path, sizeof path, "/tmp/check_auth.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
}

START_TEST(test_load)
{
	char buf[AUTH_TOKEN_MAX + 1], err[512];

	file_with("  " TOKEN " \r\nsecond line\n");
	ck_assert_int_eq(auth_secret_load("sentinel_password_file", path, buf, err, sizeof err), 0);
	ck_assert_str_eq(buf, TOKEN);
	unlink(path);

	file_with(TOKEN);	/* no newline at the end */
	ck_assert_int_eq(auth_secret_load("sentinel_password_file", path, buf, err, sizeof err), 0);
	ck_assert_str_eq(buf, TOKEN);
	unlink(path);
}
END_TEST

static const char *const bad_tokens[] = {
	"",				/* empty */
	"\n",
	"short-token\n",		/* under 16 */
	"with a space in the token\n",
	"tab\tinside-the-token-xx\n",
	"caf\xc3\xa9-not-ascii-token-x\n",
};

START_TEST(test_load_bad)
{
	char buf[AUTH_TOKEN_MAX + 1], err[512];

	file_with(bad_tokens[_i]);
	err[0] = '\0';
	ck_assert_int_eq(auth_secret_load("sentinel_password_file", path, buf, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_ptr_nonnull(strstr(err, "16 to 256 visible ASCII"));
	unlink(path);
}
END_TEST

START_TEST(test_load_long)
{
	char buf[AUTH_TOKEN_MAX + 1], err[512], text[AUTH_TOKEN_MAX + 3];

	memset(text, 'a', AUTH_TOKEN_MAX);
	strcpy(text + AUTH_TOKEN_MAX, "\n");
	file_with(text);
	ck_assert_int_eq(auth_secret_load("sentinel_password_file", path, buf, err, sizeof err), 0);
	ck_assert_uint_eq(strlen(buf), AUTH_TOKEN_MAX);
	unlink(path);
	memset(text, 'a', AUTH_TOKEN_MAX + 1);
	strcpy(text + AUTH_TOKEN_MAX + 1, "\n");
	file_with(text);
	ck_assert_int_eq(auth_secret_load("sentinel_password_file", path, buf, err, sizeof err), -1);
	unlink(path);
}
END_TEST

START_TEST(test_load_missing)
{
	char buf[AUTH_TOKEN_MAX + 1], err[512];

	ck_assert_int_eq(auth_secret_load("sentinel_password_file",
	    "/nonexistent/admin.token", buf, err, sizeof err), -1);
	ck_assert_str_eq(err, "sentinel_password_file /nonexistent/admin.token: "
	    "cannot read: No such file or directory");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("auth");
	TCase *tc = tcase_create("auth");

	tcase_add_test(tc, test_equal);
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_load);
	tcase_add_loop_test(tc, test_load_bad, 0,
	    (int)(sizeof bad_tokens / sizeof bad_tokens[0]));
	tcase_add_test(tc, test_load_long);
	tcase_add_test(tc, test_load_missing);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
