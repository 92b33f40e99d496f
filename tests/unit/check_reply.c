/* check_reply.c: the JSON bodies of API.md. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reply.h"
#include "unit.h"

#define PASS_LEN 1023
#define T "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21"

static json_t *
parse(const char *s)
{
	json_error_t e;
	json_t *j = json_loads(s, 0, &e);

	ck_assert_msg(j != NULL, "not JSON: %s: %s", s, e.text);
	return j;
}

static json_int_t
int_of(const json_t *j, const char *key)
{
	json_t *v = json_object_get(j, key);

	ck_assert_msg(json_is_integer(v), "'%s' is not an integer", key);
	return json_integer_value(v);
}

static const char *
str_of(const json_t *j, const char *key)
{
	json_t *v = json_object_get(j, key);

	ck_assert_msg(json_is_string(v), "'%s' is not a string", key);
	return json_string_value(v);
}

/* The data of a `gone` event: the three fields, nothing else. */
START_TEST(test_gone_body)
{
	char *s = reply_gone_body("concert", T, "expired");
	json_t *j;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_null(strchr(s, '\n'));
	j = parse(s);
	ck_assert_uint_eq(json_object_size(j), 3);
	ck_assert_str_eq(str_of(j, "queue"), "concert");
	ck_assert_str_eq(str_of(j, "token"), T);
	ck_assert_str_eq(str_of(j, "reason"), "expired");
	json_decref(j);
	free(s);
}
END_TEST

/* The status object as a client reads it: one line of JSON. */
static json_t *
status_of(const struct token_status *st)
{
	char *s = reply_status_text(st);
	json_t *j;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_null(strchr(s, '\n'));
	j = parse(s);
	free(s);
	return j;
}

START_TEST(test_error_body)
{
	char *s = reply_error_body("x", "y");
	json_t *got, *want;

	ck_assert_ptr_nonnull(s);
	got = parse(s);
	want = parse("{\"error\":{\"code\":\"x\",\"message\":\"y\"}}");
	ck_assert_msg(json_equal(got, want), "got %s", s);
	json_decref(got);
	json_decref(want);
	free(s);
}
END_TEST

/* libevent's own refusals, as API.md's errors: the status, the code. */
static const struct {
	int status, sent;
	const char *code, *says;
} refusals[] = {
	{ 413, 413, "body_too_large", "at most 4096 bytes" },
	{ 417, 417, "expectation_failed", "100-continue" },
	{ 400, 400, "bad_request", "Content-Length beside Transfer-Encoding" },
	{ 501, 400, "bad_request", "could not be read" },	/* any other */
	{ 0, 400, "bad_request", "could not be read" },
};

START_TEST(test_refusal_body)
{
	int status = refusals[_i].status;
	char *s = reply_refusal_body(&status, 4096);
	json_t *j, *err;

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(status, refusals[_i].sent);
	j = parse(s);
	err = json_object_get(j, "error");
	ck_assert_str_eq(str_of(err, "code"), refusals[_i].code);
	ck_assert_msg(strstr(str_of(err, "message"), refusals[_i].says),
	    "'%s' does not say '%s'", str_of(err, "message"),
	    refusals[_i].says);
	json_decref(j);
	free(s);
}
END_TEST

START_TEST(test_error_body_escapes)
{
	char *s = reply_error_body("queue_not_found",
	    "no queue named 'a\"b\\c'\n");
	json_t *j, *err;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(strstr(s, "a\\\"b\\\\c"));
	ck_assert_ptr_null(strchr(s, '\n'));
	j = parse(s);
	ck_assert_uint_eq(json_object_size(j), 1);
	err = json_object_get(j, "error");
	ck_assert_uint_eq(json_object_size(err), 2);
	ck_assert_str_eq(str_of(err, "code"), "queue_not_found");
	ck_assert_str_eq(str_of(err, "message"), "no queue named 'a\"b\\c'\n");
	json_decref(j);
	free(s);
}
END_TEST

START_TEST(test_status_waiting)
{
	struct token_status st = {
		.queue = "concert", .token = T, .active = 0,
		.position = 1234, .waiting = 50210, .eta_seconds = 90,
		.eta_low = 75, .eta_high = 103,
		.active_until = 1763800000, .redirect = "https://x.example/",
	};
	json_t *j = status_of(&st);
	json_t *range;

	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(str_of(j, "queue"), "concert");
	ck_assert_str_eq(str_of(j, "token"), T);
	ck_assert_str_eq(str_of(j, "status"), "waiting");
	ck_assert_int_eq(int_of(j, "position"), 1234);
	ck_assert_int_eq(int_of(j, "ahead"), 1233);
	ck_assert_int_eq(int_of(j, "waiting"), 50210);
	ck_assert_int_eq(int_of(j, "eta_seconds"), 90);
	range = json_object_get(j, "eta_range");
	ck_assert(json_is_array(range) && json_array_size(range) == 2);
	ck_assert_int_eq(json_integer_value(json_array_get(range, 0)), 75);
	ck_assert_int_eq(json_integer_value(json_array_get(range, 1)), 103);
	ck_assert_ptr_null(json_object_get(j, "active_until"));
	ck_assert_ptr_null(json_object_get(j, "redirect"));
	json_decref(j);
}
END_TEST

