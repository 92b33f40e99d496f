/* check_reply.c: the JSON bodies of API.md. */
#include <stdlib.h>
#include <string.h>

#include "reply.h"
#include "unit.h"

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
		.active_until = 1763800000, .redirect = "https://x.example/",
	};
	json_t *j = reply_status(&st);

	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(str_of(j, "queue"), "concert");
	ck_assert_str_eq(str_of(j, "token"), T);
	ck_assert_str_eq(str_of(j, "status"), "waiting");
	ck_assert_int_eq(int_of(j, "position"), 1234);
	ck_assert_int_eq(int_of(j, "ahead"), 1233);
	ck_assert_int_eq(int_of(j, "waiting"), 50210);
	ck_assert_int_eq(int_of(j, "eta_seconds"), 90);
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
	json_t *j = reply_status(&st);
	json_t *eta;

	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(int_of(j, "ahead"), 0);
	eta = json_object_get(j, "eta_seconds");
	ck_assert_ptr_nonnull(eta);
	ck_assert(json_is_null(eta));
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
	json_t *j = reply_status(&st);

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
	json_t *j = reply_status(&st);

	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(str_of(j, "status"), "active");
	ck_assert_int_eq(int_of(j, "active_until"), 1763800300);
	ck_assert_ptr_null(json_object_get(j, "redirect"));
	json_decref(j);
}
END_TEST

START_TEST(test_dump_round_trip)
{
	struct token_status st = {
		.queue = "q", .token = T, .active = 0, .position = 3,
		.waiting = 9, .eta_seconds = 20,
	};
	json_t *j = reply_status(&st), *back;
	char *s;

	ck_assert_ptr_nonnull(j);
	ck_assert_ptr_nonnull(s = reply_dump(j));
	ck_assert_ptr_null(strchr(s, '\n'));
	back = parse(s);
	ck_assert(json_equal(j, back));
	json_decref(back);
	json_decref(j);
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
	tcase_add_test(tc, test_status_waiting);
	tcase_add_test(tc, test_status_waiting_no_eta);
	tcase_add_test(tc, test_status_active);
	tcase_add_test(tc, test_status_active_no_redirect);
	tcase_add_test(tc, test_dump_round_trip);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
