/*
 * check_facts.c: reading lib.lua's facts() reply, whole (status.lua) or
 * as join.lua's head and entries.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "facts.h"
#include "unit.h"

/* Replies built by hand, as hiredis would: strings, integers, arrays. */
static redisReply pool[64];
static redisReply *kids[64];
static int used, kids_used;

static redisReply *
str(const char *s)
{
	redisReply *r = &pool[used++];

	r->type = REDIS_REPLY_STRING;
	r->str = (char *)s;
	r->len = strlen(s);
	return r;
}

static redisReply *
num(long long v)
{
	redisReply *r = &pool[used++];

	r->type = REDIS_REPLY_INTEGER;
	r->integer = v;
	return r;
}

/* An array of n replies. */
static redisReply *
arr(int n, ...)
{
	redisReply *r = &pool[used++];
	va_list ap;

	r->type = REDIS_REPLY_ARRAY;
	r->elements = (size_t)n;
	r->element = &kids[kids_used];
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		kids[kids_used++] = va_arg(ap, redisReply *);
	va_end(ap);
	return r;
}

static void
reset(void)
{
	memset(pool, 0, sizeof pool);
	used = kids_used = 0;
}

/* The queue's part: now, tick, rate, mode, state, batch, interval,
 * max_active, active_ttl, redirect. */
#define HEAD_PART \
	num(1700000000123), num(1700000000000), str("2.5"), str("rate"), \
	str("paused"), str("10"), str("5"), str("0"), str("300"), \
	str("https://shop.example/")

START_TEST(test_whole)
{
	struct facts f;

	reset();
	ck_assert_int_eq(facts_parse(arr(15, str("ok"), str("t-1"),
	    str("waiting"), num(41), num(100), HEAD_PART), &f), 0);
	ck_assert_str_eq(f.result, "ok");
	ck_assert_str_eq(f.token, "t-1");
	ck_assert_str_eq(f.status, "waiting");
	ck_assert_int_eq(f.n, 41);
	ck_assert_int_eq(f.waiting, 100);
	ck_assert_int_eq(f.q.now_ms, 1700000000123);
	ck_assert_int_eq(f.q.state, STATE_PAUSED);
	ck_assert_int_eq(f.q.batch, 10);
	ck_assert_str_eq(f.redirect, "https://shop.example/");
	ck_assert_int_eq(facts_parse(arr(1, str("gone")), &f), 0);
	ck_assert_str_eq(f.result, "gone");
	ck_assert_int_eq(facts_parse(arr(0), &f), -1);
	ck_assert_int_eq(facts_parse(arr(14, str("ok"), str("t-1"),
	    str("waiting"), num(41), num(100), num(1), num(2), str("2.5"),
	    str("rate"), str("open"), str("1"), str("1"), str("0"),
	    str("300")), &f), -1);		/* one short */
	ck_assert_int_eq(facts_parse(num(3), &f), -1);
}
END_TEST

