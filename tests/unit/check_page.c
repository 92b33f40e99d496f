/* check_page.c: the built-in page rendered from a view, and templates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "conf.h"
#include "page.h"
#include "unit.h"

#define T "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21"

static char *
render_view(struct page_view *v)
{
	struct conf c;
	char err[CONF_ERR_MAX];
	struct pages *p;
	size_t len;
	char *html;

	conf_init(&c);
	p = pages_new(&c, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	html = pages_render(p, v->queue, v, &len);
	ck_assert_ptr_nonnull(html);
	ck_assert_uint_eq(len, strlen(html));
	pages_free(p);
	conf_free(&c);
	return html;
}

static void
view(struct page_view *v, const char *state)
{
	memset(v, 0, sizeof *v);
	v->queue = "concert";
	v->state = state;
	v->token = "";
	v->position = v->waiting = v->eta = -1;
}

START_TEST(test_waiting)
{
	struct page_view v;
	char *h;

	view(&v, "waiting");
	v.token = T, v.position = 12, v.waiting = 40, v.eta = 180;
	v.refresh = 5;
	h = render_view(&v);
	ck_assert_ptr_nonnull(strstr(h, "<html lang=\"en\">"));
	ck_assert_ptr_nonnull(strstr(h, "data-state=\"waiting\""));
	ck_assert_ptr_nonnull(strstr(h, "data-token=\"" T "\""));
	ck_assert_ptr_nonnull(strstr(h, ">12</span>"));
	ck_assert_ptr_nonnull(strstr(h, "id=\"wr-ahead\">11<"));
	ck_assert_ptr_nonnull(strstr(h, "id=\"wr-waiting\">40<"));
	ck_assert_ptr_nonnull(strstr(h, "about 3 minutes"));
	ck_assert_ptr_nonnull(strstr(h, "content=\"5\""));
	/* the texts for the script, as JSON escaped into an attribute */
	ck_assert_ptr_nonnull(strstr(h, "data-text=\"{&quot;title&quot;:"));
	ck_assert_ptr_null(strstr(h, "{{"));
	free(h);
}
END_TEST

START_TEST(test_active_korean)
{
	struct page_view v;
	char *h;

	view(&v, "active");
	v.lang = LANG_KO;
	v.token = T;
	v.redirect = "https://shop.example/?a=1&b=\"2\"";
	h = render_view(&v);
	ck_assert_ptr_nonnull(strstr(h, "<html lang=\"ko\">"));
	ck_assert_ptr_nonnull(strstr(h, "차례가 되었습니다"));
	ck_assert_ptr_nonnull(strstr(h, "content=\"0; url=https://shop.example/"
	    "?a=1&amp;b=&quot;2&quot;\""));
	ck_assert_ptr_null(strstr(h, "b=\"2\""));
	free(h);
}
END_TEST

START_TEST(test_redirect_url)
{
	char *u;

	u = page_redirect_url("https://s.example/in", T);
	ck_assert_str_eq(u, "https://s.example/in?waitroom_token=" T);
	free(u);
	u = page_redirect_url("https://s.example/in?x=1#top", T);
	ck_assert_str_eq(u, "https://s.example/in?x=1&waitroom_token=" T "#top");
	free(u);
	u = page_redirect_url("/shop#a?b", T);
	ck_assert_str_eq(u, "/shop?waitroom_token=" T "#a?b");
	free(u);
}
END_TEST

START_TEST(test_template_file)
{
	char path[] = "/tmp/check_page.XXXXXX", err[CONF_ERR_MAX];
	int fd = mkstemp(path);
	struct conf c;
	struct pages *p;
	struct page_view v;
	size_t len;
	char *h;

	ck_assert_int_ge(fd, 0);
	dprintf(fd, "<b>{{t_title}}</b> {{queue}} {{position}}\n{{nope}}\n");
	close(fd);
	conf_init(&c);
	ck_assert_int_eq(conf_global_set(&c, "page_template", path, err,
	    sizeof err), 0);
	ck_assert_ptr_null(pages_new(&c, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_ptr_nonnull(strstr(err, "line 2: unknown placeholder "
	    "'{{nope}}'"));
	fd = open(path, O_WRONLY | O_TRUNC);
	dprintf(fd, "<b>{{t_title}}</b> {{queue}} {{position}}\n");
	close(fd);
	p = pages_new(&c, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	view(&v, "waiting");
	v.position = 7;
	h = pages_render(p, "concert", &v, &len);
	ck_assert_str_eq(h, "<b>Waiting room</b> concert 7\n");
	free(h);
	pages_free(p);
	conf_free(&c);
	unlink(path);
}
END_TEST

START_TEST(test_placeholders)
{
	const char *s = page_placeholders();

	ck_assert_ptr_nonnull(strstr(s, "lang, queue, state, token"));
	ck_assert_ptr_nonnull(strstr(s, "t_title"));
	ck_assert_ptr_nonnull(page_file("waitroom.js"));
	ck_assert_ptr_null(page_file("nope.js"));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("page");
	TCase *tc = tcase_create("page");

	tcase_add_test(tc, test_waiting);
	tcase_add_test(tc, test_active_korean);
	tcase_add_test(tc, test_redirect_url);
	tcase_add_test(tc, test_template_file);
	tcase_add_test(tc, test_placeholders);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
