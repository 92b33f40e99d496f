/* check_refusal.c: evhttp's own HTML answers become doc/api.md's JSON
 * errors; other bytes are left as they are. */
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "refusal.h"
#include "unit.h"

/* out holds before, then evhttp writes page: the answer as it leaves. */
static char *
answer(const char *before, const char *page, int *rewritten)
{
	struct evbuffer *out = evbuffer_new();
	struct refusal r;
	size_t from, n;
	char *s;

	ck_assert_ptr_nonnull(out);
	evbuffer_add(out, before, strlen(before));
	from = evbuffer_get_length(out);
	evbuffer_add(out, page, strlen(page));
	*rewritten = refusal_read(out, from, 4096, &r) == 0;
	if (*rewritten) {
		refusal_put(out, &r);
		/* the rest of evhttp's page is dropped */
		ck_assert_int_eq(evbuffer_add(out, "<rest>", 6), -1);
	}
	/* as bufferevent_socket does to write */
	evbuffer_unfreeze(out, 1);
	n = evbuffer_get_length(out);
	s = calloc(1, n + 1);
	ck_assert_ptr_nonnull(s);
	evbuffer_remove(out, s, n);
	evbuffer_free(out);
	return s;
}

START_TEST(test_too_large)
{
	int done;
	char *s = answer("", "HTTP/1.1 413 Payload Too Large\r\n"
	    "Content-Type: text/html\r\n\r\n<HTML>", &done);

	ck_assert(done);
	ck_assert_ptr_eq(strstr(s, "HTTP/1.1 413 Payload Too Large\r\n"), s);
	ck_assert_ptr_nonnull(strstr(s, "Content-Type: application/json\r\n"));
	ck_assert_ptr_nonnull(strstr(s, "Connection: close\r\n"));
	ck_assert_ptr_nonnull(strstr(s, "\"body_too_large\""));
	ck_assert_ptr_nonnull(strstr(s, "at most 4096 bytes"));
	ck_assert_ptr_null(strstr(s, "<HTML>"));
	free(s);
}
END_TEST

START_TEST(test_bad_head)
{
	int done;
	char *s = answer("", "HTTP/1.0 400 Bad Request\r\n\r\n<HTML>", &done);
	const char *body;
	char len[48];

	ck_assert(done);
	ck_assert_ptr_eq(strstr(s, "HTTP/1.0 400 Bad Request\r\n"), s);
	ck_assert_ptr_nonnull(strstr(s, "\"bad_request\""));
	/* Content-Length counts the body exactly */
	body = strstr(s, "\r\n\r\n") + 4;
	snprintf(len, sizeof len, "Content-Length: %zu\r\n", strlen(body));
	ck_assert_ptr_nonnull(strstr(s, len));
	free(s);
}
END_TEST

START_TEST(test_expect)
{
	int done;
	char *s = answer("", "HTTP/1.1 417 Expectation Failed\r\n\r\n", &done);

	ck_assert(done);
	ck_assert_ptr_nonnull(strstr(s, "\"expectation_failed\""));
	free(s);
}
END_TEST

START_TEST(test_left_alone)
{
	int done;
	char *s = answer("", "HTTP/1.1 100 Continue\r\n\r\n", &done);

	ck_assert(!done);
	ck_assert_str_eq(s, "HTTP/1.1 100 Continue\r\n\r\n");
	free(s);
	/* not a status line: a piece of something else */
	s = answer("HTTP/1.1 200 OK\r\n", "Content-Length: 2\r\n", &done);
	ck_assert(!done);
	free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("refusal");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_too_large);
	tcase_add_test(tc, test_bad_head);
	tcase_add_test(tc, test_expect);
	tcase_add_test(tc, test_left_alone);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
