/* check_cookie.c: the pass cookie, and the cache of revocations and drops. */
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

static const struct revoke_facts NOT_REVOKED = { 0, 0 }, REVOKED = { 1, 0 };

START_TEST(test_revoke_cache)
{
	struct revoke *r = revoke_new();

	ck_assert_int_eq(revoke_get(r, "q", T, 1, 1000), -1);
	revoke_put(r, "q", T, &NOT_REVOKED, 1000);
	ck_assert_int_eq(revoke_get(r, "q", T, 1, 1000), PASS_OK);
	ck_assert_int_eq(revoke_get(r, "q", T, 1, 1000 + REVOKE_FRESH_MS - 1),
	    PASS_OK);
	ck_assert_int_eq(revoke_get(r, "q", T, 1, 1000 + REVOKE_FRESH_MS), -1);
	ck_assert_int_eq(revoke_get(r, "other", T, 1, 1000), -1);
	revoke_put(r, "q", T, &REVOKED, 2000);
	ck_assert_int_eq(revoke_get(r, "q", T, 1, 2000 + REVOKE_FRESH_MS * 10),
	    PASS_REVOKED);
	/* a fresh "not revoked" (a reply already in flight) never hides it */
	revoke_put(r, "q", T, &NOT_REVOKED, 3000);
	ck_assert_int_eq(revoke_get(r, "q", T, 1, 3000), PASS_REVOKED);
	revoke_free(r);
	revoke_free(NULL);
}
END_TEST

/* A drop refuses the passes issued before it, and up to the leeway after
 * (a clock that fast); a later pass of the same name's new queue opens. */
START_TEST(test_revoke_dropped)
{
	struct revoke_facts f = { 0, 1000000500 };
	long long drop = 1000000;	/* the drop's second */

	ck_assert_int_eq(revoke_verdict(&f, drop - 100), PASS_DROPPED);
	ck_assert_int_eq(revoke_verdict(&f, drop), PASS_DROPPED);
	ck_assert_int_eq(revoke_verdict(&f, drop + PASS_LEEWAY), PASS_DROPPED);
	ck_assert_int_eq(revoke_verdict(&f, drop + PASS_LEEWAY + 1), PASS_OK);
	ck_assert_int_eq(revoke_verdict(&NOT_REVOKED, drop), PASS_OK);
	f.revoked = 1;
	ck_assert_int_eq(revoke_verdict(&f, drop + 100), PASS_REVOKED);
}
END_TEST

/* The cache gives each pass of a token the verdict of its own iat, and
 * forgets a queue dropped here but no revocation. */
START_TEST(test_revoke_forget)
{
	struct revoke *r = revoke_new();
	const struct revoke_facts dropped = { 0, 5000000 };
	const char *u = "1b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21";

	revoke_put(r, "q", T, &dropped, 1000);
	ck_assert_int_eq(revoke_get(r, "q", T, 4000, 1000), PASS_DROPPED);
	ck_assert_int_eq(revoke_get(r, "q", T, 6000, 1000), PASS_OK);
	revoke_put(r, "q", u, &REVOKED, 1000);
	revoke_put(r, "other", T, &NOT_REVOKED, 1000);
	revoke_forget(r, "q");
	ck_assert_int_eq(revoke_get(r, "q", T, 6000, 1000), -1);
	ck_assert_int_eq(revoke_get(r, "q", u, 6000, 1000), PASS_REVOKED);
	ck_assert_int_eq(revoke_get(r, "other", T, 6000, 1000), PASS_OK);
	revoke_free(r);
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
		revoke_put(r, "q", nth_token(i), &NOT_REVOKED, 1000);
	for (int i = 0; i < 1000; i++)
		known += revoke_get(r, "q", nth_token(i), 1, 1500) == PASS_OK;
	ck_assert_int_eq(known, 1000);
	revoke_free(r);
}
END_TEST

/* A flood of fresh answers never pushes a revocation out. */
START_TEST(test_revoke_kept)
{
	struct revoke *r = revoke_new();

	revoke_put(r, "q", T, &REVOKED, 1000);
	for (int i = 0; i < 4 * REVOKE_SLOTS; i++)
		revoke_put(r, "q", nth_token(i), &NOT_REVOKED, 1000 + i / 1000);
	ck_assert_int_eq(revoke_get(r, "q", T, 1, 2000), PASS_REVOKED);
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
	tcase_add_test(tc, test_revoke_dropped);
	tcase_add_test(tc, test_revoke_forget);
	tcase_add_test(tc, test_revoke_many);
	tcase_add_test(tc, test_revoke_kept);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