START_TEST(test_head_and_entries)
{
	struct facts head, f;
	long long line;

	reset();
	ck_assert_int_eq(facts_parse_head(arr(11, num(6), HEAD_PART), &head),
	    0);
	ck_assert_int_eq(head.waiting, 6);
	line = head.waiting;
	f = head;
	/* A bare "new": the token sent, at the end of the line. */
	ck_assert_int_eq(facts_parse_entry(str("new"), "t-1", &line, &f), 0);
	ck_assert_str_eq(f.result, "new");
	ck_assert_str_eq(f.token, "t-1");
	ck_assert_str_eq(f.status, "waiting");
	ck_assert_int_eq(f.n, 6);
	ck_assert_int_eq(f.waiting, 7);
	ck_assert_int_eq(f.q.interval, 5);
	ck_assert_int_eq(f.q.last_tick_ms, 1700000000000);
	ck_assert_str_eq(f.redirect, "https://shop.example/");
	f = head;
	ck_assert_int_eq(facts_parse_entry(str("new"), "t-2", &line, &f), 0);
	ck_assert_str_eq(f.token, "t-2");
	ck_assert_int_eq(f.n, 7);
	ck_assert_int_eq(f.waiting, 8);
	/* Words in full: read as written, the line's count left alone. */
	ck_assert_int_eq(facts_parse_entry(str("existing t-0 waiting 3 8"),
	    "t-3", &line, &f), 0);
	ck_assert_str_eq(f.result, "existing");
	ck_assert_str_eq(f.token, "t-0");
	ck_assert_int_eq(f.n, 3);
	ck_assert_int_eq(line, 8);
	/* an expiry in ms, as Lua writes it */
	ck_assert_int_eq(facts_parse_entry(str("new "
	    "0b3c5e1a-0000-4000-8000-000000000000 active 1795460399000 0"),
	    "t-4", &line, &f), 0);
	ck_assert_str_eq(f.token, "0b3c5e1a-0000-4000-8000-000000000000");
	ck_assert_str_eq(f.status, "active");
	ck_assert_int_eq(f.n, 1795460399000LL);
	/* An entry that is a result alone leaves no token behind. */
	ck_assert_int_eq(facts_parse_entry(str("full"), "t-5", &line, &f), 0);
	ck_assert_str_eq(f.result, "full");
	ck_assert_str_eq(f.token, "");
	ck_assert_int_eq(f.n, 0);
	ck_assert_int_eq(line, 8);
}
END_TEST

/* Every way an entry can be malformed is refused, not half read. */
START_TEST(test_bad_entries)
{
	const char *bad[] = {
		"", " ", "new ", " new", "new  t waiting 7 8",
		"new t waiting",		/* short */
		"new t waiting 7",
		"new t waiting 7 8 9",		/* long */
		"new t waiting seven 8",	/* n not a number */
		"new t waiting 7 8x",
		"new t waiting 1e+15 8",	/* past what Lua writes whole */
		"new t waiting - 8",
		"new t waiting 7 8 ",
		"a-result-too-long-to-keep t waiting 7 8",
		"new 0b3c5e1a-0000-4000-8000-0000000000001 waiting 7 8",
	};
	struct facts f;
	long long line = 4;

	reset();
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(facts_parse_entry(str(bad[i]), "t", &line,
		    &f) == -1, "'%s' was read", bad[i]);
	ck_assert_int_eq(facts_parse_entry(num(1), "t", &line, &f), -1);
	ck_assert_int_eq(facts_parse_entry(arr(5, str("new"), str("t"),
	    str("waiting"), num(7), num(8)), "t", &line, &f), -1);
	/* a token too long to keep is refused, not cut */
	ck_assert_int_eq(facts_parse_entry(str("new"),
	    "0b3c5e1a-0000-4000-8000-0000000000001", &line, &f), -1);
	ck_assert_int_eq(line, 4);			/* none counted */
}
END_TEST

START_TEST(test_bad_heads)
{
	struct facts head;

	reset();
	/* No queue: an empty head, nothing to read. */
	ck_assert_int_eq(facts_parse_head(arr(0), &head), 0);
	ck_assert_int_eq(head.q.now_ms, 0);
	ck_assert_int_eq(facts_parse_head(arr(10, HEAD_PART), &head),
	    -1);				/* no line length */
	ck_assert_int_eq(facts_parse_head(arr(11, str("x"), HEAD_PART),
	    &head), -1);			/* line not a number */
	ck_assert_int_eq(facts_parse_head(arr(11, num(-1), HEAD_PART),
	    &head), -1);
	ck_assert_int_eq(facts_parse_head(arr(11, num(0), num(1), num(2),
	    str("1"), str("rate"), str("open"), str("x"), str("1"), str("0"),
	    str("300"), str("")), &head), -1);	/* batch not a number */
	ck_assert_int_eq(facts_parse_head(str("x"), &head), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("facts");
	TCase *tc = tcase_create("facts");

	tcase_add_test(tc, test_whole);
	tcase_add_test(tc, test_head_and_entries);
	tcase_add_test(tc, test_bad_entries);
	tcase_add_test(tc, test_bad_heads);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
