/* check_cookie.c: the pass cookie, and the cache of revocations. */
#include <stdio.h>
#include <string.h>

#include "cookie.h"
#include "revoke.h"
#include "unit.h"

#define T "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21"

static const char *
find(const char *header, const char *name)
{
	static char buf[256];
	const char *v;
	size_t n;

	if (cookie_find(header, name, &v, &n) == -1)
		return "(none)";
	memcpy(buf, v, n);
	buf[n] = '\0';
	return buf;
}

START_TEST(test_find)
{
	ck_assert_str_eq(find("waitroom_pass=abc", "waitroom_pass"), "abc");
	ck_assert_str_eq(find("a=1; waitroom_pass=abc; b=2", "waitroom_pass"),
	    "abc");
	ck_assert_str_eq(find("a=1;waitroom_pass=a.b.c", "waitroom_pass"),
	    "a.b.c");
	ck_assert_str_eq(find("waitroom_pass=\"q\"", "waitroom_pass"), "q");
	ck_assert_str_eq(find("xwaitroom_pass=abc", "waitroom_pass"), "(none)");
	ck_assert_str_eq(find("waitroom_passx=abc", "waitroom_pass"), "(none)");
	ck_assert_str_eq(find("waitroom_pass", "waitroom_pass"), "(none)");
	ck_assert_str_eq(find("", "waitroom_pass"), "(none)");
	ck_assert_str_eq(find("w=1; w=2", "w"), "1");	/* the first */
	ck_assert_str_eq(find("w=", "w"), "");
}
END_TEST

START_TEST(test_set)
{
	char buf[256];

	ck_assert_int_eq(cookie_set(buf, sizeof buf, "p", "v", 300, NULL, 1), 0);
	ck_assert_str_eq(buf, "p=v; Path=/; Max-Age=300; HttpOnly; "
	    "SameSite=Lax; Secure");
	ck_assert_int_eq(cookie_set(buf, sizeof buf, "p", "v", -5,
	    "shop.example", 0), 0);
	ck_assert_str_eq(buf, "p=v; Path=/; Max-Age=0; Domain=shop.example; "
	    "HttpOnly; SameSite=Lax");
	ck_assert_int_eq(cookie_set(buf, 10, "p", "v", 300, NULL, 1), -1);
}
END_TEST

START_TEST(test_revoke_cache)
{
	struct revoke *r = revoke_new();

	ck_assert_int_eq(revoke_get(r, "q", T, 1000), -1);
	revoke_put(r, "q", T, 0, 1000);
	ck_assert_int_eq(revoke_get(r, "q", T, 1000), 0);
	ck_assert_int_eq(revoke_get(r, "q", T, 1000 + REVOKE_FRESH_MS - 1), 0);
	ck_assert_int_eq(revoke_get(r, "q", T, 1000 + REVOKE_FRESH_MS), -1);
	ck_assert_int_eq(revoke_get(r, "other", T, 1000), -1);
	revoke_put(r, "q", T, 1, 2000);
	ck_assert_int_eq(revoke_get(r, "q", T, 2000 + REVOKE_FRESH_MS * 10), 1);
	/* a late "not revoked" answer never hides a revocation */
	revoke_put(r, "q", T, 0, 3000);
	ck_assert_int_eq(revoke_get(r, "q", T, 3000), 1);
	revoke_free(r);
	revoke_free(NULL);
}
END_TEST

static const char *
nth_token(int i)
{
	static char buf[40];

	snprintf(buf, sizeof buf, "%08x-0000-4000-8000-%012d", i * 2654435761u,
	    i);
	return buf;
}

/* 1,000 passes in use at once are all remembered. */
START_TEST(test_revoke_many)
{
	struct revoke *r = revoke_new();
	int known = 0;

	for (int i = 0; i < 1000; i++)
		revoke_put(r, "q", nth_token(i), 0, 1000);
	for (int i = 0; i < 1000; i++)
		known += revoke_get(r, "q", nth_token(i), 1500) == 0;
	ck_assert_int_eq(known, 1000);
	revoke_free(r);
}
END_TEST

/* A flood of fresh answers never pushes a revocation out. */
START_TEST(test_revoke_kept)
{
	struct revoke *r = revoke_new();

	revoke_put(r, "q", T, 1, 1000);
	for (int i = 0; i < 4 * REVOKE_SLOTS; i++)
		revoke_put(r, "q", nth_token(i), 0, 1000 + i / 1000);
	ck_assert_int_eq(revoke_get(r, "q", T, 2000), 1);
	revoke_free(r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cookie");
	TCase *tc = tcase_create("cookie");

	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_revoke_cache);
	tcase_add_test(tc, test_revoke_many);
	tcase_add_test(tc, test_revoke_kept);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
