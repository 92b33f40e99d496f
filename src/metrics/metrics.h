/*
 * metrics.h: what this process counts, and the Prometheus text exposition
 * format (version 0.0.4) of it. Counting is a few additions on the loop;
 * formatting is pure (no I/O), so the unit tests check the text itself.
 *
 * One set of counters per process, written only by its single-threaded
 * loop, so no locking; with workers, each counts in a slot that the others
 * read to add up (metrics_share.h).
 */
#ifndef WR_METRICS_H
#define WR_METRICS_H

#include <stddef.h>

/* Routes counted, by their id (route.h's, fewer than this). */
#define METRICS_ROUTES 48


/* Upper bounds of the latency histograms' buckets, in seconds. */
#define METRICS_NBUCKETS 12

struct histogram {
	unsigned long long counts[METRICS_NBUCKETS + 1];	/* last: +Inf */
	unsigned long long count;
	double sum;
};

enum metrics_close {
	MCLOSE_CLIENT_GONE, MCLOSE_SLOW_CLIENT, MCLOSE_SHUTDOWN, MCLOSE_ENTERED,
	MCLOSE_GONE, MCLOSE_OTHER, MCLOSE_NREASONS
};

/* Why waitroomd closed a connection before it had a whole request. */
enum metrics_conn_close {
	MCONN_HEADER_TIMEOUT, MCONN_BODY_TIMEOUT, MCONN_PER_IP,
	MCONN_FD_RESERVE, MCONN_NREASONS
};

/* Why a join's proof of work was refused (its 403 codes). */
enum metrics_pow_refusal {
	MPOW_REQUIRED, MPOW_FAILED, MPOW_EXPIRED, MPOW_USED, MPOW_TOO_EASY,
	MPOW_NREASONS
};

struct metrics {
	unsigned long long http[METRICS_ROUTES][5];	/* by route, 1xx..5xx */
	struct histogram http_latency;
	struct histogram redis_latency;
	unsigned long long stream_closes[MCLOSE_NREASONS];
	/* Redis came back without its data; every worker sees each one. */
	unsigned long long store_resets;
	unsigned long long conn_closes[MCONN_NREASONS];
	unsigned long long pow_issued;		/* challenges */
	unsigned long long pow_refused[MPOW_NREASONS];	/* joins */
};

/* A queue's totals: joined, admitted, expired, left, abandoned, removed,
 * noshows (admin_show.lua's order). */
#define METRICS_NTOTALS 7

/* One queue's figures, as admin_show.lua reports them. */
struct metrics_queue {
	const char *name;
	const char *state;		/* open, paused, closed */
	long long waiting, active, last_minute;
	long long totals[METRICS_NTOTALS];	/* joined .. removed, noshows */
	unsigned long streams;		/* open on this instance */
	int pow_bits;			/* asked now; -1: off or unknown */
	long long prequeue;		/* entrants awaiting the draw */
	long long draw_ms;		/* the last draw took; 0: none */
	long long wait[17];		/* times in line: 16 buckets (1, 2,
					 * 4 ... 16384 s, +Inf), sum in ms */
	long long eta_new;		/* last told a new waiter, s; -1 */
};

/* What this process keeps besides struct metrics. */
struct metrics_process {
	unsigned long streams;
	unsigned long connections;
	unsigned long reconnects_commands, reconnects_subscriber;
	int draining;
	int store_full;		/* Redis refuses writes for memory */
	int store_replicas_short;	/* fewer replicas confirm than asked */
	unsigned long streams_max;	/* accepted before 503 too_many_streams */
	/* The name of route id in the label (route.h's route_name). */
	const char *(*route_name)(int id);
};

/* A growing string; on allocation failure it stays short and sets oom. */
struct strbuf {
	char *s;
	size_t len, cap;
	int oom;
};

void strbuf_add(struct strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_free(struct strbuf *b);

/* This process's counters. */
struct metrics *metrics_get(void);
/* Count in m from now on (a worker's shared slot); NULL: the process's own. */
void metrics_count_in(struct metrics *m);
void metrics_http(int route, int code, double seconds);
void metrics_redis(double seconds);
/* reason as stream_close logs it: "client gone", "slow client"... */
void metrics_stream_close(const char *reason);
void metrics_store_reset(void);
void metrics_pow_issued(void);
void metrics_pow_refused(enum metrics_pow_refusal reason);
/* n connections closed for reason. */
void metrics_conn_closes(enum metrics_conn_close reason, unsigned long n);
/* The reason's name, in the metric's label and in logs: "header_timeout". */
const char *metrics_conn_close_name(enum metrics_conn_close reason);

void histogram_observe(struct histogram *h, double v);
/* The upper bound of bucket i (i < METRICS_NBUCKETS), as text. */
const char *histogram_bound(int i);

/* A label value with \, " and newline escaped, as the format wants. */
void metrics_label(struct strbuf *b, const char *value);

/* The whole exposition: process figures, then one set per queue. */
void metrics_format(struct strbuf *b, const struct metrics *m,
    const struct metrics_process *p, const struct metrics_queue *qs,
    size_t nqueues);

#endif
