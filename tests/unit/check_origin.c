/* check_origin.c: which browsers may join: cors_origins and same origin. */
#include "origin.h"
#include "unit.h"

#define LIST "https://shop.example, https://m.shop.example"

START_TEST(test_listed)
{
	ck_assert(origin_allowed(LIST, "https://shop.example", "cross-site",
	    "wait.example"));
	ck_assert(origin_allowed(LIST, "https://m.shop.example", "same-site",
	    "wait.example"));
	ck_assert(!origin_allowed(LIST, "https://evil.example", "cross-site",
	    "wait.example"));
	ck_assert(!origin_allowed(LIST, "https://shop.example.evil",
	    "cross-site", "wait.example"));
	ck_assert(!origin_allowed(LIST, "http://shop.example", "cross-site",
	    "wait.example"));		/* the scheme is part of it */
	ck_assert(origin_allowed("*", "https://any.example", "cross-site",
	    "wait.example"));
	ck_assert(!origin_allowed(NULL, "https://shop.example", "cross-site",
	    "wait.example"));		/* none configured */
}
END_TEST

START_TEST(test_same_origin)
{
	/* the waiting page's own fetch */
	ck_assert(origin_allowed(NULL, "https://wait.example", "same-origin",
	    "wait.example"));
	ck_assert(origin_allowed(NULL, NULL, "none", "wait.example"));
	/* an older browser without Sec-Fetch-Site: Origin against Host */
	ck_assert(origin_allowed(NULL, "http://127.0.0.1:8080", NULL,
	    "127.0.0.1:8080"));
	ck_assert(!origin_allowed(NULL, "http://127.0.0.1:9999", NULL,
	    "127.0.0.1:8080"));
	ck_assert(!origin_allowed(NULL, "null", NULL, "null"));
	ck_assert(!origin_allowed(NULL, "https://evil.example", NULL,
	    "wait.example"));
	/* Sec-Fetch-Site decides over a matching Host */
	ck_assert(!origin_allowed(NULL, "https://wait.example", "cross-site",
	    "wait.example"));
}
END_TEST

START_TEST(test_not_a_browser)
{
	ck_assert(origin_allowed(NULL, NULL, NULL, "wait.example"));
	ck_assert(origin_allowed(NULL, NULL, NULL, NULL));
	ck_assert(!origin_allowed(NULL, NULL, "cross-site", "wait.example"));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("origin");
	TCase *tc = tcase_create("origin");

	tcase_add_test(tc, test_listed);
	tcase_add_test(tc, test_same_origin);
	tcase_add_test(tc, test_not_a_browser);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
