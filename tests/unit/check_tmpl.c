/* check_tmpl.c: template parsing, placeholders and HTML escaping. */
#include <stdlib.h>
#include <string.h>

#include "tmpl.h"
#include "unit.h"

static int
lookup(const char *name, size_t len)
{
	if (len == 1 && name[0] == 'a')
		return 0;
	if (len == 2 && memcmp(name, "bb", 2) == 0)
		return 1;
	return -1;
}

static const char *
value(int idx, void *arg)
{
	const char *const *v = arg;

	return v[idx];
}

static char *
render(const char *text, const char *a, const char *bb)
{
	const char *vals[2] = { a, bb };
	char err[256];
	struct tmpl *t = tmpl_parse(text, lookup, "a, bb", err, sizeof err);
	size_t len;
	char *out;

	ck_assert_msg(t != NULL, "%s", err);
	out = tmpl_render(t, value, (void *)vals, &len);
	ck_assert_uint_eq(len, strlen(out));
	tmpl_free(t);
	return out;
}

START_TEST(test_substitute)
{
	char *s = render("<p>{{a}}-{{ bb }}</p>{{a}}", "1", "two");

	ck_assert_str_eq(s, "<p>1-two</p>1");
	free(s);
	s = render("no placeholders", "x", "y");
	ck_assert_str_eq(s, "no placeholders");
	free(s);
	s = render("{{a}}{{bb}}", NULL, "");
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(test_escaped)
{
	char *s = render("<a title=\"{{a}}\">{{bb}}</a>",
	    "\"><script>alert(1)</script>", "Tom & 'Jerry' <b>");

	ck_assert_str_eq(s, "<a title=\"&quot;&gt;&lt;script&gt;alert(1)"
	    "&lt;/script&gt;\">Tom &amp; &#39;Jerry&#39; &lt;b&gt;</a>");
	free(s);
	s = tmpl_escape("대기 & <wait>");
	ck_assert_str_eq(s, "대기 &amp; &lt;wait&gt;");
	free(s);
}
END_TEST

START_TEST(test_unknown)
{
	char err[256];

	ck_assert_ptr_null(tmpl_parse("ok\n<p>{{a}} {{nope}}</p>", lookup,
	    "a, bb", err, sizeof err));
	ck_assert_str_eq(err, "line 2: unknown placeholder '{{nope}}' "
	    "(accepted: a, bb)");
	ck_assert_ptr_null(tmpl_parse("{{A}}", lookup, "a, bb", err,
	    sizeof err));
	ck_assert_ptr_null(tmpl_parse("{{}}", lookup, "a, bb", err,
	    sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "line 1: unknown placeholder"));
}
END_TEST

START_TEST(test_unclosed)
{
	char err[256];

	ck_assert_ptr_null(tmpl_parse("a\nb\n{{a\n}}", lookup, "a, bb", err,
	    sizeof err));
	ck_assert_str_eq(err, "line 3: '{{' without a closing '}}' on the "
	    "same line");
	ck_assert_ptr_null(tmpl_parse("x {{", lookup, "a", err, sizeof err));
}
END_TEST

START_TEST(test_uses)
{
	char err[64];
	struct tmpl *t = tmpl_parse("{{bb}}", lookup, "", err, sizeof err);

	ck_assert(!tmpl_uses(t, 0));
	ck_assert(tmpl_uses(t, 1));
	tmpl_free(t);
	tmpl_free(NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tmpl");
	TCase *tc = tcase_create("tmpl");

	tcase_add_test(tc, test_substitute);
	tcase_add_test(tc, test_escaped);
	tcase_add_test(tc, test_unknown);
	tcase_add_test(tc, test_unclosed);
	tcase_add_test(tc, test_uses);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
