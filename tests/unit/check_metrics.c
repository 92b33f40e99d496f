/* check_metrics.c: histogram buckets, label escaping, the exposition text. */
#include <stdio.h>
#include <string.h>

#include "metrics.h"
#include "metrics_share.h"
#include "route.h"
#include "unit.h"

START_TEST(test_buckets)
{
	struct histogram h = { { 0 }, 0, 0 };

	histogram_observe(&h, 0);		/* le 0.0005 */
	histogram_observe(&h, 0.0005);		/* on a bound: that bucket */
	histogram_observe(&h, 0.00051);		/* le 0.001 */
	histogram_observe(&h, 0.3);		/* le 0.5 */
	histogram_observe(&h, 2.5);		/* le 2.5, the last bound */
	histogram_observe(&h, 7);		/* +Inf */
	ck_assert_uint_eq(h.counts[0], 2);
	ck_assert_uint_eq(h.counts[1], 1);
	ck_assert_uint_eq(h.counts[9], 1);
	ck_assert_str_eq(histogram_bound(9), "0.5");
	ck_assert_uint_eq(h.counts[METRICS_NBUCKETS - 1], 1);
	ck_assert_str_eq(histogram_bound(METRICS_NBUCKETS - 1), "2.5");
	ck_assert_uint_eq(h.counts[METRICS_NBUCKETS], 1);
	ck_assert_uint_eq(h.count, 6);
	ck_assert(h.sum > 9.80 && h.sum < 9.81);
}
END_TEST

START_TEST(test_label_escape)
{
	struct strbuf b = { 0 };

	metrics_label(&b, "a\\b\"c\nd");
	ck_assert_str_eq(b.s, "a\\\\b\\\"c\\nd");
	strbuf_free(&b);
	metrics_label(&b, "plain-q_1");
	ck_assert_str_eq(b.s, "plain-q_1");
	strbuf_free(&b);
}
END_TEST

START_TEST(test_strbuf_grows)
{
	struct strbuf b = { 0 };

	for (int i = 0; i < 10000; i++)
		strbuf_add(&b, "%04d\n", i % 10000);
	ck_assert_int_eq(b.oom, 0);
	ck_assert_uint_eq(b.len, 50000);
	ck_assert_uint_eq(strlen(b.s), 50000);
	ck_assert(memcmp(b.s + 49995, "9999\n", 5) == 0);
	strbuf_free(&b);
	ck_assert_ptr_null(b.s);
}
END_TEST

/* Does text hold line (a whole line)? */
static int
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

START_TEST(test_format)
{
	struct metrics m;
	struct metrics_process p = { .streams = 3, .connections = 40,
	    .reconnects_commands = 1, .reconnects_subscriber = 2,
	    .streams_max = 1000, .route_name = route_name };
	struct metrics_queue q = { .name = "con\"cert", .state = "paused",
	    .waiting = 10, .active = 2, .last_minute = 5,
	    .totals = { 100, 90, 80, 1, 2, 3 }, .streams = 3 };
	struct strbuf b = { 0 };

	memset(&m, 0, sizeof m);
	m.http[ROUTE_TOKENS][1] = 7;
	m.http[ROUTE_NONE][3] = 2;
	histogram_observe(&m.http_latency, 0.002);
	m.stream_closes[MCLOSE_SLOW_CLIENT] = 4;
	m.conn_closes[MCONN_HEADER_TIMEOUT] = 2000;
	metrics_format(&b, &m, &p, &q, 1);
	ck_assert_int_eq(b.oom, 0);
	ck_assert(has_line(b.s, "# TYPE waitroom_streams_open gauge"));
	ck_assert(has_line(b.s, "waitroom_streams_open 3"));
	ck_assert(has_line(b.s, "waitroom_streams_max 1000"));
	ck_assert(has_line(b.s,
	    "waitroom_http_requests_total{route=\"join\",code=\"2xx\"} 7"));
	ck_assert(has_line(b.s,
	    "waitroom_http_requests_total{route=\"none\",code=\"4xx\"} 2"));
	ck_assert(!strstr(b.s, "code=\"5xx\""));	/* zeros left out */
	ck_assert(has_line(b.s, "# TYPE waitroom_http_request_duration_seconds "
	    "histogram"));
	ck_assert(has_line(b.s,
	    "waitroom_http_request_duration_seconds_bucket{le=\"0.001\"} 0"));
	ck_assert(has_line(b.s,
	    "waitroom_http_request_duration_seconds_bucket{le=\"0.0025\"} 1"));
	ck_assert(has_line(b.s,
	    "waitroom_http_request_duration_seconds_bucket{le=\"+Inf\"} 1"));
	ck_assert(has_line(b.s, "waitroom_http_request_duration_seconds_count 1"));
	ck_assert(has_line(b.s,
	    "waitroom_stream_closes_total{reason=\"slow_client\"} 4"));
	ck_assert(has_line(b.s,
	    "waitroom_redis_reconnects_total{connection=\"subscriber\"} 2"));
	ck_assert(has_line(b.s, "waitroom_connections_open 40"));
	ck_assert(has_line(b.s, "waitroom_connection_closes_total{"
	    "reason=\"header_timeout\"} 2000"));
	ck_assert(has_line(b.s, "waitroom_connection_closes_total{"
	    "reason=\"fd_reserve\"} 0"));
	ck_assert(has_line(b.s,
	    "waitroom_queue_waiting{queue=\"con\\\"cert\"} 10"));
	ck_assert(has_line(b.s,
	    "waitroom_queue_state{queue=\"con\\\"cert\",state=\"paused\"} 1"));
	ck_assert(has_line(b.s,
	    "waitroom_queue_state{queue=\"con\\\"cert\",state=\"open\"} 0"));
	ck_assert(has_line(b.s, "# TYPE waitroom_queue_removed_total counter"));
	ck_assert(has_line(b.s,
	    "waitroom_queue_removed_total{queue=\"con\\\"cert\"} 3"));
	ck_assert(has_line(b.s,
	    "waitroom_queue_admitted_last_minute{queue=\"con\\\"cert\"} 5"));
	ck_assert(b.s[b.len - 1] == '\n');
	strbuf_free(&b);
}
END_TEST

