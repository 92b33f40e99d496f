/*
 * check_room.c: the console's figures (room.c), with the clock injected:
 * rates from successive counters, the wait percentiles, the stalled rule,
 * a room event's instances and alerts, and the history's series.
 */
#include <string.h>

#include "room.h"
#include "unit.h"

#define T0 1795781210000LL	/* a Redis TIME in ms */

START_TEST(test_rate_needs_two)
{
	struct room_rate r = { 0 };

	ck_assert(room_rate_per_s(&r, 10000) == 0);
	room_rate_push(&r, T0, 100);
	ck_assert(room_rate_per_s(&r, 10000) == 0);
	room_rate_push(&r, T0 + 1000, 150);
	ck_assert(room_rate_per_s(&r, 10000) == 50);
}
END_TEST

START_TEST(test_rate_window)
{
	struct room_rate r = { 0 };

	/* 10 a second for 20 s, then 100 a second for 5 s */
	for (int i = 0; i <= 20; i++)
		room_rate_push(&r, T0 + i * 1000LL, 10LL * i);
	for (int i = 1; i <= 5; i++)
		room_rate_push(&r, T0 + (20 + i) * 1000LL, 200 + 100LL * i);
	/* the last 5 s: 100 a second; the last 10: (700 - 150) / 10 */
	ck_assert(room_rate_per_s(&r, 5000) == 100);
	ck_assert(room_rate_per_s(&r, 10000) == 55);
	/* the same second again replaces the sample */
	room_rate_push(&r, T0 + 25000, 800);
	ck_assert(room_rate_per_s(&r, 5000) == 120);
}
END_TEST

START_TEST(test_rate_counter_restarts)
{
	struct room_rate r = { 0 };

	room_rate_push(&r, T0, 5000);
	room_rate_push(&r, T0 + 1000, 5010);
	/* a process restarted: its counter starts again from 0 */
	room_rate_push(&r, T0 + 2000, 3);
	ck_assert(room_rate_per_s(&r, 10000) == 0);
	room_rate_push(&r, T0 + 3000, 13);
	ck_assert(room_rate_per_s(&r, 10000) == 10);
}
END_TEST

START_TEST(test_rate_ring_wraps)
{
	struct room_rate r = { 0 };

	for (int i = 0; i < 3 * ROOM_RING; i++)
		room_rate_push(&r, T0 + i * 1000LL, 2LL * i);
	ck_assert_int_eq(r.n, ROOM_RING);
	ck_assert(room_rate_per_s(&r, 60000) == 2);
	/* a window longer than the ring: what the ring holds */
	ck_assert(room_rate_per_s(&r, 3600000) == 2);
}
END_TEST

START_TEST(test_percentiles_none)
{
	struct room_wait w[1] = { { T0 - 400000, 1000, 1000, 5 } };
	double p50 = -1, p90 = -1;

	ck_assert_int_eq(room_wait_percentiles(w, 0, T0, 300000, &p50, &p90),
	    0);
	/* older than the window: none */
	ck_assert_int_eq(room_wait_percentiles(w, 1, T0, 300000, &p50, &p90),
	    0);
}
END_TEST

START_TEST(test_percentiles_weighted)
{
	/* one run of 98 that waited 100 to 200 s, two of 1 that waited 10 */
	struct room_wait w[3] = {
		{ T0 - 1000, 10000, 10000, 1 },
		{ T0 - 2000, 200000, 100000, 98 },
		{ T0 - 3000, 10000, 10000, 1 },
	};
	double p50 = 0, p90 = 0;

	ck_assert_int_eq(room_wait_percentiles(w, 3, T0, 300000, &p50, &p90),
	    1);
	/* half the weight at 100 s, half at 200 s: the big run decides */
	ck_assert(p50 == 100);
	ck_assert(p90 == 200);
}
END_TEST

START_TEST(test_percentiles_one)
{
	struct room_wait w[1] = { { T0, 4500, 4500, 1 } };
	double p50 = 0, p90 = 0;

	ck_assert_int_eq(room_wait_percentiles(w, 1, T0, 300000, &p50, &p90),
	    1);
	ck_assert(p50 == 4.5 && p90 == 4.5);
}
END_TEST

