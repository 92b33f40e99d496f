/* metrics.c: this process's counters and their Prometheus text; see .h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

static struct metrics own;
static struct metrics *the_metrics = &own;	/* where counting goes */

static const double bounds[METRICS_NBUCKETS] = { 0.0005, 0.001, 0.0025,
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5 };
static const char *const bound_text[METRICS_NBUCKETS] = { "0.0005", "0.001",
    "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1",
    "2.5" };

static const char *const close_names[MCLOSE_NREASONS] = { "client_gone",
    "slow_client", "shutdown", "entered", "gone", "other" };

static const char *const conn_close_names[MCONN_NREASONS] = {
    "header_timeout", "body_timeout", "max_conns_per_ip", "fd_reserve" };

static const char *const pow_refusal_names[MPOW_NREASONS] = {
    "challenge_required", "challenge_failed", "challenge_expired",
    "challenge_used", "challenge_too_easy" };

static const char *const class_names[5] = { "1xx", "2xx", "3xx", "4xx",
    "5xx" };

static const struct {
	const char *name, *help;
} totals[METRICS_NTOTALS] = {
	{ "joined", "Tokens joined" }, { "admitted", "Tokens admitted" },
	{ "expired", "Sessions expired" }, { "left", "Tokens left" },
	{ "abandoned", "Tokens abandoned" }, { "removed", "Tokens removed" },
	{ "noshows", "Sessions whose pass was never checked within "
	  "noshow_after" },
};

void
strbuf_add(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (int tries = 0; tries < 2 && !b->oom; tries++) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
		    b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && (size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap ? b->cap : 4096) * 2 + (size_t)n;
		char *s = realloc(b->s, cap);

		if (s == NULL) {
			b->oom = 1;
			return;
		}
		b->s = s, b->cap = cap;
	}
}

