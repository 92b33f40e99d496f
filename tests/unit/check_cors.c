/* check_cors.c: origin lists and same-origin requests. */
#include "cors.h"
#include "unit.h"

#define LIST "https://shop.example, http://other.example:8000  https://x.example/"

START_TEST(test_allowed)
{
	ck_assert(cors_allowed(LIST, "https://shop.example"));
	ck_assert(cors_allowed(LIST, "http://other.example:8000"));
	ck_assert(cors_allowed(LIST, "https://x.example"));
	ck_assert(cors_allowed(LIST, "HTTPS://SHOP.EXAMPLE"));
	ck_assert(!cors_allowed(LIST, "http://shop.example"));
	ck_assert(!cors_allowed(LIST, "https://shop.example.evil"));
	ck_assert(!cors_allowed(LIST, "https://shop.exampl"));
	ck_assert(!cors_allowed(LIST, "http://other.example"));
	ck_assert(!cors_allowed(LIST, "null"));
	ck_assert(!cors_allowed(LIST, ""));
	ck_assert(!cors_allowed(NULL, "https://shop.example"));
	ck_assert(!cors_allowed(LIST, NULL));
}
END_TEST

START_TEST(test_any)
{
	ck_assert(cors_any("*"));
	ck_assert(cors_any("https://a.example, *"));
	ck_assert(!cors_any(LIST));
	ck_assert(!cors_any(NULL));
	ck_assert(!cors_any("**"));
	/* "*" is never an origin that could be echoed */
	ck_assert(!cors_allowed("*", "https://evil.example"));
}
END_TEST

START_TEST(test_same_origin)
{
	ck_assert(cors_same_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
	ck_assert(cors_same_origin("https://wait.example", "wait.example"));
	ck_assert(!cors_same_origin("http://127.0.0.1:8081", "127.0.0.1:8080"));
	ck_assert(!cors_same_origin("http://evil.example", "wait.example"));
	ck_assert(!cors_same_origin("null", "wait.example"));
	ck_assert(!cors_same_origin("http://a", NULL));
	ck_assert(!cors_same_origin("http://", ""));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cors");
	TCase *tc = tcase_create("cors");

	tcase_add_test(tc, test_allowed);
	tcase_add_test(tc, test_any);
	tcase_add_test(tc, test_same_origin);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