START_TEST(test_counting)
{
	struct metrics *m = metrics_get();

	metrics_http(ROUTE_QUEUE, 404, 0.01);
	metrics_http(ROUTE_QUEUE, 200, 0.01);
	metrics_http(ROUTE_QUEUE, 99, 0.01);		/* ignored */
	metrics_http(METRICS_ROUTES, 200, 0.01);		/* ignored */
	ck_assert_uint_eq(m->http[ROUTE_QUEUE][3], 1);
	ck_assert_uint_eq(m->http[ROUTE_QUEUE][1], 1);
	ck_assert_uint_eq(m->http_latency.count, 2);
	metrics_stream_close("client gone");
	metrics_stream_close("shutdown");
	metrics_stream_close("something new");
	ck_assert_uint_eq(m->stream_closes[MCLOSE_CLIENT_GONE], 1);
	ck_assert_uint_eq(m->stream_closes[MCLOSE_SHUTDOWN], 1);
	ck_assert_uint_eq(m->stream_closes[MCLOSE_OTHER], 1);
	metrics_conn_closes(MCONN_PER_IP, 3);
	ck_assert_uint_eq(m->conn_closes[MCONN_PER_IP], 3);
	ck_assert_str_eq(metrics_conn_close_name(MCONN_PER_IP),
	    "max_conns_per_ip");
}
END_TEST

/* live figures of one worker: streams of queues "a" and, if b, "b" */
static void
publish(unsigned long a, unsigned long b)
{
	static struct mshare_live l;

	memset(&l, 0, sizeof l);
	l.streams = a + b;
	l.reconnects_commands = 1;
	snprintf(l.queues[0].name, sizeof l.queues[0].name, "a");
	l.queues[0].streams = a;
	snprintf(l.queues[1].name, sizeof l.queues[1].name, "b");
	l.queues[1].streams = b;
	l.nqueues = b ? 2 : 1;
	mshare_publish(&l);
}

/* Workers count in their own slots; a scrape adds them up. */
START_TEST(test_share)
{
	static struct mshare_live t;
	struct metrics *own = metrics_get(), m;

	ck_assert_int_eq(mshare_map(3), 0);
	mshare_use(0);
	ck_assert_ptr_ne(metrics_get(), own);
	metrics_http(ROUTE_HEALTHZ, 200, 0.001);
	metrics_stream_close("slow client");
	publish(2, 0);
	mshare_use(1);
	metrics_http(ROUTE_HEALTHZ, 200, 0.001);
	metrics_http(ROUTE_HEALTHZ, 503, 3);
	publish(2, 1);
	mshare_total(&m, &t);
	ck_assert_uint_eq(m.http[ROUTE_HEALTHZ][1], 2);
	ck_assert_uint_eq(m.http[ROUTE_HEALTHZ][4], 1);
	ck_assert_uint_eq(m.http_latency.count, 3);
	ck_assert_uint_eq(m.http_latency.counts[METRICS_NBUCKETS], 1);
	ck_assert_uint_eq(m.stream_closes[MCLOSE_SLOW_CLIENT], 1);
	ck_assert_uint_eq(t.streams, 5);
	ck_assert_uint_eq(t.reconnects_commands, 2);
	ck_assert_uint_eq(mshare_queue_streams(&t, "a"), 4);
	ck_assert_uint_eq(mshare_queue_streams(&t, "b"), 1);
	ck_assert_uint_eq(mshare_queue_streams(&t, "c"), 0);
	memset(&t, 0, sizeof t);
	mshare_total(NULL, &t);			/* the live figures only */
	ck_assert_uint_eq(t.streams, 5);
	/* slot 0 again, as a restarted worker: it counts on */
	mshare_use(0);
	metrics_http(ROUTE_HEALTHZ, 200, 0.001);
	mshare_total(&m, &t);
	ck_assert_uint_eq(m.http[ROUTE_HEALTHZ][1], 3);
	mshare_unmap();
	ck_assert_ptr_eq(metrics_get(), own);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("metrics");

	tcase_add_test(tc, test_buckets);
	tcase_add_test(tc, test_label_escape);
	tcase_add_test(tc, test_strbuf_grows);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_counting);
	tcase_add_test(tc, test_share);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
