/*
 * check_sse_frame.c: Server-Sent Events framing: an event's lines, data
 * split at every kind of line break, names that would break a frame
 * refused, and the retry hint.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sse_frame.h"
#include "unit.h"

/* The frame of (id, event, data), checked against want. */
static void
frame_is(unsigned long id, const char *event, const char *data,
    const char *want)
{
	size_t len = 0;
	char *f = sse_frame_event(id, event, data, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(len, strlen(want));
	ck_assert_mem_eq(f, want, len);
	free(f);
}

START_TEST(test_event)
{
	frame_is(7, "status", "{\"position\":3}",
	    "id: 7\nevent: status\ndata: {\"position\":3}\n\n");
	frame_is(0, "entered", "", "id: 0\nevent: entered\ndata: \n\n");
	frame_is(ULONG_MAX, "gone", "x",
	    "id: 18446744073709551615\nevent: gone\ndata: x\n\n");
}
END_TEST

START_TEST(test_data_lines)
{
	/* LF, CRLF and a lone CR each end a line; none reaches the wire */
	frame_is(1, "e", "a\nb\r\nc\rd",
	    "id: 1\nevent: e\ndata: a\ndata: b\ndata: c\ndata: d\n\n");
	frame_is(1, "e", "a\n", "id: 1\nevent: e\ndata: a\ndata: \n\n");
	frame_is(1, "e", "\n\n", "id: 1\nevent: e\ndata: \ndata: \ndata: \n\n");
	frame_is(1, "e", "\r\r\n", "id: 1\nevent: e\ndata: \ndata: \ndata: \n\n");
}
END_TEST

START_TEST(test_many_breaks)
{
	char data[2001];
	size_t len = 0;
	char *f;

	/* the frame's size is worked out before it is written */
	memset(data, '\r', 2000);
	data[2000] = '\0';
	ck_assert_ptr_nonnull(f = sse_frame_event(42, "status", data, &len));
	ck_assert_uint_eq(len, strlen("id: 42\nevent: status\n") +
	    2001 * strlen("data: \n") + 1);
	ck_assert(memcmp(f + len - 9, "\ndata: \n\n", 9) == 0);
	free(f);
}
END_TEST

START_TEST(test_bad_event)
{
	size_t len = 99;

	ck_assert_ptr_null(sse_frame_event(1, "", "x", &len));
	ck_assert_ptr_null(sse_frame_event(1, "a\nid: 9", "x", &len));
	ck_assert_ptr_null(sse_frame_event(1, "a\rb", "x", &len));
	ck_assert_ptr_null(sse_frame_event(1, "\n", "x", &len));
}
END_TEST

START_TEST(test_retry)
{
	char buf[32];

	ck_assert_uint_eq(sse_frame_retry(buf, sizeof buf, 30000), 14);
	ck_assert_str_eq(buf, "retry: 30000\n\n");
	/* 14 bytes and the NUL: 15 fit, 14 do not */
	ck_assert_uint_eq(sse_frame_retry(buf, 15, 30000), 14);
	ck_assert_uint_eq(sse_frame_retry(buf, 14, 30000), 0);
	ck_assert_uint_eq(sse_frame_retry(buf, 0, 30000), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sse_frame");
	TCase *tc = tcase_create("sse_frame");

	tcase_add_test(tc, test_event);
	tcase_add_test(tc, test_data_lines);
	tcase_add_test(tc, test_many_breaks);
	tcase_add_test(tc, test_bad_event);
	tcase_add_test(tc, test_retry);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
