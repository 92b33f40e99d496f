/*
 * check_qstore_reply.c: reading the scripts' replies: lib.lua's facts()
 * whole (status.lua) or as join.lua's head and entries, summary.lua's,
 * ranks.lua's,
 * tick.lua's and admin_show.lua's, the pass check's lookup and Redis's
 * INFO, the console's room and series; and the count of facts() fields,
 * read from lib.lua itself, against the C side's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "qstore_reply.h"
#include "unit.h"

/* Replies built by hand, as hiredis would: strings, integers, arrays. */
static redisReply pool[128];
static redisReply *kids[128];
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
nil(void)
{
	redisReply *r = &pool[used++];

	r->type = REDIS_REPLY_NIL;
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
 * max_active, active_ttl, redirect, opens_at, prequeue_from, entrants,
 * waiting_ttl. */
#define HEAD_PART \
	num(1700000000123), num(1700000000000), str("2.5"), str("rate"), \
	str("paused"), str("10"), str("5"), str("0"), str("300"), \
	str("https://shop.example/"), num(1700000600), num(0), num(12), \
	str("120")

/* join.lua's head past the facts: what may be held (version, max_waiting,
 * closes_at in ms). */
#define HELD_PART str("1700000000000001"), num(500), str("1700000900000")

/* lib.lua's eta_facts(): nine in ten leavers admitted, three sessions
 * inside ending in 1.2, 4.5 and 9 s (unix ms; HEAD_PART's now is ...123),
 * no band; 2 of the sessions ended early, all of them inside for 60 s;
 * 40 leavers; the line's first joined 30 s ago; 6 abandoners left at 8 s
 * on average (48 s in all). */
#define ETA_PART \
	str("0.9000"), num(3), \
	str("1700000001323 1700000004623 1700000009123"), num(0), str(""), \
	str("2"), str("60000"), num(40), str("1699999970123 48000 6")

/* admin_show's wait: 16 buckets (HMGET: nil or text) and the sum. */
static redisReply *
wait_hist(void)
{
	return arr(17, nil(), str("1"), str("2"), str("5"), nil(), nil(),
	    nil(), nil(), nil(), nil(), nil(), nil(), nil(), nil(), nil(),
	    nil(), str("21000"));
}

START_TEST(test_whole)
{
	struct standing f;
	enum result res;

	reset();
	ck_assert_int_eq(qreply_standing(arr(28, str("ok"), str("t-1"),
	    str("waiting"), num(41), num(100), HEAD_PART, ETA_PART), &res,
	    &f), 0);
	ck_assert_int_eq(res, RESULT_OK);
	ck_assert_str_eq(f.token, "t-1");
	ck_assert_int_eq(f.active, 0);
	ck_assert_int_eq(f.n, 41);
	ck_assert_int_eq(f.waiting, 100);
	ck_assert_int_eq(f.q.now_ms, 1700000000123);
	ck_assert_int_eq(f.q.state, STATE_PAUSED);
	ck_assert_int_eq(f.q.batch, 10);
	ck_assert_int_eq(f.q.waiting_ttl, 120);
	ck_assert_str_eq(f.redirect, "https://shop.example/");
	ck_assert_int_eq(f.q.early, 2);
	ck_assert_int_eq(f.q.ended_ms, 60000);
	ck_assert_int_eq(f.q.leavers, 40);
	ck_assert(f.q.head_at == 1699999970123LL);
	ck_assert_int_eq(f.q.ab_ms, 8000);
	ck_assert_int_eq(f.q.ab_n, 6);
	ck_assert_int_eq(f.q.line, 100);
	ck_assert(f.q.keep > 0.899 && f.q.keep < 0.901);
	ck_assert_int_eq(f.q.active, 3);
	ck_assert_int_eq(f.q.nends, 3);
	ck_assert_int_eq(f.q.ends[2], 9000);
	ck_assert_int_eq(f.q.band_own, 0);
	ck_assert_int_eq(qreply_standing(arr(1, str("gone")), &res, &f), 0);
	ck_assert_int_eq(res, RESULT_GONE);
	ck_assert_int_eq(qreply_standing(arr(0), &res, &f), -1);
	ck_assert_int_eq(qreply_standing(arr(14, str("ok"), str("t-1"),
	    str("waiting"), num(41), num(100), num(1), num(2), str("2.5"),
	    str("rate"), str("open"), str("1"), str("1"), str("0"),
	    str("300")), &res, &f), -1);		/* one short */
	ck_assert_int_eq(qreply_standing(num(3), &res, &f), -1);
}
END_TEST

START_TEST(test_head_and_entries)
{
	struct standing head, f;
	struct held_head hh;
	enum result res;
	long long line;

	reset();
	ck_assert_int_eq(qreply_join_head(arr(27, num(6), HEAD_PART,
	    HELD_PART, ETA_PART), &head, &hh), JOIN_HEAD_FULL);
	ck_assert_int_eq(head.q.nends, 3);
	ck_assert_int_eq(head.waiting, 6);
	ck_assert_str_eq(hh.ver, "1700000000000001");
	ck_assert_int_eq(hh.max_waiting, 500);
	ck_assert_int_eq(hh.closes_at_ms, 1700000900000);
	line = head.waiting;
	f = head;
	/* A bare "new": the token sent, at the end of the line. */
	ck_assert_int_eq(qreply_join_entry(str("new"), "t-1", &line, &res, &f), 0);
	ck_assert_int_eq(res, RESULT_NEW);
	ck_assert_str_eq(f.token, "t-1");
	ck_assert_int_eq(f.active, 0);
	ck_assert_int_eq(f.n, 6);
	ck_assert_int_eq(f.waiting, 7);
	ck_assert_int_eq(f.q.interval, 5);
	ck_assert_int_eq(f.q.last_tick_ms, 1700000000000);
	ck_assert_str_eq(f.redirect, "https://shop.example/");
	f = head;
	ck_assert_int_eq(qreply_join_entry(str("new"), "t-2", &line, &res, &f), 0);
	ck_assert_str_eq(f.token, "t-2");
	ck_assert_int_eq(f.n, 7);
	ck_assert_int_eq(f.waiting, 8);
	/* Words in full: read as written, the line's count left alone. */
	ck_assert_int_eq(qreply_join_entry(str("existing t-0 waiting 3 8"),
	    "t-3", &line, &res, &f), 0);
	ck_assert_int_eq(res, RESULT_EXISTING);
	ck_assert_str_eq(f.token, "t-0");
	ck_assert_int_eq(f.n, 3);
	ck_assert_int_eq(line, 8);
	/* an expiry in ms, as Lua writes it */
	ck_assert_int_eq(qreply_join_entry(str("new "
	    "0b3c5e1a-0000-4000-8000-000000000000 active 1795460399000 0"),
	    "t-4", &line, &res, &f), 0);
	ck_assert_str_eq(f.token, "0b3c5e1a-0000-4000-8000-000000000000");
	ck_assert_int_eq(f.active, 1);
	ck_assert_int_eq(f.n, 1795460399000LL);
	/* An entry that is a result alone leaves no token behind. */
	ck_assert_int_eq(qreply_join_entry(str("full"), "t-5", &line, &res, &f), 0);
	ck_assert_int_eq(res, RESULT_FULL);
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
	struct standing f;
	enum result res;
	long long line = 4;

	reset();
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(qreply_join_entry(str(bad[i]), "t", &line,
		    &res, &f) == -1, "'%s' was read", bad[i]);
	ck_assert_int_eq(qreply_join_entry(num(1), "t", &line, &res, &f), -1);
	ck_assert_int_eq(qreply_join_entry(arr(5, str("new"), str("t"),
	    str("waiting"), num(7), num(8)), "t", &line, &res, &f), -1);
	/* a token too long to keep is refused, not cut */
	ck_assert_int_eq(qreply_join_entry(str("new"),
	    "0b3c5e1a-0000-4000-8000-0000000000001", &line, &res, &f), -1);
	ck_assert_int_eq(line, 4);			/* none counted */
}
END_TEST

/* A batch sent with held facts: the line, the clock, the tick, the state. */
START_TEST(test_short_head)
{
	struct standing head;
	struct held_head hh;

	reset();
	ck_assert_int_eq(qreply_join_head(arr(6, num(6), num(1700000000123),
	    num(1700000000000), str("closed"), str("-50 120 80"),
	    str("1699999970123 48000 6")), &head, &hh), JOIN_HEAD_HELD);
	ck_assert(head.q.head_at == 1699999970123LL);
	ck_assert_int_eq(head.q.ab_ms, 8000);
	ck_assert_int_eq(head.q.ab_n, 6);
	ck_assert_int_eq(head.q.line, 6);
	ck_assert_int_eq(head.q.band_own, 1);
	ck_assert_int_eq(head.q.band_p10, -50);
	ck_assert_int_eq(head.q.band_p90, 120);
	ck_assert_int_eq(head.q.band_n, 80);
	ck_assert_int_eq(head.waiting, 6);
	ck_assert_int_eq(head.q.now_ms, 1700000000123);
	ck_assert_int_eq(head.q.last_tick_ms, 1700000000000);
	ck_assert_int_eq(head.q.state, STATE_CLOSED);
	ck_assert_str_eq(hh.ver, "");
}
END_TEST

START_TEST(test_bad_heads)
{
	struct standing head;
	struct held_head hh;

	reset();
	/* No queue: an empty head, nothing to read. */
	ck_assert_int_eq(qreply_join_head(arr(0), &head, &hh),
	    JOIN_HEAD_NO_QUEUE);
	ck_assert_int_eq(head.q.now_ms, 0);
	ck_assert_int_eq(qreply_join_head(arr(26, HEAD_PART, HELD_PART, ETA_PART),
	    &head, &hh), -1);			/* no line length */
	ck_assert_int_eq(qreply_join_head(arr(27, str("x"), HEAD_PART,
	    HELD_PART, ETA_PART), &head, &hh), -1);	/* line not a number */
	ck_assert_int_eq(qreply_join_head(arr(27, num(-1), HEAD_PART,
	    HELD_PART, ETA_PART), &head, &hh), -1);
	ck_assert_int_eq(qreply_join_head(arr(15, num(6), HEAD_PART),
	    &head, &hh), -1);			/* nothing of what to hold */
	reset();
	ck_assert_int_eq(qreply_join_head(arr(27, num(0), num(1), num(2),
	    str("1"), str("rate"), str("open"), str("x"), str("1"), str("0"),
	    str("300"), str(""), num(0), num(0), num(0), str("120"),
	    HELD_PART, ETA_PART), &head,
	    &hh), -1);	/* batch not a number */
	ck_assert_int_eq(qreply_join_head(arr(27, num(6), HEAD_PART, str(""),
	    str("x"), str("0"), ETA_PART), &head, &hh), -1);	/* max_waiting */
	reset();
	/* ends out of order */
	ck_assert_int_eq(qreply_join_head(arr(27, num(6), HEAD_PART,
	    HELD_PART, str("1"), num(3), str("4500 1200"), num(0), str(""),
	    num(0), num(0), num(0), str("")), &head, &hh), -1);
	/* an end not a number */
	ck_assert_int_eq(qreply_join_head(arr(27, num(6), HEAD_PART,
	    HELD_PART, str("1"), num(3), str("1200 x"), num(0), str(""),
	    num(0), num(0), num(0), str("")), &head, &hh), -1);
	/* a band without its n */
	ck_assert_int_eq(qreply_join_head(arr(27, num(6), HEAD_PART,
	    HELD_PART, str("1"), num(3), str(""), num(0), str("-50 120"),
	    num(0), num(0), num(0), str("")), &head, &hh), -1);
	reset();
	ck_assert_int_eq(qreply_join_head(arr(6, num(6), num(1), num(2),
	    num(3), str(""), str("")), &head, &hh), -1);
							/* short, state not text */
	ck_assert_int_eq(qreply_join_head(arr(6, num(6), num(1), num(2),
	    str("open"), str(""), str("1 2")), &head, &hh), -1);
							/* ages, two numbers */
	ck_assert_int_eq(qreply_join_head(arr(3, num(6), num(1), num(2)),
	    &head, &hh), -1);
	ck_assert_int_eq(qreply_join_head(str("x"), &head, &hh), -1);
}
END_TEST

/*
 * The fields of lib.lua's facts(): the table its return builds, counted
 * at its top level. One more field there and none here (or the reverse)
 * fails this, before streams silently stop updating.
 */
static int
lua_facts_fields(void)
{
	static char text[1 << 16];
	FILE *f = fopen(LUA_LIB_PATH, "r");
	size_t len;
	char *p;
	int depth = 0, fields = 1;

	ck_assert_msg(f != NULL, "cannot read %s", LUA_LIB_PATH);
	len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	p = strstr(text, "local function facts(");
	ck_assert_msg(p != NULL, "lib.lua has no facts()");
	p = strstr(p, "return {");
	ck_assert_msg(p != NULL, "facts() returns no table");
	for (p += strlen("return {"); *p && depth >= 0; p++) {
		if (*p == '{' || *p == '(')
			depth++;
		else if (*p == '}' || *p == ')')
			depth--;
		else if (*p == ',' && depth == 0)
			fields++;
	}
	return fields;
}

START_TEST(test_lua_facts_count)
{
	ck_assert_int_eq(lua_facts_fields(), FACTS_FIELDS);
}
END_TEST

/* The facts of a ranks.lua reply, before its kinds and values. */
#define FACTS_OF_BATCH \
	str("batch"), str(""), str("batch"), num(0), num(9), HEAD_PART, \
	ETA_PART

/* summary.lua's facts, before when the queue's fail-open ends. */
#define FACTS_OF_SUMMARY \
	str("ok"), str(""), str("summary"), num(3), num(9), HEAD_PART, \
	ETA_PART

START_TEST(test_summary)
{
	struct standing s;
	enum result res;

	reset();
	ck_assert_int_eq(qreply_summary(arr(29, FACTS_OF_SUMMARY,
	    num(1795460399)), &res, &s), 0);
	ck_assert_int_eq(res, RESULT_OK);
	ck_assert_int_eq(s.n, 3);
	ck_assert_int_eq(s.waiting, 9);
	ck_assert_int_eq(s.q.state, STATE_PAUSED);
	ck_assert(s.fail_open_until == 1795460399LL);
	reset();
	ck_assert_int_eq(qreply_summary(arr(29, FACTS_OF_SUMMARY, num(0)),
	    &res, &s), 0);
	ck_assert(s.fail_open_until == 0);
	reset();
	ck_assert_int_eq(qreply_summary(arr(1, str("no_queue")), &res, &s),
	    0);
	ck_assert_int_eq(res, RESULT_NO_QUEUE);
	reset();		/* the facts alone: no end of a fail-open */
	ck_assert_int_eq(qreply_summary(arr(28, FACTS_OF_SUMMARY), &res, &s),
	    -1);
	reset();
	ck_assert_int_eq(qreply_summary(arr(29, FACTS_OF_SUMMARY,
	    str("soon")), &res, &s), -1);
}
END_TEST

START_TEST(test_ranks)
{
	struct standing s;
	const char *kinds;
	long long v[3], l[3];

	reset();
	ck_assert_int_eq(qreply_ranks(arr(31, FACTS_OF_BATCH, str("wag"),
	    arr(3, num(4), num(1795460399000), num(0)),
	    arr(3, num(-7), num(0), num(0))), 3, &s, &kinds, v, l), 0);
	ck_assert_int_eq(s.waiting, 9);
	ck_assert_int_eq(s.q.batch, 10);
	ck_assert_int_eq(kinds[0], 'w');
	ck_assert_int_eq(kinds[2], 'g');
	ck_assert_int_eq(v[0], 4);
	ck_assert_int_eq(v[1], 1795460399000LL);
	ck_assert_int_eq(l[0], -7);
	reset();		/* one token fewer than sent */
	ck_assert_int_eq(qreply_ranks(arr(31, FACTS_OF_BATCH, str("wa"),
	    arr(2, num(4), num(1)), arr(2, num(1), num(0))), 3, &s, &kinds,
	    v, l), -1);
	reset();		/* a field more than lib.lua's */
	ck_assert_int_eq(qreply_ranks(arr(30, FACTS_OF_BATCH, str("x"),
	    str("w"), arr(1, num(4)), arr(1, num(4))), 1, &s, &kinds, v, l),
	    -1);
	reset();
	ck_assert_int_eq(qreply_ranks(arr(31, FACTS_OF_BATCH, str("w"),
	    arr(1, str("4")), arr(1, num(4))), 1, &s, &kinds, v, l), -1);
	reset();		/* no lines */
	ck_assert_int_eq(qreply_ranks(arr(30, FACTS_OF_BATCH, str("w"),
	    arr(1, num(4))), 1, &s, &kinds, v, l), -1);
}
END_TEST

START_TEST(test_tick_and_figures)
{
	struct tick_figures t;
	struct queue_figures f;

	reset();
	ck_assert_int_eq(qreply_tick(arr(14, num(1), num(2), num(3), num(4),
	    num(0), num(-1), num(300), num(1), str("2.500000"), str("17"),
	    str("Doors at 10"), num(1795780000), num(2), num(-1)), &t), 0);
	ck_assert_int_eq(t.noshows, 2);
	ck_assert_int_eq(t.draw_in, -1);
	ck_assert(t.rate == 2.5);
	ck_assert_str_eq(t.notice, "Doors at 10");
	ck_assert_int_eq(t.fail_open_until, 1795780000);
	ck_assert_str_eq(t.ver, "17");
	ck_assert_int_eq(t.draw, TICK_DRAW_DUE);
	ck_assert_int_eq(t.expired, 1);
	ck_assert_int_eq(t.admitted, 3);
	ck_assert_int_eq(t.waiting, 4);
	ck_assert_int_eq(t.full_ms, 0);
	ck_assert_int_eq(t.pow_bits, -1);	/* no challenge */
	ck_assert_int_eq(t.pow_ttl, 300);
	ck_assert_int_eq(qreply_tick(arr(14, num(1), num(0), num(0), num(4),
	    num(1700000000123), num(16), num(60), num(0), str("0"), str(""),
	    str(""), num(0), num(0), num(1500)), &t), 0);
	ck_assert_int_eq(t.draw_in, 1500);	/* the opening in 1.5 s */
	ck_assert_str_eq(t.notice, "");	/* none */
	ck_assert_int_eq(t.fail_open_until, 0);
	ck_assert_int_eq(t.full_ms, 1700000000123);	/* Redis was full */
	ck_assert_int_eq(t.pow_bits, 16);
	ck_assert_int_eq(qreply_tick(arr(13, num(1), num(2), num(3), num(4),
	    num(0), num(-1), num(300), num(0), str("1"), str(""), str(""),
	    num(0), num(0)),
	    &t), -1); /* short */
	ck_assert_int_eq(qreply_tick(arr(14, num(1), num(2), num(3), num(4),
	    num(0), num(-1), num(300), num(0), str("fast"), str(""), str(""),
	    num(0), num(0), num(-1)), &t), -1);
	ck_assert_int_eq(qreply_tick(arr(1, str("no_queue")), &t), -1);
	ck_assert_int_eq(qreply_first(arr(1, str("no_queue"))),
	    RESULT_NO_QUEUE);
	reset();
	ck_assert_int_eq(qreply_figures(arr(9, arr(4, str("state"),
	    str("paused"), str("redirect"), str("")), num(7), num(2),
	    arr(7, num(1), num(2), num(3), num(4), num(5), num(6),
	    num(3)), num(9),
	    num(0), num(0), wait_hist(), num(42)),
	    &f), 0);
	ck_assert_int_eq(f.exists, 1);
	ck_assert_int_eq(f.config.n, 2);
	ck_assert_str_eq(f.config.key[0], "state");
	ck_assert_str_eq(f.config.value[0], "paused");
	ck_assert_int_eq(f.config.len[1], 0);
	ck_assert_int_eq(f.waiting, 7);
	ck_assert_int_eq(f.totals[5], 6);
	ck_assert_int_eq(f.totals[6], 3);	/* noshows */
	ck_assert_int_eq(f.last_minute, 9);
	/* the histogram: HMGET's nil (a bucket never touched) is 0 */
	ck_assert_int_eq(f.wait[0], 0);
	ck_assert_int_eq(f.wait[3], 5);
	ck_assert_int_eq(f.wait[16], 21000);
	ck_assert_int_eq(f.eta_new, 42);
	ck_assert_int_eq(qreply_figures(arr(0), &f), 0);
	ck_assert_int_eq(f.exists, 0);
	reset();		/* five totals, not six */
	ck_assert_int_eq(qreply_figures(arr(9, arr(0), num(7), num(2),
	    arr(5, num(1), num(2), num(3), num(4), num(5)), num(9), num(0),
	    num(0), wait_hist(), num(-1)), &f), -1);
	reset();		/* the old shape: no histogram */
	ck_assert_int_eq(qreply_figures(arr(7, arr(0), num(7), num(2),
	    arr(6, num(1), num(2), num(3), num(4), num(5), num(6)), num(9),
	    num(0), num(0)), &f), -1);
}
END_TEST

/* The pass check's MGET: the token's revoked key, the queue's drop. */
START_TEST(test_lookup)
{
	struct revoke_facts f;

	reset();
	ck_assert_int_eq(qreply_lookup(arr(2, nil(), nil()), &f), 0);
	ck_assert_int_eq(f.revoked, 0);
	ck_assert_int_eq(f.dropped_ms, 0);
	ck_assert_int_eq(qreply_lookup(arr(2, str("1"), str("1700000000123")),
	    &f), 0);
	ck_assert_int_eq(f.revoked, 1);
	ck_assert_int_eq(f.dropped_ms, 1700000000123);
	ck_assert_int_eq(qreply_lookup(arr(2, nil(), str("soon")), &f), -1);
	ck_assert_int_eq(qreply_lookup(arr(2, nil(), str("0")), &f), -1);
	ck_assert_int_eq(qreply_lookup(arr(1, nil()), &f), -1);
	ck_assert_int_eq(qreply_lookup(num(1), &f), -1);
}
END_TEST

/* INFO's fields by name: the one asked for, not one that starts alike. */
START_TEST(test_info)
{
	redisReply *r;
	long long v = 0;

	reset();
	r = str("# Memory\r\nused_memory_rss:9999\r\nused_memory:1048576\r\n"
	    "used_memory_human:1.00M\r\nmaxmemory_human:2.00M\r\n"
	    "maxmemory:2097152\r\nmaxmemory_policy:noeviction\r\n");
	ck_assert_int_eq(qreply_info(r, "used_memory", &v), 0);
	ck_assert_int_eq(v, 1048576);
	ck_assert_int_eq(qreply_info(r, "maxmemory", &v), 0);
	ck_assert_int_eq(v, 2097152);
	ck_assert_int_eq(qreply_info(r, "maxmemory_policy", &v), -1);
	ck_assert_int_eq(qreply_info(r, "used_memory_peak", &v), -1);
	ck_assert_int_eq(qreply_info(r, "memory", &v), -1);
	ck_assert_int_eq(qreply_info(num(1), "used_memory", &v), -1);
}
END_TEST

/* Every word a script answers with means one outcome; others are errors. */
START_TEST(test_result_words)
{
	ck_assert_int_eq(result_parse("left", 4), RESULT_OK);
	ck_assert_int_eq(result_parse("created", 7), RESULT_NEW);
	ck_assert_int_eq(result_parse("closed", 6), RESULT_CLOSED);
	ck_assert_int_eq(result_parse("no_queue", 8), RESULT_NO_QUEUE);
	ck_assert_int_eq(result_parse("no_queuex", 9), RESULT_ERROR);
	ck_assert_int_eq(result_parse("", 0), RESULT_ERROR);
	ck_assert_int_eq(result_answer(RESULT_FULL)->status, 503);
	ck_assert_str_eq(result_answer(RESULT_FULL)->retry_after, "10");
	ck_assert_str_eq(result_answer(RESULT_GONE)->page_state, "gone");
	ck_assert_int_eq(result_answer((enum result)99)->status, 500);
}
END_TEST

/* room_read.lua's reply: one process, Redis's facts, a queue and none. */
START_TEST(test_room)
{
	struct room_read rr;
	redisReply *show, *facts, *eta, *r;

	reset();
	show = arr(9, arr(2, str("state"), str("open")), num(12), num(3),
	    arr(7, num(20), num(8), num(5), num(1), num(2), num(0),
	    num(1)), num(8),
	    num(0), num(0), wait_hist(), num(-1));
	facts = arr(9, str("rate"), str("open"), num(10), num(2), num(0),
	    num(300), num(0), num(0), num(0));
	/* keep, active, ends (unix ms), last_end, band, early, ended_ms,
	 * leavers, ages: lib.lua's eta_facts() */
	eta = arr(9, str("0.9000"), num(3),
	    str("1795781212697 1795781215697"), num(1795781290697),
	    str("-80 120 60"), num(1), num(5000), num(40), str(""));
	r = arr(4, num(1795781210697),
	    arr(1, arr(3, str("web1:41"), str("{\"id\":\"web1:41\"}"),
	    str("1795781210300"))),
	    arr(3, str("2141768"), str("0"), str("master")),
	    arr(2, arr(6, show, str("5.000000"),
	    arr(2, str("1795781209000 4200 1200 10"), str("not a run")),
	    num(1795781209000), facts, eta), arr(0)));
	memset(&rr, 0, sizeof rr);
	ck_assert_int_eq(qreply_room(r, 2, &rr), 0);
	ck_assert(rr.now_ms == 1795781210697);
	ck_assert_int_eq(rr.ninstances, 1);
	ck_assert_str_eq(rr.instances[0].report, "{\"id\":\"web1:41\"}");
	ck_assert(rr.instances[0].seen_ms == 1795781210300);
	ck_assert(rr.used_memory == 2141768 && rr.maxmemory == 0);
	ck_assert_str_eq(rr.role, "master");
	ck_assert_int_eq(rr.nqueues, 2);
	ck_assert_int_eq(rr.queues[0].f.exists, 1);
	ck_assert(rr.queues[0].f.waiting == 12 && rr.queues[0].f.active == 3);
	ck_assert(rr.queues[0].f.totals[1] == 8);
	ck_assert(rr.queues[0].rate == 5.0);
	ck_assert(rr.queues[0].last_tick_ms == 1795781209000);
	ck_assert_str_eq(rr.queues[0].c.mode, "rate");
	ck_assert(rr.queues[0].c.batch == 10 && rr.queues[0].c.interval == 2);
	/* the run that is one, not the text that is not */
	ck_assert_int_eq(rr.queues[0].nwaits, 1);
	/* the ETA's facts: the configuration's, the ends after Redis's now */
	ck_assert_int_eq(rr.queues[0].eta.mode, MODE_RATE);
	ck_assert_int_eq(rr.queues[0].eta.state, STATE_OPEN);
	ck_assert(rr.queues[0].eta.batch == 10 &&
	    rr.queues[0].eta.interval == 2 && rr.queues[0].eta.rate == 5.0 &&
	    rr.queues[0].eta.active_ttl == 300 &&
	    rr.queues[0].eta.last_tick_ms == 1795781209000);
	ck_assert(rr.queues[0].eta.active == 3 && rr.queues[0].eta.keep == 0.9);
	ck_assert_int_eq(rr.queues[0].eta.nends, 2);
	ck_assert(rr.queues[0].eta.ends[0] == 2000 &&
	    rr.queues[0].eta.ends[1] == 5000);
	ck_assert(rr.queues[0].eta.last_end == 80000);
	ck_assert(rr.queues[0].eta.band_own && rr.queues[0].eta.band_n == 60);
	ck_assert(rr.queues[0].eta.early == 1 &&
	    rr.queues[0].eta.ended_ms == 5000 && rr.queues[0].eta.leavers == 40);
	ck_assert(rr.queues[0].waits[0].first_ms == 4200 &&
	    rr.queues[0].waits[0].last_ms == 1200 &&
	    rr.queues[0].waits[0].count == 10);
	ck_assert_int_eq(rr.queues[1].f.exists, 0);
	qreply_room_free(&rr);

	/* not a room: a field short, or another count of queues */
	memset(&rr, 0, sizeof rr);
	ck_assert_int_eq(qreply_room(arr(3, num(1), arr(0), arr(3, str("0"),
	    str("0"), str(""))), 0, &rr), -1);
	qreply_room_free(&rr);
	memset(&rr, 0, sizeof rr);
	ck_assert_int_eq(qreply_room(r, 3, &rr), -1);
	qreply_room_free(&rr);
}
END_TEST

/* room_history.lua's samples, a stranger skipped. */
START_TEST(test_series)
{
	struct room_series s;

	reset();
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(qreply_series(arr(3,
	    str("{\"t\":100,\"joined\":5,\"admitted\":2,\"waiting\":3,"
	    "\"active\":2}"), str("{\"t\":"),
	    str("{\"t\":101,\"joined\":9,\"admitted\":2,\"waiting\":7,"
	    "\"active\":2}")), &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert(s.samples[1].t == 101 && s.samples[1].joined == 9 &&
	    s.samples[1].waiting == 7);
	free(s.samples);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(qreply_series(str("x"), &s), -1);
	free(s.samples);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("qstore_reply");
	TCase *tc = tcase_create("qstore_reply");

	tcase_add_test(tc, test_whole);
	tcase_add_test(tc, test_head_and_entries);
	tcase_add_test(tc, test_bad_entries);
	tcase_add_test(tc, test_bad_heads);
	tcase_add_test(tc, test_lua_facts_count);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_ranks);
	tcase_add_test(tc, test_tick_and_figures);
	tcase_add_test(tc, test_short_head);
	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_result_words);
	tcase_add_test(tc, test_info);
	tcase_add_test(tc, test_room);
	tcase_add_test(tc, test_series);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
