/* check_lang.c: which language a visitor gets, and waits in words. */
#include <string.h>

#include "lang.h"
#include "unit.h"

START_TEST(test_choose)
{
	ck_assert_int_eq(lang_choose(NULL, NULL), LANG_EN);
	ck_assert_int_eq(lang_choose("", NULL), LANG_EN);
	ck_assert_int_eq(lang_choose("ko", NULL), LANG_KO);
	ck_assert_int_eq(lang_choose("ko-KR,ko;q=0.9,en-US;q=0.8", NULL),
	    LANG_KO);
	ck_assert_int_eq(lang_choose("en-US,en;q=0.9,ko;q=0.8", NULL),
	    LANG_EN);
	ck_assert_int_eq(lang_choose("fr-FR, ko;q=0.5, en;q=0.4", NULL),
	    LANG_KO);
	ck_assert_int_eq(lang_choose("fr, de", NULL), LANG_EN);
	ck_assert_int_eq(lang_choose("KO-kr", NULL), LANG_KO);
	ck_assert_int_eq(lang_choose("ko;q=0, en;q=0.1", NULL), LANG_EN);
	ck_assert_int_eq(lang_choose("kok, kor", NULL), LANG_EN);
	ck_assert_int_eq(lang_choose("*;q=0.5, ko;q=0.6", NULL), LANG_KO);
}
END_TEST

START_TEST(test_override)
{
	ck_assert_int_eq(lang_choose("en", "ko"), LANG_KO);
	ck_assert_int_eq(lang_choose("ko", "en"), LANG_EN);
	ck_assert_int_eq(lang_choose("ko", "xx"), LANG_KO);
	ck_assert_int_eq(lang_choose("ko", ""), LANG_KO);
	ck_assert_str_eq(lang_code(LANG_KO), "ko");
}
END_TEST

START_TEST(test_eta)
{
	char b[128];

	ck_assert_str_eq(lang_eta(LANG_EN, -1, b, sizeof b),
	    "no estimate while admissions are paused");
	ck_assert_str_eq(lang_eta(LANG_EN, 0, b, sizeof b),
	    "less than a minute");
	ck_assert_str_eq(lang_eta(LANG_EN, 59, b, sizeof b),
	    "less than a minute");
	ck_assert_str_eq(lang_eta(LANG_EN, 60, b, sizeof b), "about 1 minute");
	ck_assert_str_eq(lang_eta(LANG_EN, 61, b, sizeof b),
	    "about 2 minutes");
	ck_assert_str_eq(lang_eta(LANG_EN, 180, b, sizeof b),
	    "about 3 minutes");
	ck_assert_str_eq(lang_eta(LANG_EN, 89 * 60, b, sizeof b),
	    "about 89 minutes");
	ck_assert_str_eq(lang_eta(LANG_EN, 90 * 60, b, sizeof b),
	    "about 2 hours");
	ck_assert_str_eq(lang_eta(LANG_KO, 180, b, sizeof b), "약 3분");
	ck_assert_str_eq(lang_eta(LANG_KO, 10, b, sizeof b), "1분 이내");
}
END_TEST

START_TEST(test_table)
{
	/* Every text is there in every language. */
	for (size_t i = 0; i < lang_count(); i++)
		for (int l = 0; l < LANG_COUNT; l++)
			ck_assert_msg(lang_text(l, i) && *lang_text(l, i),
			    "text %s in %s", lang_key(i), lang_code(l));
	ck_assert_int_ge(lang_find("title", 5), 0);
	ck_assert_int_eq(lang_find("titl", 4), -1);
	ck_assert_str_eq(lang_get(LANG_KO, "title"), "대기실");
	ck_assert_str_eq(lang_get(LANG_EN, "nosuch"), "");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("lang");
	TCase *tc = tcase_create("lang");

	tcase_add_test(tc, test_choose);
	tcase_add_test(tc, test_override);
	tcase_add_test(tc, test_eta);
	tcase_add_test(tc, test_table);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
