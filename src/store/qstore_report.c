/*
 * qstore_report.c: the queue store's call for a queue's report; see
 * qstore_report.h. The figures are copied: hiredis frees a reply when the
 * callback returns.
 */
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "qstore_call.h"
#include "qstore_reply.h"
#include "qstore_report.h"

/* An optional row, '' for none: 1 when there is one, 0, or -1. */
static int
optional_row(const redisReply *r, size_t i, struct report_row *row)
{
	const char *t = qreply_str(r, i);

	if (t == NULL)
		return -1;
	if (*t == '\0')
		return 0;
	return qreply_history_row(t, row) == -1 ? -1 : 1;
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

static int
read_report_reply(const redisReply *rp, struct report_data *rd)
{
	const redisReply *rows;

	if (rp->elements != REPORT_FIELDS ||
	    qreply_num(rp, REPORT_NOW_MS, &rd->now_ms) == -1 ||
	    qreply_num(rp, REPORT_FROM, &rd->from) == -1 ||
	    qreply_num(rp, REPORT_TO, &rd->to) == -1 ||
	    (rd->has_base = optional_row(rp, REPORT_BASE, &rd->base)) == -1 ||
	    (rd->has_live = optional_row(rp, REPORT_LIVE, &rd->live)) == -1)
		return -1;
	rows = rp->element[REPORT_ROWS];
	if (rows->type != REDIS_REPLY_ARRAY || (rd->rows = calloc(
	    rows->elements ? rows->elements : 1, sizeof *rd->rows)) == NULL)
		return -1;
	for (size_t i = 0; i < rows->elements; i++) {
		const char *t = qreply_str(rows, i);

		if (t == NULL || qreply_history_row(t, &rd->rows[rd->n++]) == -1)
			return -1;
	}
	return read_draw(rp->element[REPORT_DRAW], rd);
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
read_report(struct qcall *c, enum result r, const redisReply *rp)
{
	struct report_data rd;

	memset(&rd, 0, sizeof rd);
	if (r == RESULT_OK)
		r = qreply_first(rp);
	if (r == RESULT_OK && read_report_reply(rp, &rd) == -1)
		r = qcall_misshaped(c);
	((qs_report_cb *)c->cb)(r, r == RESULT_OK ? &rd : NULL, c->arg);
	report_data_free(&rd);
}

int
qstore_report(struct qstore *qs, const char *queue, long long from_s,
    long long to_s, qs_report_cb *cb, void *arg)
{
	struct draw_keys dk;
	struct room_keys rk;
	struct script_call *sc;

	sc = qcall_script(qs, LUA_REPORT_READ, queue, REPORT_READ_K_CONFIG,
	    NULL);
	if (sc != NULL && keys_room_queue(&rk, qs->prefix, queue) == 0 &&
	    keys_draw(&dk, qs->prefix, queue) == 0) {
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
	}
	return qcall_eval(qs, qcall_new(qs, read_report, cb, arg,
	    "report_read", queue), sc);
}
