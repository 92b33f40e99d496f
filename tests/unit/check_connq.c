/* check_connq.c: deadlines by state, the oldest without a head, the
 * head's end, the reserve. */
#include <string.h>

#include "connq.h"
#include "unit.h"

static struct connq q;
static struct connq_entry e[4];

static void
setup(void)
{
	memset(e, 0, sizeof e);
	connq_init(&q);
}

START_TEST(test_deadlines)
{
	setup();
	connq_add(&q, &e[0], 1000);
	connq_add(&q, &e[1], 1500);
	ck_assert_uint_eq(q.count, 2);
	ck_assert_int_eq(connq_due_in(&q, CONNQ_HEAD, 4000, 1000), 4000);
	ck_assert_ptr_null(connq_expired(&q, CONNQ_HEAD, 4000, 4999));
	ck_assert_ptr_eq(connq_expired(&q, CONNQ_HEAD, 4000, 5000), &e[0]);
	/* e[0]'s head is in: its body has a deadline of its own */
	connq_set(&q, &e[0], CONNQ_BODY, 4000);
	ck_assert_ptr_null(connq_expired(&q, CONNQ_HEAD, 4000, 5000));
	ck_assert_int_eq(connq_due_in(&q, CONNQ_HEAD, 4000, 5000), 500);
	ck_assert_int_eq(connq_due_in(&q, CONNQ_BODY, 3000, 5000), 2000);
	ck_assert_ptr_eq(connq_expired(&q, CONNQ_HEAD, 4000, 9000), &e[1]);
	/* whole: no deadline of ours any more */
	connq_set(&q, &e[0], CONNQ_BUSY, 5000);
	ck_assert_int_eq(connq_due_in(&q, CONNQ_BODY, 3000, 5000), -1);
	connq_remove(&q, &e[1]);
	ck_assert_int_eq(connq_due_in(&q, CONNQ_HEAD, 4000, 9000), -1);
	ck_assert_uint_eq(q.count, 1);
	connq_remove(&q, &e[0]);
	ck_assert_uint_eq(q.count, 0);
}
END_TEST

/* The reserve closes the connection that has waited longest for a head,
 * idle between requests or sending one; never one whose head is in. */
START_TEST(test_victim)
{
	setup();
	ck_assert_ptr_null(connq_victim(&q));
	connq_add(&q, &e[0], 100);
	connq_add(&q, &e[1], 200);
	connq_add(&q, &e[2], 300);
	ck_assert_ptr_eq(connq_victim(&q), &e[0]);
	connq_set(&q, &e[0], CONNQ_BUSY, 400);
	ck_assert_ptr_eq(connq_victim(&q), &e[1]);
	connq_set(&q, &e[0], CONNQ_IDLE, 150);	/* kept alive since 150 */
	ck_assert_ptr_eq(connq_victim(&q), &e[0]);
	connq_set(&q, &e[0], CONNQ_IDLE, 500);
	ck_assert_ptr_eq(connq_victim(&q), &e[1]);
	connq_set(&q, &e[1], CONNQ_BODY, 600);
	connq_set(&q, &e[2], CONNQ_BUSY, 600);
	ck_assert_ptr_eq(connq_victim(&q), &e[0]);
	connq_set(&q, &e[0], CONNQ_BUSY, 700);
	ck_assert_ptr_null(connq_victim(&q));
}
END_TEST

/* scan TEXT in pieces of n bytes: the piece (1-based) that ends the
 * head, 0 when none does. */
static int
scan(const char *text, size_t n)
{
	size_t len = strlen(text);

	setup();
	connq_add(&q, &e[0], 0);
	for (size_t i = 0; i < len; i += n)
		if (connq_scan(&e[0], text + i, len - i < n ? len - i : n))
			return (int)(i / n) + 1;
	return 0;
}

START_TEST(test_scan)
{
	const char *crlf = "GET / HTTP/1.1\r\nHost: a\r\n\r\nbody";

	ck_assert_int_eq(scan(crlf, 100), 1);
	/* byte by byte: the end is the 27th byte, the last "\n" */
	ck_assert_int_eq(scan(crlf, 1), 27);
	/* in pieces of any size: the one holding that byte (index 26) */
	for (size_t n = 1; n <= 40; n++)
		ck_assert_int_eq(scan(crlf, n), (int)(26 / n) + 1);
	ck_assert_int_eq(scan("GET / HTTP/1.1\r\nX: a\n\r\n", 5), 5);
	ck_assert_int_eq(scan("GET / HTTP/1.1\nHost: a\n\n", 1), 24);
	ck_assert_int_eq(scan("GET / HTTP/1.1\r\nHost: a\r\n", 1), 0);
	ck_assert_int_eq(scan("GET / HTTP/1.1\r\nX: \r\r\n", 1), 0);
	ck_assert_int_eq(scan("GET / HTTP/1.1\r\nX: a\r\n\r", 1), 0);
	/* a new state starts a new head */
	setup();
	connq_add(&q, &e[0], 0);
	ck_assert_int_eq(connq_scan(&e[0], "a\r\n", 3), 0);
	connq_set(&q, &e[0], CONNQ_HEAD, 1);
	ck_assert_int_eq(connq_scan(&e[0], "\r\n", 2), 0);
}
END_TEST

/* The status of the line an answer starts with, as conns_output reads it. */
START_TEST(test_status)
{
	ck_assert_int_eq(connq_status("HTTP/1.1 413 Request Entity", 13), 413);
	ck_assert_int_eq(connq_status("HTTP/1.0 400 Bad Request\r\n", 13),
	    400);
	ck_assert_int_eq(connq_status("HTTP/1.1 100 Continue\r\n\r\n", 13),
	    100);
	ck_assert_int_eq(connq_status("HTTP/1.1 413 ", 12), -1); /* short */
	ck_assert_int_eq(connq_status("HTTP/2.0 200 OK\r\n", 13), -1);
	ck_assert_int_eq(connq_status("HTTP/1.1 41x Bad\r\n", 13), -1);
	ck_assert_int_eq(connq_status("HTTP/1.1 4130 Bad\r\n", 13), -1);
	ck_assert_int_eq(connq_status("1\r\nx\r\n0\r\n\r\n", 13), -1);
}
END_TEST

START_TEST(test_high_water)
{
	ck_assert_int_eq(connq_high_water(1024, 5), 973);
	ck_assert_int_eq(connq_high_water(20000, 5), 19000);
	ck_assert_int_eq(connq_high_water(1048576, 5), 996148);
	ck_assert_int_eq(connq_high_water(1024, 0), 1024);
	ck_assert_int_eq(connq_high_water(26, 5), 25);	/* at least one */
	ck_assert_int_eq(connq_high_water(100, 50), 50);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("connq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_deadlines);
	tcase_add_test(tc, test_victim);
	tcase_add_test(tc, test_scan);
	tcase_add_test(tc, test_status);
	tcase_add_test(tc, test_high_water);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