void
strbuf_free(struct strbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

struct metrics *
metrics_get(void)
{
	return the_metrics;
}

void
metrics_count_in(struct metrics *m)
{
	the_metrics = m ? m : &own;
}

void
histogram_observe(struct histogram *h, double v)
{
	int i = 0;

	while (i < METRICS_NBUCKETS && v > bounds[i])
		i++;
	h->counts[i]++;
	h->count++;
	h->sum += v;
}

const char *
histogram_bound(int i)
{
	return bound_text[i];
}

void
metrics_http(int route, int code, double seconds)
{
	if (route < 0 || route >= METRICS_ROUTES || code < 100 || code > 599)
		return;
	the_metrics->http[route][code / 100 - 1]++;
	histogram_observe(&the_metrics->http_latency, seconds);
}

void
metrics_redis(double seconds)
{
	histogram_observe(&the_metrics->redis_latency, seconds);
}

void
metrics_stream_close(const char *reason)
{
	static const char *const logged[MCLOSE_OTHER] = { "client gone",
	    "slow client", "shutdown", "entered", "gone" };
	int i = 0;

	while (i < MCLOSE_OTHER && strcmp(logged[i], reason) != 0)
		i++;
	the_metrics->stream_closes[i]++;
}

void
metrics_store_reset(void)
{
	the_metrics->store_resets++;
}

void
metrics_pow_issued(void)
{
	the_metrics->pow_issued++;
}

void
metrics_pow_refused(enum metrics_pow_refusal reason)
{
	the_metrics->pow_refused[reason]++;
}

void
metrics_conn_closes(enum metrics_conn_close reason, unsigned long n)
{
	the_metrics->conn_closes[reason] += n;
}

const char *
metrics_conn_close_name(enum metrics_conn_close reason)
{
	return conn_close_names[reason];
}

void
metrics_label(struct strbuf *b, const char *value)
{
	for (const char *p = value; *p != '\0'; p++) {
		if (*p == '\\')
			strbuf_add(b, "\\\\");
		else if (*p == '"')
			strbuf_add(b, "\\\"");
		else if (*p == '\n')
			strbuf_add(b, "\\n");
		else
			strbuf_add(b, "%c", *p);
	}
}

static void
family(struct strbuf *b, const char *name, const char *type, const char *help)
{
	strbuf_add(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
gauge(struct strbuf *b, const char *name, const char *help, unsigned long v)
{
	family(b, name, "gauge", help);
	strbuf_add(b, "%s %lu\n", name, v);
}

/* A counter with a line for every reason of names. */
static void
by_reason(struct strbuf *b, const char *name, const char *help,
    const char *const *names, const unsigned long long *counts, int n)
{
	family(b, name, "counter", help);
	for (int i = 0; i < n; i++)
		strbuf_add(b, "%s{reason=\"%s\"} %llu\n", name, names[i],
		    counts[i]);
}

static void
histogram_format(struct strbuf *b, const char *name, const char *help,
    const struct histogram *h)
{
	unsigned long long cum = 0;

	family(b, name, "histogram", help);
	for (int i = 0; i < METRICS_NBUCKETS; i++) {
		cum += h->counts[i];
		strbuf_add(b, "%s_bucket{le=\"%s\"} %llu\n", name, bound_text[i],
		    cum);
	}
	strbuf_add(b, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.9g\n"
	    "%s_count %llu\n", name, h->count, name, h->sum, name, h->count);
}

static void
format_http(struct strbuf *b, const struct metrics *m,
    const char *(*route_name)(int))
{
	family(b, "waitroom_http_requests_total", "counter",
	    "HTTP requests answered, by route and status class.");
	for (int r = 0; route_name != NULL && r < METRICS_ROUTES; r++)
		for (int c = 0; c < 5; c++)
			if (m->http[r][c] > 0)
				strbuf_add(b, "waitroom_http_requests_total{"
				    "route=\"%s\",code=\"%s\"} %llu\n",
				    route_name(r), class_names[c], m->http[r][c]);
	histogram_format(b, "waitroom_http_request_duration_seconds",
	    "Time from a request's dispatch to its answer (a stream: to its "
	    "headers).", &m->http_latency);
}

static void
format_process(struct strbuf *b, const struct metrics *m,
    const struct metrics_process *p)
{
	gauge(b, "waitroom_streams_open",
	    "Server-Sent Events streams open (all workers).", p->streams);
	gauge(b, "waitroom_streams_max",
	    "Streams accepted before 503 too_many_streams: max_streams, or "
	    "what the descriptor limit leaves (all workers).", p->streams_max);
	by_reason(b, "waitroom_stream_closes_total",
	    "Streams ended, by reason.", close_names, m->stream_closes,
	    MCLOSE_NREASONS);
	gauge(b, "waitroom_connections_open",
	    "HTTP connections open, streams included (all workers).",
	    p->connections);
	by_reason(b, "waitroom_connection_closes_total",
	    "Connections closed before their request was whole, by reason.",
	    conn_close_names, m->conn_closes, MCONN_NREASONS);
	family(b, "waitroom_store_resets_total", "counter",
	    "Times Redis came back without the data this daemon knew (a "
	    "restart without persistence, FLUSHALL).");
	strbuf_add(b, "waitroom_store_resets_total %llu\n", m->store_resets);
	family(b, "waitroom_pow_challenges_issued_total", "counter",
	    "Proof-of-work challenges issued (GET .../challenge and 403s).");
	strbuf_add(b, "waitroom_pow_challenges_issued_total %llu\n",
	    m->pow_issued);
	by_reason(b, "waitroom_pow_joins_refused_total",
	    "Joins refused for their proof of work, by error code.",
	    pow_refusal_names, m->pow_refused, MPOW_NREASONS);
	format_http(b, m, p->route_name);
	histogram_format(b, "waitroom_redis_command_duration_seconds",
	    "Time from sending a Redis command to its answer.",
	    &m->redis_latency);
	family(b, "waitroom_redis_reconnects_total", "counter",
	    "Redis connections lost and made again, by connection.");
	strbuf_add(b, "waitroom_redis_reconnects_total{connection=\"commands\"}"
	    " %lu\nwaitroom_redis_reconnects_total{connection=\"subscriber\"}"
	    " %lu\n", p->reconnects_commands, p->reconnects_subscriber);
	family(b, "waitroom_draining", "gauge",
	    "1 while the process shuts down (and /readyz answers 503).");
	strbuf_add(b, "waitroom_draining %d\n", p->draining);
	family(b, "waitroom_store_full", "gauge",
	    "1 while Redis refuses writes for memory (and /readyz answers "
	    "503 store_full).");
	strbuf_add(b, "waitroom_store_full %d\n", p->store_full);
	family(b, "waitroom_store_replicas_short", "gauge",
	    "1 while fewer Redis replicas confirm writes than "
	    "redis_wait_replicas asks (and /readyz answers 503 "
	    "store_replicas).");
	strbuf_add(b, "waitroom_store_replicas_short %d\n",
	    p->store_replicas_short);
}

/* One line per queue of a figure: name{queue="q"} value. */
static void
queue_line(struct strbuf *b, const char *name, const char *queue,
    const char *extra, long long v)
{
	strbuf_add(b, "%s{queue=\"", name);
	metrics_label(b, queue);
	strbuf_add(b, "\"%s} %lld\n", extra, v);
}

/* A gauge family of one long long field (at off) of every queue. */
static void
queue_gauge(struct strbuf *b, const char *name, const char *help,
    const struct metrics_queue *qs, size_t n, size_t off)
{
	family(b, name, "gauge", help);
	for (size_t i = 0; i < n; i++)
		queue_line(b, name, qs[i].name, "",
		    *(const long long *)((const char *)&qs[i] + off));
}

/* Only queues that ask for a proof of work; no family when none does. */
static void
format_pow_bits(struct strbuf *b, const struct metrics_queue *qs, size_t n)
{
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (qs[i].pow_bits < 0)
			continue;
		if (!any++)
			family(b, "waitroom_queue_pow_difficulty", "gauge",
			    "Leading zero bits a join's proof of work needs "
			    "now.");
		queue_line(b, "waitroom_queue_pow_difficulty", qs[i].name, "",
		    qs[i].pow_bits);
	}
}

/* The same with a value in ms written as seconds. */
static void
queue_line_ms(struct strbuf *b, const char *name, const char *queue,
    long long ms)
{
	strbuf_add(b, "%s{queue=\"", name);
	metrics_label(b, queue);
	strbuf_add(b, "\"} %lld.%03lld\n", ms / 1000, ms % 1000);
}

static void
format_gauges(struct strbuf *b, const struct metrics_queue *qs, size_t n)
{
	static const char *const states[] = { "open", "paused", "closed" };

	queue_gauge(b, "waitroom_queue_waiting", "Tokens waiting in line.",
	    qs, n, offsetof(struct metrics_queue, waiting));
	queue_gauge(b, "waitroom_queue_active",
	    "Admitted sessions not yet ended.", qs, n,
	    offsetof(struct metrics_queue, active));
	queue_gauge(b, "waitroom_queue_admitted_last_minute",
	    "Tokens admitted in the last minute.", qs, n,
	    offsetof(struct metrics_queue, last_minute));
	family(b, "waitroom_queue_streams", "gauge",
	    "Streams of the queue open (all workers).");
	for (size_t i = 0; i < n; i++)
		queue_line(b, "waitroom_queue_streams", qs[i].name, "",
		    (long long)qs[i].streams);
	format_pow_bits(b, qs, n);
	queue_gauge(b, "waitroom_queue_prequeue",
	    "Pre-queue entrants awaiting a scheduled opening's draw.", qs, n,
	    offsetof(struct metrics_queue, prequeue));
	family(b, "waitroom_queue_draw_seconds", "gauge",
	    "How long the queue's draw took (0: no draw yet).");
	for (size_t i = 0; i < n; i++)
		queue_line_ms(b, "waitroom_queue_draw_seconds", qs[i].name,
		    qs[i].draw_ms);
	family(b, "waitroom_queue_state", "gauge",
	    "1 for the queue's state: open, paused or closed.");
	for (size_t i = 0; i < n; i++)
		for (int s = 0; s < 3; s++) {
			char extra[32];

			snprintf(extra, sizeof extra, ",state=\"%s\"", states[s]);
			queue_line(b, "waitroom_queue_state", qs[i].name, extra,
			    strcmp(qs[i].state, states[s]) == 0);
		}
}

/*
 * The times in line of admitted visitors (doc/design.md, "The report"),
 * kept in Redis per bucket: the same on every instance. Bucket i holds
 * waits up to 2^i s; Prometheus's are cumulative.
 */
static void
format_wait(struct strbuf *b, const struct metrics_queue *qs, size_t n)
{
	family(b, "waitroom_queue_wait_seconds", "histogram",
	    "Time in line of admitted visitors, join to admission (shared "
	    "by every instance).");
	for (size_t i = 0; i < n; i++) {
		long long sum = 0;

		for (int k = 0; k < 16; k++) {
			char le[48];

			sum += qs[i].wait[k];
			if (k < 15)
				snprintf(le, sizeof le, ",le=\"%d\"", 1 << k);
			else
				snprintf(le, sizeof le, ",le=\"+Inf\"");
			queue_line(b, "waitroom_queue_wait_seconds_bucket",
			    qs[i].name, le, sum);
		}
		queue_line_ms(b, "waitroom_queue_wait_seconds_sum", qs[i].name,
		    qs[i].wait[16]);
		queue_line(b, "waitroom_queue_wait_seconds_count", qs[i].name,
		    "", sum);
	}
	family(b, "waitroom_queue_eta_new_seconds", "gauge",
	    "The ETA last told a visitor joining the end of the line "
	    "(-1: none yet).");
	for (size_t i = 0; i < n; i++)
		queue_line(b, "waitroom_queue_eta_new_seconds", qs[i].name, "",
		    qs[i].eta_new);
}

/* The totals live in Redis: every instance reports the same figure. */
static void
format_totals(struct strbuf *b, const struct metrics_queue *qs, size_t n)
{
	for (int t = 0; t < METRICS_NTOTALS; t++) {
		char name[64], help[160];

		snprintf(name, sizeof name, "waitroom_queue_%s_total",
		    totals[t].name);
		snprintf(help, sizeof help, "%s since the queue was created "
		    "(shared by every instance).", totals[t].help);
		family(b, name, "counter", help);
		for (size_t i = 0; i < n; i++)
			queue_line(b, name, qs[i].name, "", qs[i].totals[t]);
	}
}

void
metrics_format(struct strbuf *b, const struct metrics *m,
    const struct metrics_process *p, const struct metrics_queue *qs,
    size_t nqueues)
{
	format_process(b, m, p);
	format_gauges(b, qs, nqueues);
	format_totals(b, qs, nqueues);
	format_wait(b, qs, nqueues);
}
