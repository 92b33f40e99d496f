/* check_console.c: the console's page in each language, and its files. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "console.h"
#include "unit.h"

static char *
render(enum lang l)
{
	char err[256];
	struct console *c = console_new(err, sizeof err);
	size_t len;
	char *html;

	ck_assert_msg(c != NULL, "%s", err);
	html = console_render(c, l, &len);
	ck_assert_ptr_nonnull(html);
	ck_assert_uint_eq(len, strlen(html));
	console_free(c);
	return html;
}

/* An attribute's value, unescaped (tmpl_escape's five entities). */
static char *
unescape(const char *at, const char *end)
{
	static const char *const ents[][2] = { { "&amp;", "&" },
	    { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
	    { "&#39;", "'" } };
	char *out = calloc(1, (size_t)(end - at) + 1), *w = out;

	ck_assert_ptr_nonnull(out);
	while (at < end) {
		size_t i, n = sizeof ents / sizeof ents[0];

		for (i = 0; i < n; i++)
			if (strncmp(at, ents[i][0], strlen(ents[i][0])) == 0)
				break;
		if (i < n) {
			*w++ = ents[i][1][0];
			at += strlen(ents[i][0]);
		} else
			*w++ = *at++;
	}
	return out;
}

/* The texts the script gets, from the page's data-text attribute. */
static json_t *
texts_of(const char *html)
{
	const char *at = strstr(html, "data-text=\""), *end;
	char *s;
	json_t *j;

	ck_assert_ptr_nonnull(at);
	at += strlen("data-text=\"");
	end = strchr(at, '"');
	ck_assert_ptr_nonnull(end);
	s = unescape(at, end);
	j = json_loads(s, 0, NULL);
	free(s);
	ck_assert_msg(j != NULL, "data-text is JSON");
	return j;
}

START_TEST(test_languages)
{
	char *en = render(LANG_EN), *ko = render(LANG_KO);
	json_t *te = texts_of(en), *tk = texts_of(ko);
	const char *key;
	json_t *v;

	ck_assert_ptr_nonnull(strstr(en, "<html lang=\"en\">"));
	ck_assert_ptr_nonnull(strstr(ko, "<html lang=\"ko\">"));
	ck_assert_ptr_nonnull(strstr(ko, "<title>waitroom 콘솔</title>"));
	ck_assert_ptr_null(strstr(en, "{{"));
	/* every text in both languages, none empty */
	ck_assert_uint_eq(json_object_size(te), json_object_size(tk));
	json_object_foreach(te, key, v) {
		json_t *k = json_object_get(tk, key);

		ck_assert_msg(k != NULL, "%s has a Korean text", key);
		ck_assert_msg(json_string_length(v) > 0 &&
		    json_string_length(k) > 0, "%s is not empty", key);
	}
	json_decref(te);
	json_decref(tk);
	free(en);
	free(ko);
}
END_TEST

START_TEST(test_files)
{
	const struct page_file *f = console_file("console.js");

	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->type, "text/javascript; charset=utf-8");
	ck_assert_ptr_nonnull(console_file("console.css"));
	ck_assert_ptr_null(console_file("console.html"));
	ck_assert_ptr_null(console_file("waitroom.js"));
	ck_assert_ptr_null(console_file("nope.js"));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("console");
	TCase *tc = tcase_create("console");

	tcase_add_test(tc, test_languages);
	tcase_add_test(tc, test_files);
	suite_add_tcase(s, tc);
	console_free(NULL);
	return unit_run(s);
}