START_TEST(test_status_waiting_no_eta)
{
	struct token_status st = {
		.queue = "q", .token = T, .active = 0, .position = 1,
		.waiting = 1, .eta_seconds = -1,
	};
	json_t *j = status_of(&st);
	json_t *eta;

	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(int_of(j, "ahead"), 0);
	eta = json_object_get(j, "eta_seconds");
	ck_assert_ptr_nonnull(eta);
	ck_assert(json_is_null(eta));
	ck_assert_ptr_null(json_object_get(j, "eta_range"));
	json_decref(j);
}
END_TEST

START_TEST(test_status_active)
{
	struct token_status st = {
		.queue = "concert", .token = T, .active = 1, .position = 5,
		.waiting = 7, .eta_seconds = 3, .active_until = 1763800000,
		.redirect = "https://shop.example/concert",
	};
	json_t *j = status_of(&st);

	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(str_of(j, "queue"), "concert");
	ck_assert_str_eq(str_of(j, "token"), T);
	ck_assert_str_eq(str_of(j, "status"), "active");
	ck_assert_int_eq(int_of(j, "active_until"), 1763800000);
	ck_assert_str_eq(str_of(j, "redirect"),
	    "https://shop.example/concert");
	ck_assert_ptr_null(json_object_get(j, "position"));
	ck_assert_ptr_null(json_object_get(j, "ahead"));
	ck_assert_ptr_null(json_object_get(j, "eta_seconds"));
	json_decref(j);
}
END_TEST

START_TEST(test_status_active_no_redirect)
{
	struct token_status st = {
		.queue = "q", .token = T, .active = 1,
		.active_until = 1763800300, .redirect = NULL,
	};
	json_t *j = status_of(&st);

	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(str_of(j, "status"), "active");
	ck_assert_int_eq(int_of(j, "active_until"), 1763800300);
	ck_assert_ptr_null(json_object_get(j, "redirect"));
	json_decref(j);
}
END_TEST

/* Awaiting the draw: exactly doc/api.md's prequeue object, from a
 * standing as the scripts report it (the ticket computed from the token). */
START_TEST(test_status_prequeue)
{
	struct standing s;
	struct token_status st;
	char *text;

	memset(&s, 0, sizeof s);
	snprintf(s.token, sizeof s.token, "%s",
	    "0b7c1a2e-3f4d-4c5b-8a6e-7f8091a2b3c4");
	s.prequeue = 1, s.n = 300, s.opens_at = 1796119200;
	s.q.now_ms = 1796119100000LL, s.q.waiting_ttl = 120;
	standing_status(&s, "sale", 3, &st);
	text = reply_status_text(&st);
	/* 100 s to the opening: a tenth of it */
	ck_assert_str_eq(text, "{\"queue\":\"sale\",\"token\":"
	    "\"0b7c1a2e-3f4d-4c5b-8a6e-7f8091a2b3c4\",\"status\":\"prequeue\","
	    "\"opens_at\":1796119200,\"entrants\":300,"
	    "\"ticket\":\"5009e8b2339af9d79f565d558a577994\","
	    "\"poll_after\":10}");
	free(text);
}
END_TEST

/*
 * The status object as jansson would write it: the oracle for the text
 * reply_status_text writes by hand.
 */
static char *
status_by_jansson(const struct token_status *st)
{
	json_t *j = json_pack("{s:s,s:s,s:s,s:I}", "queue", st->queue,
	    "token", st->token, "status", st->active ? "active" : "waiting",
	    "waiting", (json_int_t)st->waiting);
	char *s;

	ck_assert_ptr_nonnull(j);
	if (st->active) {
		json_object_set_new(j, "active_until",
		    json_integer(st->active_until));
		if (st->redirect)
			json_object_set_new(j, "redirect",
			    json_string(st->redirect));
		if (st->pass)
			json_object_set_new(j, "pass", json_string(st->pass));
	} else {
		json_object_set_new(j, "position", json_integer(st->position));
		json_object_set_new(j, "ahead",
		    json_integer(st->position - 1));
		json_object_set_new(j, "eta_seconds", st->eta_seconds < 0 ?
		    json_null() : json_integer(st->eta_seconds));
		if (st->eta_seconds >= 0)
			json_object_set_new(j, "eta_range", json_pack("[I,I]",
			    (json_int_t)st->eta_low, (json_int_t)st->eta_high));
	}
	json_object_set_new(j, "poll_after", json_integer(st->poll_after));
	if (st->notice)
		json_object_set_new(j, "notice", json_string(st->notice));
	s = reply_dump(j);
	json_decref(j);
	return s;
}

