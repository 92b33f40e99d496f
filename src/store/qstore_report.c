/*
 * qstore_report.c: the queue store's call for a queue's report; see
 * qstore_report.h. The figures are copied: hiredis frees a reply when the
 * callback returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "qstore_call.h"
#include "qstore_reply.h"
#include "qstore_report.h"

_Static_assert((int)HISTORY_ROW_BUCKETS == (int)ROW_BUCKETS,
    "scripts.def's HISTORY_ROW is not report_words.def");

/* An optional row, '' for none: 1 when there is one, 0, or -1. */
static int
optional_row(const redisReply *r, size_t i, struct report_row *row)
{
	const char *t = qreply_str(r, i);

	if (t == NULL)
		return -1;
	if (*t == '\0')
		return 0;
	return report_row_parse(t, row) == -1 ? -1 : 1;
}

static char *
draw_str(const redisReply *d, size_t i)
{
	const char *s = qreply_str(d, i);

	return strdup(s ? s : "");
}

static int
read_draw(const redisReply *d, struct report_data *rd)
{
	if (d->type != REDIS_REPLY_ARRAY)
		return -1;
	if (d->elements == 0)
		return 0;
	if (d->elements != REPORT_DRAW_FIELDS)
		return -1;
	rd->drawn = 1;
	rd->draw.seed = draw_str(d, REPORT_DRAW_SEED);
	rd->draw.commit = draw_str(d, REPORT_DRAW_COMMIT);
	rd->draw.beacon = draw_str(d, REPORT_DRAW_BEACON);
	rd->draw.order_sha256 = draw_str(d, REPORT_DRAW_ORDER_SHA256);
	rd->draw.entrants = atoll(d->element[REPORT_DRAW_ENTRANTS]->str ?
	    d->element[REPORT_DRAW_ENTRANTS]->str : "0");
	rd->draw.drawn_at = atoll(d->element[REPORT_DRAW_DRAWN_AT]->str ?
	    d->element[REPORT_DRAW_DRAWN_AT]->str : "0");
	rd->draw.ms = atoll(d->element[REPORT_DRAW_MS]->str ?
	    d->element[REPORT_DRAW_MS]->str : "0");
	return rd->draw.seed && rd->draw.commit && rd->draw.beacon &&
	    rd->draw.order_sha256 ? 0 : -1;
}

/*
 * A report's read: one run of report_read.lua reads at most REPORT_CHUNK
 * rows (about 15 ms of Redis for a day's, bench/report), and a longer
 * range is read a run at a time from the minute after the last row read,
 * its base from the first run and its live row from the last.
 */
#define REPORT_CHUNK 1440

struct report_read {
	struct qstore *qs;
	char queue[CONF_QUEUE_ID_MAX + 1];
	struct report_data rd;
	size_t cap;		/* rows rd.rows has room for */
	int started;		/* rd.from, rd.to and the base are known */
	qs_report_cb *cb;
	void *arg;
};

static int report_next(struct report_read *rr, long long from_s,
    long long to_s);

/* Append the run's rows to rr's; how many it read, or -1. */
static long long
read_rows(const redisReply *rows, struct report_read *rr)
{
	struct report_row *more;

	if (rows->type != REDIS_REPLY_ARRAY)
		return -1;
	if (rr->rd.n + rows->elements > rr->cap) {
		size_t want = rr->cap * 2 + rows->elements;

		if ((more = realloc(rr->rd.rows, want * sizeof *more)) == NULL)
			return -1;
		rr->rd.rows = more, rr->cap = want;
	}
	for (size_t i = 0; i < rows->elements; i++) {
		const char *t = qreply_str(rows, i);

		if (t == NULL ||
		    report_row_parse(t, &rr->rd.rows[rr->rd.n++]) == -1)
			return -1;
	}
	return (long long)rows->elements;
}