/* A rate queue with interval s, waiting and active, admitted so far. */
static struct room_queue
queue(const char *mode, const char *state, long long interval,
    long long waiting, long long active, long long max_active,
    long long admitted)
{
	struct room_queue q;

	memset(&q, 0, sizeof q);
	q.f.exists = 1;
	q.f.waiting = waiting, q.f.active = active;
	q.f.totals[1] = admitted;
	snprintf(q.c.mode, sizeof q.c.mode, "%s", mode);
	snprintf(q.c.state, sizeof q.c.state, "%s", state);
	q.c.interval = interval, q.c.max_active = max_active;
	return q;
}

START_TEST(test_stalled_rate)
{
	struct room_stall s = { 0 };
	struct room_queue q = queue("rate", "open", 10, 50, 0, 0, 7);
	long long since = 0;

	ck_assert_int_eq(room_stalled(&s, &q, T0, &since), 0);
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 29999, &since), 0);
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 30000, &since), 1);
	ck_assert(since == T0);
	/* the head moves: not stalled, watched anew from then */
	q.f.totals[1] = 8;
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 31000, &since), 0);
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 60000, &since), 0);
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 61000, &since), 1);
	ck_assert(since == T0 + 31000);
}
END_TEST

START_TEST(test_stalled_not_when)
{
	struct room_stall s = { 0 };
	long long since = 0;
	struct room_queue paused = queue("rate", "paused", 1, 50, 0, 0, 7);
	struct room_queue empty = queue("rate", "open", 1, 0, 0, 0, 7);
	struct room_queue pass = queue("passthrough", "open", 1, 5, 0, 0, 7);
	struct room_queue held = queue("rate", "open", 1, 50, 0, 0, 0);
	struct room_queue full = queue("capacity", "open", 10, 50, 100, 100,
	    7);

	held.c.held = 1;
	for (int i = 0; i < 100; i++) {
		long long t = T0 + i * 1000LL;

		ck_assert_int_eq(room_stalled(&s, &paused, t, &since), 0);
		ck_assert_int_eq(room_stalled(&s, &empty, t, &since), 0);
		ck_assert_int_eq(room_stalled(&s, &pass, t, &since), 0);
		ck_assert_int_eq(room_stalled(&s, &held, t, &since), 0);
		ck_assert_int_eq(room_stalled(&s, &full, t, &since), 0);
	}
}
END_TEST

START_TEST(test_stalled_capacity)
{
	struct room_stall s = { 0 };
	struct room_queue q = queue("capacity", "open", 10, 50, 99, 100, 7);
	long long since = 0;

	ck_assert_int_eq(room_stalled(&s, &q, T0, &since), 0);
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 14999, &since), 0);
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 15000, &since), 1);
	/* the slots fill: sessions hold them, nothing is wrong */
	q.f.active = 100;
	ck_assert_int_eq(room_stalled(&s, &q, T0 + 16000, &since), 0);
}
END_TEST