static void
same_as_jansson(const struct token_status *st)
{
	char *got = reply_status_text(st), *want = status_by_jansson(st);

	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_nonnull(want);
	ck_assert_str_eq(got, want);
	free(got);
	free(want);
}

/* Every escape jansson makes: quotes, controls, non-ASCII, astral planes. */
static const char *const odd_text[] = {
	"/shop?a=\"b\"&c=d\\e",
	"tab\there\r\nnew\bline\fform\x01\x1f\x7f",
	"caf\xc3\xa9 \xe2\x82\xac \xed\x9f\xbf \xef\xbf\xbd",
	"\xf0\x9f\x8e\xab tickets \xf4\x8f\xbf\xbf",
	"",
};

START_TEST(test_status_text_is_janssons)
{
	struct token_status st = {
		.queue = "q", .token = T, .position = 1, .waiting = 1,
		.eta_seconds = -1,
	};
	size_t i;

	same_as_jansson(&st);
	st.position = LLONG_MAX, st.waiting = LLONG_MAX;
	st.eta_seconds = LLONG_MAX;
	st.eta_low = LLONG_MAX - 1, st.eta_high = LLONG_MAX;
	st.poll_after = LONG_MAX;
	same_as_jansson(&st);
	st.position = 0, st.waiting = 0, st.eta_seconds = 0;
	st.poll_after = 3;
	same_as_jansson(&st);
	st.active = 1, st.active_until = LLONG_MIN;
	same_as_jansson(&st);
	for (i = 0; i < sizeof odd_text / sizeof odd_text[0]; i++) {
		st.redirect = odd_text[i];
		st.pass = odd_text[(i + 1) % 5];
		st.notice = odd_text[(i + 2) % 5];
		st.active_until = 1763800000 + (long long)i;
		same_as_jansson(&st);
	}
}
END_TEST

/* Bytes that are not UTF-8 become U+FFFD; the text stays JSON. */
START_TEST(test_status_text_bad_utf8)
{
	struct token_status st = {
		.queue = "q", .token = T, .active = 1, .active_until = 1,
		.redirect = "/a\xff\xc3(\xed\xa0\x80\xf0\x9f\x8e",
	};
	char *s = reply_status_text(&st);
	json_t *j;

	ck_assert_ptr_nonnull(s);
	j = parse(s);
	ck_assert_str_eq(str_of(j, "redirect"), "/a\xef\xbf\xbd\xef\xbf\xbd("
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	    "\xef\xbf\xbd");
	json_decref(j);
	free(s);
}
END_TEST

/* The longest inputs, each byte at its costliest escape, fit. */
START_TEST(test_status_text_worst_case)
{
	static const char bare[] = "{\"queue\":\"q\",\"token\":\"" T "\","
	    "\"status\":\"active\",\"waiting\":-9223372036854775808,"
	    "\"active_until\":-9223372036854775808,\"redirect\":\"\","
	    "\"pass\":\"\",\"poll_after\":-9223372036854775808,"
	    "\"notice\":\"\"}";
	static char redirect[4097], pass[PASS_LEN + 1];
	static char notice[280 * 4 + 1];	/* NOTICE_BYTES_MAX */
	struct token_status st = {
		.queue = "q", .token = T, .active = 1, .waiting = LLONG_MIN,
		.active_until = LLONG_MIN, .redirect = redirect, .pass = pass,
		.notice = notice, .poll_after = LONG_MIN,
	};
	char *s;

	memset(redirect, 0x01, sizeof redirect - 1);
	memset(pass, 0xff, sizeof pass - 1);
	memset(notice, 0xff, sizeof notice - 1);
	s = reply_status_text(&st);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(strlen(s), sizeof bare - 1 +
	    6 * (sizeof redirect - 1) + 6 * (sizeof pass - 1) +
	    6 * (sizeof notice - 1));
	free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("reply");
	TCase *tc = tcase_create("reply");

	tcase_add_test(tc, test_error_body);
	tcase_add_test(tc, test_error_body_escapes);
	tcase_add_loop_test(tc, test_refusal_body, 0,
	    sizeof refusals / sizeof refusals[0]);
	tcase_add_test(tc, test_gone_body);
	tcase_add_test(tc, test_status_waiting);
	tcase_add_test(tc, test_status_waiting_no_eta);
	tcase_add_test(tc, test_status_active);
	tcase_add_test(tc, test_status_active_no_redirect);
	tcase_add_test(tc, test_status_prequeue);
	tcase_add_test(tc, test_status_text_is_janssons);
	tcase_add_test(tc, test_status_text_bad_utf8);
	tcase_add_test(tc, test_status_text_worst_case);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
