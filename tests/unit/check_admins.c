/* check_admins.c: admin_token_file: a bare token (the admin "admin") or
 * lines NAME TOKEN, the errors, and finding a request's admin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "admins.h"
#include "unit.h"

#define T1 "token-of-alice-0123456789"
#define T2 "token-of-bob-0123456789xx"

static char path[64];

static void
file_with(const char *text)
{
	int fd;

	snprintf(path, sizeof path, "/tmp/check_admins.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
}

static struct admins *
load(const char *text, char *err, size_t errlen)
{
	struct admins *ad;

	file_with(text);
	err[0] = '\0';
	ad = admins_load(path, err, errlen);
	unlink(path);
	return ad;
}

START_TEST(test_bare)
{
	char err[512];
	struct admins *ad = load("  " T1 " \r\nanything after it\n", err,
	    sizeof err);

	ck_assert_ptr_nonnull(ad);
	ck_assert_uint_eq(ad->n, 1);
	ck_assert_str_eq(ad->a[0].name, "admin");
	ck_assert_str_eq(ad->a[0].token, T1);
	ck_assert_str_eq(admins_find(ad, "Bearer " T1), "admin");
	ck_assert_ptr_null(admins_find(ad, "Bearer " T2));
	admins_free(ad);
	ad = load(T1, err, sizeof err);		/* no newline at the end */
	ck_assert_ptr_nonnull(ad);
	ck_assert_str_eq(ad->a[0].token, T1);
	admins_free(ad);
}
END_TEST

START_TEST(test_named)
{
	char err[512];
	struct admins *ad = load("# who may steer\n\nalice " T1 "\n"
	    "bob\t" T2 "\n", err, sizeof err);

	ck_assert_ptr_nonnull(ad);
	ck_assert_uint_eq(ad->n, 2);
	ck_assert_str_eq(admins_find(ad, "Bearer " T1), "alice");
	ck_assert_str_eq(admins_find(ad, "bearer  " T2), "bob");
	ck_assert_ptr_null(admins_find(ad, "Bearer " T1 "x"));
	ck_assert_ptr_null(admins_find(ad, "Bearer alice"));
	ck_assert_ptr_null(admins_find(ad, NULL));
	ck_assert_ptr_null(admins_find(NULL, "Bearer " T1));
	admins_free(ad);
}
END_TEST

static const struct {
	const char *text, *want;
} bad[] = {
	{ "", "no token" },
	{ "\n# only a comment\n", "no token" },
	{ "short-token\n", ":1: a token is 16 to 256" },
	{ "alice " T1 "\n" T2 "\n", ":2: each line is NAME TOKEN" },
	{ "alice " T1 " extra\n", ":1: each line is NAME TOKEN" },
	{ "al!ce " T1 "\n", ":1: a name is 1 to 32" },
	{ "alice " T1 "\nalice " T2 "\n", ":2: the name of line 1 again" },
	{ "alice " T1 "\nbob " T1 "\n", ":2: the token of line 1 again" },
	{ "alice short\n", ":1: a token is 16 to 256" },
	{ "alice caf\xc3\xa9-not-ascii-token-x\n", ":1: a token is" },
};

START_TEST(test_bad)
{
	char err[512];
	struct admins *ad = load(bad[_i].text, err, sizeof err);

	ck_assert_ptr_null(ad);
	ck_assert_ptr_nonnull(strstr(err, "admin_token_file /tmp/"));
	if (strstr(err, bad[_i].want) == NULL)
		ck_abort_msg("'%s': got '%s'", bad[_i].want, err);
}
END_TEST

START_TEST(test_many)
{
	char err[512], *text = calloc(ADMINS_MAX + 2, 64), line[64];
	struct admins *ad;

	ck_assert_ptr_nonnull(text);
	for (int i = 0; i < ADMINS_MAX + 1; i++) {
		snprintf(line, sizeof line, "a%d token-number-%04d-xxxxx\n", i,
		    i);
		strcat(text, line);
	}
	ad = load(text, err, sizeof err);
	ck_assert_ptr_null(ad);
	ck_assert_ptr_nonnull(strstr(err, "more than 64 admins"));
	free(text);
}
END_TEST

START_TEST(test_missing)
{
	char err[512];

	ck_assert_ptr_null(admins_load("/nonexistent/admin.token", err,
	    sizeof err));
	ck_assert_str_eq(err, "admin_token_file /nonexistent/admin.token: "
	    "cannot read: No such file or directory");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("admins");
	TCase *tc = tcase_create("admins");

	tcase_add_test(tc, test_bare);
	tcase_add_test(tc, test_named);
	tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_missing);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