/* A room of two processes, one silent for 2 s, and one queue. */
START_TEST(test_event_instances_and_alerts)
{
	struct room *r = room_new();
	struct room_instance in[2] = {
		{ "{\"id\":\"a:1\",\"host\":\"a\",\"pid\":1,\"worker\":null,"
		  "\"streams\":3,\"connections\":4,\"requests\":100,"
		  "\"errors_5xx\":0,\"queues\":{\"q\":{\"streams\":3,"
		  "\"refused\":{\"rate\":4}}}}", T0 - 100 },
		{ "{\"id\":\"b:2\",\"host\":\"b\",\"pid\":2,\"worker\":0,"
		  "\"streams\":5,\"connections\":5,\"requests\":10,"
		  "\"errors_5xx\":1,\"queues\":{\"q\":{\"streams\":5}}}",
		  T0 - 2000 },
	};
	struct room_queue *q = calloc(1, sizeof *q);
	struct room_read rr = { .now_ms = T0, .ninstances = 2,
	    .instances = in, .used_memory = 100, .maxmemory = 0,
	    .nqueues = 1, .queues = q };
	const char *names[] = { "q" };
	struct room_local l = { .latency_ms = 0.5 };
	json_t *j, *a;

	*q = queue("rate", "open", 1, 10, 0, 0, 3);
	ck_assert_ptr_nonnull(r);
	j = room_event(r, &rr, names, &l);
	ck_assert_ptr_nonnull(j);
	/* b is missing: its streams do not count, and it raises an alert */
	ck_assert_int_eq(json_integer_value(json_object_get(j, "streams")), 3);
	a = json_object_get(j, "alerts");
	ck_assert_int_eq(json_array_size(a), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(a,
	    0), "kind")), "instance_missing");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(a,
	    0), "instance")), "b:2");
	/* the queue's streams: every report's */
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(
	    json_object_get(j, "queues"), 0), "streams")), 8);
	json_decref(j);
	/* used_memory reached maxmemory: no report can be written, so
	 * none is missing */
	rr.maxmemory = 100;
	j = room_event(r, &rr, names, &l);
	a = json_object_get(j, "alerts");
	ck_assert_int_eq(json_array_size(a), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(a,
	    0), "kind")), "redis_full");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "streams")), 8);
	json_decref(j);
	/* read-only, the same */
	l.readonly = 1;
	rr.maxmemory = 0;
	j = room_event(r, &rr, names, &l);
	a = json_object_get(j, "alerts");
	ck_assert_int_eq(json_array_size(a), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(a,
	    0), "kind")), "redis_readonly");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "streams")), 8);
	json_decref(j);
	room_free(r);
	free(q);
}
END_TEST

START_TEST(test_unreachable)
{
	json_t *j = room_event_unreachable(T0);
	json_t *a = json_object_get(j, "alerts");

	ck_assert(json_is_false(json_object_get(json_object_get(j, "redis"),
	    "reachable")));
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(a,
	    0), "kind")), "redis_unreachable");
	json_decref(j);
}
END_TEST

START_TEST(test_history_series)
{
	struct room_sample sm[3] = {
		{ 1000, 10, 0, 10, 0 }, { 1001, 15, 2, 13, 2 },
		{ 1003, 25, 2, 23, 2 },
	};
	struct room_series s = { 3, sm };
	const char *names[] = { "q" };
	json_t *h = room_history(&s, names, 1, 900, 1003);
	json_t *q = json_object_get(json_object_get(h, "queues"), "q");
	json_t *jo = json_object_get(q, "joins_per_s");

	/* from the first sample, not from 900 */
	ck_assert_int_eq(json_integer_value(json_object_get(q, "from")), 1000);
	ck_assert_int_eq(json_array_size(jo), 4);
	ck_assert(json_is_null(json_array_get(jo, 0)));
	ck_assert(json_real_value(json_array_get(jo, 1)) == 5);
	/* a second without a sample is null; the next rate spans the gap */
	ck_assert(json_is_null(json_array_get(jo, 2)));
	ck_assert(json_real_value(json_array_get(jo, 3)) == 5);
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(q,
	    "waiting"), 3)), 23);
	json_decref(h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("queue");
	TCase *tc = tcase_create("room");

	tcase_add_test(tc, test_rate_needs_two);
	tcase_add_test(tc, test_rate_window);
	tcase_add_test(tc, test_rate_counter_restarts);
	tcase_add_test(tc, test_rate_ring_wraps);
	tcase_add_test(tc, test_percentiles_none);
	tcase_add_test(tc, test_percentiles_weighted);
	tcase_add_test(tc, test_percentiles_one);
	tcase_add_test(tc, test_stalled_rate);
	tcase_add_test(tc, test_stalled_not_when);
	tcase_add_test(tc, test_stalled_capacity);
	tcase_add_test(tc, test_event_instances_and_alerts);
	tcase_add_test(tc, test_unreachable);
	tcase_add_test(tc, test_history_series);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