/* One run's reply into rr: the number of rows it read, or -1. */
static long long
read_run(const redisReply *rp, struct report_read *rr)
{
	struct report_data *rd = &rr->rd;
	struct report_row base;
	long long from, to, n;
	int has_base;

	if (rp->elements != REPORT_FIELDS ||
	    qreply_num(rp, REPORT_NOW_MS, &rd->now_ms) == -1 ||
	    qreply_num(rp, REPORT_FROM, &from) == -1 ||
	    qreply_num(rp, REPORT_TO, &to) == -1 ||
	    (has_base = optional_row(rp, REPORT_BASE, &base)) == -1 ||
	    (rd->has_live = optional_row(rp, REPORT_LIVE, &rd->live)) == -1 ||
	    (n = read_rows(rp->element[REPORT_ROWS], rr)) == -1)
		return -1;
	if (!rr->started) {
		rd->from = from, rd->to = to;
		rd->has_base = has_base, rd->base = base;
		rr->started = 1;
		if (read_draw(rp->element[REPORT_DRAW], rd) == -1)
			return -1;
	}
	return n;
}

static void
report_data_free(struct report_data *rd)
{
	free(rd->rows);
	free(rd->draw.seed);
	free(rd->draw.commit);
	free(rd->draw.beacon);
	free(rd->draw.order_sha256);
}

static void
report_read_free(struct report_read *rr)
{
	report_data_free(&rr->rd);
	free(rr);
}

static void
read_report(struct qcall *c, enum result r, const redisReply *rp)
{
	struct report_read *rr = c->arg;
	long long n = 0;

	if (r == RESULT_OK)
		r = qreply_first(rp);
	if (r == RESULT_OK && (n = read_run(rp, rr)) == -1)
		r = qcall_misshaped(c);
	/* a whole chunk: there may be more, from the minute after */
	if (r == RESULT_OK && n == REPORT_CHUNK) {
		if (report_next(rr, rr->rd.rows[rr->rd.n - 1].v[ROW_T] +
		    1, rr->rd.to) == 0)
			return;
		r = RESULT_UNAVAILABLE;
	}
	rr->cb(r, r == RESULT_OK ? &rr->rd : NULL, rr->arg);
	report_read_free(rr);
}

/* The run from from_s to to_s (-1: the script's defaults); -1 when it
 * could not be sent. */
static int
report_next(struct report_read *rr, long long from_s, long long to_s)
{
	struct qstore *qs = rr->qs;
	struct draw_keys dk;
	struct room_keys rk;
	struct script_call *sc;

	sc = qcall_script(qs, LUA_REPORT_READ, rr->queue, REPORT_READ_K_CONFIG,
	    NULL);
	if (sc != NULL && keys_room_queue(&rk, qs->prefix, rr->queue) == 0 &&
	    keys_draw(&dk, qs->prefix, rr->queue) == 0) {
		script_set(sc, REPORT_READ_K_HISTORY, rk.history);
		script_set(sc, REPORT_READ_K_SERIES, rk.series);
		script_set(sc, REPORT_READ_K_DRAW, dk.draw);
	}
	if (sc != NULL) {
		if (from_s < 0)
			script_set(sc, REPORT_READ_A_FROM, "");
		else
			script_set_num(sc, REPORT_READ_A_FROM, from_s);
		if (to_s < 0)
			script_set(sc, REPORT_READ_A_TO, "");
		else
			script_set_num(sc, REPORT_READ_A_TO, to_s);
		script_set_num(sc, REPORT_READ_A_LIMIT, REPORT_CHUNK);
	}
	return qcall_eval(qs, qcall_new(qs, read_report, NULL, rr,
	    "report_read", rr->queue), sc);
}

int
qstore_report(struct qstore *qs, const char *queue, long long from_s,
    long long to_s, qs_report_cb *cb, void *arg)
{
	struct report_read *rr = calloc(1, sizeof *rr);

	if (rr == NULL)
		return -1;
	rr->qs = qs, rr->cb = cb, rr->arg = arg;
	snprintf(rr->queue, sizeof rr->queue, "%s", queue);
	if (report_next(rr, from_s, to_s) == -1) {
		free(rr);
		return -1;
	}
	return 0;
}
