/* check_route.c: which endpoint a method and path name. */
#include <string.h>

#include "route.h"
#include "unit.h"

#define T "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21"

static struct route_match m;

START_TEST(test_health)
{
	ck_assert_int_eq(route_match(RM_GET, "/healthz", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_HEALTHZ);
	ck_assert_int_eq(route_match(RM_GET, "/readyz", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_READYZ);
}
END_TEST

START_TEST(test_queue)
{
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/concert", &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_QUEUE);
	ck_assert_int_eq(m.method, RM_GET);
	ck_assert_str_eq(m.queue, "concert");
}
END_TEST

START_TEST(test_tokens)
{
	ck_assert_int_eq(route_match(RM_POST, "/v1/queues/q/tokens", &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_TOKENS);
	ck_assert_int_eq(m.method, RM_POST);
	ck_assert_str_eq(m.queue, "q");
}
END_TEST

START_TEST(test_token)
{
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/q/tokens/" T, &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_TOKEN);
	ck_assert_str_eq(m.queue, "q");
	ck_assert_str_eq(m.token, T);
	ck_assert_int_eq(route_match(RM_DELETE, "/v1/queues/q/tokens/" T, &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_TOKEN);
	ck_assert_int_eq(m.method, RM_DELETE);
	ck_assert_str_eq(m.token, T);
}
END_TEST

START_TEST(test_events)
{
	ck_assert_int_eq(route_match(RM_GET,
	    "/v1/queues/A_b-9/tokens/" T "/events", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_EVENTS);
	ck_assert_str_eq(m.queue, "A_b-9");
	ck_assert_str_eq(m.token, T);
}
END_TEST

START_TEST(test_check)
{
	ck_assert_int_eq(route_match(RM_GET, "/v1/check", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_CHECK);
	ck_assert_int_eq(route_match(RM_POST, "/v1/check", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "GET, HEAD");
	ck_assert_int_eq(route_match(RM_GET, "/v1/check/", &m),
	    ROUTE_NOT_FOUND);
}
END_TEST

static const char *const not_found[] = {
	"/", "", "/v1", "/v1/", "/v1/queues", "/v1/queues/",
	"/v1/queues/q/", "/v1/queues/q/x", "/v1/queues/q/tokens/",
	"/v1/queues/q/tokens/" T "/", "/v1/queues/q/tokens/" T "/x",
	"/v1/queues/q/tokens/" T "/events/", "/v1/queues/q/tokens/" T
	"/events/x", "/healthz/", "/healthzx", "/readyz/x", "/v2/queues/q",
	"/V1/queues/q", "//healthz", "/v1//queues/q", "healthz",
	"/v1/queues/q/tokensx",
};

START_TEST(test_not_found)
{
	ck_assert_msg(route_match(RM_GET, not_found[_i], &m) ==
	    ROUTE_NOT_FOUND, "GET '%s' is not 404", not_found[_i]);
}
END_TEST

START_TEST(test_bad_method)
{
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/q/tokens", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "POST");
	ck_assert_int_eq(route_match(RM_PUT, "/v1/queues/q/tokens/" T, &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "GET, HEAD, DELETE");
	ck_assert_int_eq(route_match(RM_POST, "/v1/queues/q/tokens/" T, &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "GET, HEAD, DELETE");
	ck_assert_int_eq(route_match(RM_DELETE, "/v1/queues/q/tokens/" T
	    "/events", &m), ROUTE_BAD_METHOD);
	ck_assert_int_eq(route_match(RM_POST, "/v1/queues/q", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_int_eq(route_match(RM_POST, "/healthz", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_int_eq(route_match(RM_OTHER, "/v1/queues/q/tokens", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "POST");
}
END_TEST

/* HEAD is GET without the body: the handler is GET's, told it is GET. */
START_TEST(test_head)
{
	ck_assert_int_eq(route_match(RM_HEAD, "/healthz", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_HEALTHZ);
	ck_assert_int_eq(m.method, RM_GET);
	ck_assert_int_eq(route_match(RM_HEAD, "/v1/queues/q/tokens/" T, &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.method, RM_GET);	/* never its DELETE */
	ck_assert_int_eq(route_match(RM_HEAD, "/v1/admin/queues/q", &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.method, RM_GET);	/* never its DELETE */
	ck_assert_int_eq(route_match(RM_HEAD, "/v1/queues/q/tokens/" T
	    "/events", &m), ROUTE_OK);
	ck_assert_int_eq(route_match(RM_HEAD, "/v1/queues/q/tokens", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_int_eq(m.method, RM_HEAD);
	ck_assert_str_eq(m.allow, "POST");
	ck_assert_int_eq(route_match(RM_POST, "/healthz", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "GET, HEAD");
	ck_assert_int_eq(route_match(RM_DELETE, "/q/concert", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "GET, HEAD, POST");
}
END_TEST

START_TEST(test_bad_queue)
{
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/bad!id", &m),
	    ROUTE_BAD_QUEUE);
	ck_assert_int_eq(route_match(RM_POST, "/v1/queues/a.b/tokens", &m),
	    ROUTE_BAD_QUEUE);
	/* 65 characters: one too many */
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/aaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", &m),
	    ROUTE_BAD_QUEUE);
	/* 64 are fine */
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/aaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", &m), ROUTE_OK);
	ck_assert_uint_eq(strlen(m.queue), 64);
}
END_TEST

START_TEST(test_bad_token)
{
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/q/tokens/not-a-uuid",
	    &m), ROUTE_BAD_TOKEN);
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/q/tokens/"
	    "0B7C5F4E-3D2A-4C1B-9A8F-7E6D5C4B3A21", &m), ROUTE_BAD_TOKEN);
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/q/tokens/"
	    "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21ff", &m), ROUTE_BAD_TOKEN);
	ck_assert_int_eq(route_match(RM_GET, "/v1/queues/q/tokens/"
	    "not-a-uuid/events", &m), ROUTE_BAD_TOKEN);
}
END_TEST

START_TEST(test_page)
{
	ck_assert_int_eq(route_match(RM_GET, "/q/concert", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_PAGE);
	ck_assert_str_eq(m.queue, "concert");
	ck_assert_int_eq(route_match(RM_POST, "/q/concert", &m), ROUTE_OK);
	ck_assert_int_eq(route_match(RM_DELETE, "/q/concert", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_int_eq(route_match(RM_GET, "/q/bad!", &m), ROUTE_BAD_QUEUE);
	ck_assert_int_eq(route_match(RM_GET, "/assets/waitroom.js", &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_ASSET);
	ck_assert_str_eq(m.file, "waitroom.js");
	ck_assert_int_eq(route_match(RM_GET, "/assets/"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	    &m), ROUTE_NOT_FOUND);
}
END_TEST

START_TEST(test_admin)
{
	ck_assert_int_eq(route_match(RM_GET, "/v1/admin/queues", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_ADMIN_QUEUES);
	ck_assert_int_eq(route_match(RM_PUT, "/v1/admin/queues/concert", &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_ADMIN_QUEUE);
	ck_assert_str_eq(m.queue, "concert");
	ck_assert_int_eq(route_match(RM_POST, "/v1/admin/queues/q/pause", &m),
	    ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_ADMIN_PAUSE);
	ck_assert_int_eq(route_match(RM_POST, "/v1/admin/queues/q/promote",
	    &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_ADMIN_PROMOTE);
	ck_assert_int_eq(route_match(RM_GET, "/v1/admin/queues/q/pause", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "POST");
	ck_assert_int_eq(route_match(RM_POST, "/v1/admin/queues/q", &m),
	    ROUTE_BAD_METHOD);
	ck_assert_str_eq(m.allow, "GET, HEAD, PUT, DELETE");
	ck_assert_int_eq(route_match(RM_DELETE, "/v1/admin/queues/q/tokens/"
	    "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_ADMIN_TOKEN);
	ck_assert_int_eq(route_match(RM_POST, "/v1/admin/queues/q/explode", &m),
	    ROUTE_NOT_FOUND);
	ck_assert_int_eq(route_match(RM_GET, "/metrics", &m), ROUTE_OK);
	ck_assert_int_eq(m.id, ROUTE_METRICS);
}
END_TEST

START_TEST(test_admin_prefix)
{
	ck_assert_int_eq(route_is_admin("/v1/admin"), 1);
	ck_assert_int_eq(route_is_admin("/v1/admin/"), 1);
	ck_assert_int_eq(route_is_admin("/v1/admin/queues/x/y/z"), 1);
	ck_assert_int_eq(route_is_admin("/v1/administrator"), 0);
	ck_assert_int_eq(route_is_admin("/v1/queues/admin"), 0);
	ck_assert_int_eq(route_is_admin("/metrics"), 0);
	ck_assert_int_eq(route_is_admin("/admin"), 0);
}
END_TEST

START_TEST(test_console_prefix)
{
	ck_assert_int_eq(route_is_console("/admin"), 1);
	ck_assert_int_eq(route_is_console("/admin/assets/console.js"), 1);
	ck_assert_int_eq(route_is_console("/admin/"), 1);
	ck_assert_int_eq(route_is_console("/administrator"), 0);
	ck_assert_int_eq(route_is_console("/v1/admin"), 0);
	ck_assert_int_eq(route_is_console("/q/admin"), 0);
}
END_TEST

/* A route's kind agrees with its path: the gates that read the path
 * (the admin API's, the console's) and those that read the kind
 * (CORS, the probes on admin_listen) see the same routes. */
START_TEST(test_kinds)
{
	static const struct { int id; const char *pattern; int kind; } r[] = {
#define ROUTE(id, pattern, methods, name, handler, kind) \
		{ ROUTE_##id, pattern, kind },
#include "routes.def"
#undef ROUTE
	};

	ck_assert_int_eq(route_kind(ROUTE_NONE), RK_NONE);
	ck_assert_int_eq(route_kind(ROUTE_TOKENS), RK_API);
	ck_assert_int_eq(route_kind(ROUTE_READYZ), RK_PROBE);
	ck_assert_int_eq(route_kind(ROUTE_CHECK), RK_FRONT);
	ck_assert_int_eq(route_kind(ROUTE_ASSET), RK_PAGE);
	for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
		ck_assert_int_eq(route_kind(r[i].id), r[i].kind);
		ck_assert_int_eq(route_is_admin(r[i].pattern),
		    r[i].kind == RK_ADMIN);
		ck_assert_int_eq(route_is_console(r[i].pattern),
		    r[i].kind == RK_CONSOLE);
		if (r[i].kind == RK_API)
			ck_assert(strncmp(r[i].pattern, "/v1/queues/", 11) == 0);
	}
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(route_name(ROUTE_NONE), "none");
	ck_assert_str_eq(route_name(ROUTE_TOKENS), "join");
	ck_assert_str_eq(route_name(ROUTE_ADMIN_TOKEN), "admin_token");
	/* every route has a name of its own */
	for (int i = 1; i < ROUTE_COUNT; i++) {
		ck_assert_str_ne(route_name(i), "none");
		for (int j = 1; j < i; j++)
			ck_assert_str_ne(route_name(i), route_name(j));
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("route");
	TCase *tc = tcase_create("route");

	tcase_add_test(tc, test_health);
	tcase_add_test(tc, test_queue);
	tcase_add_test(tc, test_tokens);
	tcase_add_test(tc, test_token);
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_page);
	tcase_add_test(tc, test_check);
	tcase_add_loop_test(tc, test_not_found, 0,
	    (int)(sizeof not_found / sizeof not_found[0]));
	tcase_add_test(tc, test_bad_method);
	tcase_add_test(tc, test_head);
	tcase_add_test(tc, test_bad_queue);
	tcase_add_test(tc, test_bad_token);
	tcase_add_test(tc, test_admin);
	tcase_add_test(tc, test_admin_prefix);
	tcase_add_test(tc, test_console_prefix);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_kinds);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
