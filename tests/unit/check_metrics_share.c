/*
 * check_metrics_share.c: one scrape tells the whole daemon: each worker's
 * slot added up, streams per queue merged by name, a worker restarted in
 * a slot counting on, and a lone process telling its own figures.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "metrics_share.h"
#include "route.h"
#include "unit.h"

static struct mshare_live live, total;
static struct metrics m;

/* Live figures of streams in queues named by names (NULL-ended). */
static void
live_of(unsigned long streams, int full, const char *const *names,
    const unsigned long *n)
{
	memset(&live, 0, sizeof live);
	live.streams = streams;
	live.streams_max = 1000;
	live.connections = streams + 2;
	live.reconnects_commands = 1;
	live.store_full = full;
	live.store_replicas_short = full;
	for (size_t i = 0; names[i]; i++, live.nqueues++) {
		snprintf(live.queues[i].name, sizeof live.queues[i].name, "%s",
		    names[i]);
		live.queues[i].streams = n[i];
	}
}

/* Run fn in a child, as a worker would; its exit status must be 0. */
static void
in_worker(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void
worker0(void)
{
	static const char *const q[] = { "a", "b", NULL };
	static const unsigned long n[] = { 3, 2 };

	mshare_use(0);
	metrics_http(ROUTE_NONE, 200, 0.01);
	metrics_http(ROUTE_NONE, 204, 0.01);
	metrics_stream_close("entered");
	metrics_store_reset();
	live_of(5, 0, q, n);
	mshare_publish(&live);
}

static void
worker1(void)
{
	static const char *const q[] = { "b", "c", NULL };
	static const unsigned long n[] = { 1, 4 };

	mshare_use(1);
	metrics_http(ROUTE_NONE, 503, 0.2);
	metrics_stream_close("entered");
	metrics_store_reset();		/* the same reset, seen here too */
	live_of(5, 1, q, n);
	mshare_publish(&live);
}

START_TEST(test_workers_add_up)
{
	ck_assert_int_eq(mshare_map(3), 0);
	in_worker(worker0);
	in_worker(worker1);
	mshare_total(&m, &total);
	ck_assert_uint_eq(m.http[ROUTE_NONE][1], 2);		/* 2xx */
	ck_assert_uint_eq(m.http[ROUTE_NONE][4], 1);		/* 5xx */
	ck_assert_uint_eq(m.http_latency.count, 3);
	ck_assert_double_eq_tol(m.http_latency.sum, 0.22, 1e-9);
	ck_assert_uint_eq(m.stream_closes[MCLOSE_ENTERED], 2);
	ck_assert_uint_eq(m.store_resets, 1);	/* not once per worker */
	ck_assert_uint_eq(total.streams, 10);
	ck_assert_uint_eq(total.connections, 14);
	ck_assert_uint_eq(total.streams_max, 2000);
	ck_assert_uint_eq(total.reconnects_commands, 2);
	ck_assert_int_eq(total.store_full, 1);	/* any worker's */
	ck_assert_int_eq(total.store_replicas_short, 1);
	ck_assert_uint_eq(total.nqueues, 3);
	ck_assert_uint_eq(mshare_queue_streams(&total, "a"), 3);
	ck_assert_uint_eq(mshare_queue_streams(&total, "b"), 3);
	ck_assert_uint_eq(mshare_queue_streams(&total, "c"), 4);
	ck_assert_uint_eq(mshare_queue_streams(&total, "d"), 0);
	/* live figures only */
	mshare_total(NULL, &total);
	ck_assert_uint_eq(total.streams, 10);
	mshare_unmap();
}
END_TEST

static void
worker0_again(void)
{
	mshare_use(0);
	metrics_http(ROUTE_NONE, 200, 0.01);
}

START_TEST(test_restart_counts_on)
{
	ck_assert_int_eq(mshare_map(2), 0);
	in_worker(worker0);
	in_worker(worker0_again);
	mshare_total(&m, &total);
	ck_assert_uint_eq(m.http[ROUTE_NONE][1], 3);	/* never back */
	/* the dead worker's live figures stand until the new one's */
	ck_assert_uint_eq(total.streams, 5);
	mshare_unmap();
}
END_TEST

START_TEST(test_queues_bounded)
{
	static const char *names[MSHARE_QUEUES + 1];
	static unsigned long n[MSHARE_QUEUES];
	static char name[MSHARE_QUEUES][8];
	static const char *const more[] = { "q0", "extra", NULL };
	static const unsigned long more_n[] = { 10, 10 };

	ck_assert_int_eq(mshare_map(2), 0);
	for (int i = 0; i < MSHARE_QUEUES; i++) {
		snprintf(name[i], sizeof name[i], "q%d", i);
		names[i] = name[i];
		n[i] = 1;
	}
	mshare_use(0);
	live_of(MSHARE_QUEUES, 0, names, n);
	mshare_publish(&live);
	mshare_use(1);
	live_of(20, 0, more, more_n);
	mshare_publish(&live);
	mshare_total(NULL, &total);
	ck_assert_uint_eq(total.nqueues, MSHARE_QUEUES);
	ck_assert_uint_eq(mshare_queue_streams(&total, "q0"), 11);
	ck_assert_uint_eq(mshare_queue_streams(&total, "q255"), 1);
	ck_assert_uint_eq(mshare_queue_streams(&total, "extra"), 0);
	mshare_unmap();
}
END_TEST

START_TEST(test_alone)
{
	static const char *const q[] = { "a", NULL };
	static const unsigned long n[] = { 2 };

	/* without workers, nothing is mapped: this process's figures */
	metrics_http(ROUTE_NONE, 404, 0.001);
	live_of(2, 0, q, n);
	mshare_publish(&live);
	mshare_total(&m, &total);
	ck_assert_uint_eq(m.http[ROUTE_NONE][3], 1);
	ck_assert_uint_eq(total.streams, 2);
	ck_assert_uint_eq(mshare_queue_streams(&total, "a"), 2);
	/* a slot that is not there changes nothing */
	mshare_use(0);
	metrics_http(ROUTE_NONE, 404, 0.001);
	mshare_total(&m, &total);
	ck_assert_uint_eq(m.http[ROUTE_NONE][3], 2);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("metrics_share");
	TCase *tc = tcase_create("metrics_share");

	tcase_add_test(tc, test_workers_add_up);
	tcase_add_test(tc, test_restart_counts_on);
	tcase_add_test(tc, test_queues_bounded);
	tcase_add_test(tc, test_alone);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
