/*
 * qstore_room.c: the queue store's calls for the operator's console; see
 * qstore_room.h. Redis's reply is read here into plain figures, copied:
 * hiredis frees it when the callback returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "qstore_call.h"
#include "qstore_reply.h"
#include "qstore_room.h"
#include "script.h"

#define ROOM_QUEUES_MAX 4096	/* queues in one call */

/* The keys of names' queues into sc's runs: queues (their seven), series,
 * joins and waits (keys.c's room_keys), each -1 when sc takes none. -1
 * when a name is not a queue's. */
struct room_runs {
	int queues, series, joins, waits;
};

static int
room_queue_keys(struct qstore *qs, struct script_call *sc,
    const char *const *names, size_t n, struct room_runs runs)
{
	struct queue_keys k;
	struct room_keys rk;

	for (size_t i = 0; i < n; i++) {
		if (keys_queue(&k, qs->prefix, names[i]) == -1 ||
		    keys_room_queue(&rk, qs->prefix, names[i]) == -1)
			return -1;
		if (runs.queues >= 0)
			script_add_queue(sc, runs.queues, &k);
		if (runs.series >= 0)
			script_add(sc, runs.series, rk.series);
		if (runs.joins >= 0)
			script_add(sc, runs.joins, rk.joins);
		if (runs.waits >= 0)
			script_add(sc, runs.waits, rk.waits);
	}
	return 0;
}

static void
read_reported(struct qcall *c, enum result r, const redisReply *rp)
{
	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != REPORTED_FIELDS))
		r = qcall_misshaped(c);
	((qs_done_cb *)c->cb)(r, c->arg);
}

int
qstore_room_report(struct qstore *qs, const char *id, const char *report,
    const char *const *names, size_t n, qs_done_cb *cb, void *arg)
{
	struct room_names rn;
	struct script_call *sc;

	if (n > ROOM_QUEUES_MAX || keys_room(&rn, qs->prefix) == -1 ||
	    (sc = script_call_new(LUA_ROOM_REPORT)) == NULL)
		return -1;
	script_set(sc, ROOM_REPORT_K_ROOM, rn.room);
	script_set(sc, ROOM_REPORT_K_ROOM_SEEN, rn.seen);
	script_set(sc, ROOM_REPORT_K_SECOND, rn.second);
	script_set(sc, ROOM_REPORT_A_ID, id);
	script_set(sc, ROOM_REPORT_A_REPORT, report);
	if (room_queue_keys(qs, sc, names, n, (struct room_runs){
	    ROOM_REPORT_K_QUEUES, ROOM_REPORT_K_SERIES, ROOM_REPORT_K_JOINS,
	    -1 }) == -1) {
		script_call_free(sc);
		return -1;
	}
	return qcall_eval(qs, qcall_new(qs, read_reported, cb, arg,
	    "room_report", NULL), sc);
}

/* ---- the room -------------------------------------------------------- */

static void
room_read_free(struct room_read *rr)
{
	for (size_t i = 0; i < rr->ninstances; i++)
		free(rr->instances[i].report);
	free(rr->instances);
	free(rr->queues);
}

static int
read_num(const redisReply *r, size_t i, long long *out)
{
	const char *s = qreply_str(r, i);
	char *end;

	if (r->element[i]->type == REDIS_REPLY_INTEGER) {
		*out = r->element[i]->integer;
		return 0;
	}
	if (s == NULL)
		return -1;
	*out = strtoll(s, &end, 10);
	return end == s ? -1 : 0;
}

static int
read_instances(const redisReply *a, struct room_read *rr)
{
	if (a->type != REDIS_REPLY_ARRAY)
		return -1;
	if ((rr->instances = calloc(a->elements ? a->elements : 1,
	    sizeof *rr->instances)) == NULL)
		return -1;
	for (size_t i = 0; i < a->elements; i++) {
		const redisReply *e = a->element[i];
		struct room_instance *in = &rr->instances[rr->ninstances];
		const char *rep;

		if (e->type != REDIS_REPLY_ARRAY ||
		    e->elements != INSTANCE_FIELDS ||
		    (rep = qreply_str(e, INSTANCE_REPORT)) == NULL ||
		    read_num(e, INSTANCE_SEEN_MS, &in->seen_ms) == -1)
			return -1;
		if ((in->report = strdup(rep)) == NULL)
			return -1;
		rr->ninstances++;
	}
	return 0;
}

static int
read_redis(const redisReply *a, struct room_read *rr)
{
	const char *role;

	if (a->type != REDIS_REPLY_ARRAY || a->elements != ROOM_REDIS_FIELDS ||
	    read_num(a, ROOM_REDIS_USED_MEMORY, &rr->used_memory) == -1 ||
	    read_num(a, ROOM_REDIS_MAXMEMORY, &rr->maxmemory) == -1 ||
	    (role = qreply_str(a, ROOM_REDIS_ROLE)) == NULL)
		return -1;
	snprintf(rr->role, sizeof rr->role, "%s", role);
	return 0;
}

static int
read_waits(const redisReply *a, struct room_queue *q)
{
	if (a->type != REDIS_REPLY_ARRAY)
		return -1;
	for (size_t i = 0; i < a->elements && q->nwaits < ROOM_WAITS_MAX;
	    i++) {
		struct room_wait *w = &q->waits[q->nwaits];
		const char *s = qreply_str(a, i);

		if (s && sscanf(s, "%lld %lld %lld %lld", &w->at_ms,
		    &w->first_ms, &w->last_ms, &w->count) == 4)
			q->nwaits++;
	}
	return 0;
}

static int
read_conf(const redisReply *a, struct room_conf *c)
{
	const char *mode, *state;
	long long held;

	if (a->type != REDIS_REPLY_ARRAY || a->elements != ROOM_FACTS_FIELDS ||
	    (mode = qreply_str(a, ROOM_FACTS_MODE)) == NULL ||
	    (state = qreply_str(a, ROOM_FACTS_STATE)) == NULL ||
	    read_num(a, ROOM_FACTS_BATCH, &c->batch) == -1 ||
	    read_num(a, ROOM_FACTS_INTERVAL, &c->interval) == -1 ||
	    read_num(a, ROOM_FACTS_MAX_ACTIVE, &c->max_active) == -1 ||
	    read_num(a, ROOM_FACTS_ACTIVE_TTL, &c->active_ttl) == -1 ||
	    read_num(a, ROOM_FACTS_OPENS_AT, &c->opens_at) == -1 ||
	    read_num(a, ROOM_FACTS_CLOSES_AT, &c->closes_at) == -1 ||
	    read_num(a, ROOM_FACTS_HELD, &held) == -1)
		return -1;
	snprintf(c->mode, sizeof c->mode, "%s", mode);
	snprintf(c->state, sizeof c->state, "%s", state);
	c->held = held != 0;
	return 0;
}

static int
read_queue(const redisReply *e, struct room_queue *q)
{
	const char *rate;

	if (e->type != REDIS_REPLY_ARRAY)
		return -1;
	if (e->elements == 0)
		return 0;	/* no such queue: f.exists stays 0 */
	if (e->elements != ROOM_QUEUE_FIELDS ||
	    (rate = qreply_str(e, ROOM_QUEUE_RATE)) == NULL ||
	    read_num(e, ROOM_QUEUE_LAST_TICK_MS, &q->last_tick_ms) == -1 ||
	    read_waits(e->element[ROOM_QUEUE_WAITS], q) == -1 ||
	    read_conf(e->element[ROOM_QUEUE_FACTS], &q->c) == -1 ||
	    qreply_figures(e->element[ROOM_QUEUE_SHOW], &q->f) == -1)
		return -1;
	q->rate = strtod(rate, NULL);
	return 0;
}

static int
read_room(const redisReply *rp, size_t n, struct room_read *rr)
{
	const redisReply *qs;

	if (rp->type != REDIS_REPLY_ARRAY || rp->elements != ROOM_FIELDS ||
	    read_num(rp, ROOM_NOW_MS, &rr->now_ms) == -1 ||
	    read_instances(rp->element[ROOM_INSTANCES], rr) == -1 ||
	    read_redis(rp->element[ROOM_REDIS], rr) == -1 ||
	    (qs = rp->element[ROOM_QUEUES])->type != REDIS_REPLY_ARRAY ||
	    qs->elements != n ||
	    (rr->queues = calloc(n ? n : 1, sizeof *rr->queues)) == NULL)
		return -1;
	rr->nqueues = n;
	for (size_t i = 0; i < n; i++)
		if (read_queue(qs->element[i], &rr->queues[i]) == -1)
			memset(&rr->queues[i], 0, sizeof rr->queues[i]);
	return 0;
}

static void
read_room_reply(struct qcall *c, enum result r, const redisReply *rp)
{
	struct room_read rr;

	memset(&rr, 0, sizeof rr);
	if (r == RESULT_OK && read_room(rp, c->n, &rr) == -1)
		r = qcall_misshaped(c);
	((qs_room_cb *)c->cb)(r, r == RESULT_OK ? &rr : NULL, c->arg);
	room_read_free(&rr);
}

int
qstore_room_read(struct qstore *qs, const char *const *names, size_t n,
    qs_room_cb *cb, void *arg)
{
	struct room_names rn;
	struct script_call *sc;
	struct qcall *c;

	if (n > ROOM_QUEUES_MAX || keys_room(&rn, qs->prefix) == -1 ||
	    (sc = script_call_new(LUA_ROOM_READ)) == NULL)
		return -1;
	script_set(sc, ROOM_READ_K_ROOM, rn.room);
	script_set(sc, ROOM_READ_K_ROOM_SEEN, rn.seen);
	if (room_queue_keys(qs, sc, names, n, (struct room_runs){
	    ROOM_READ_K_QUEUES, -1, -1, ROOM_READ_K_WAITS }) == -1) {
		script_call_free(sc);
		return -1;
	}
	if ((c = qcall_new(qs, read_room_reply, cb, arg, "room_read",
	    NULL)) != NULL)
		c->n = n;
	return qcall_eval(qs, c, sc);
}

/* ---- the history ----------------------------------------------------- */

static int
read_series(const redisReply *a, struct room_series *s)
{
	if (a->type != REDIS_REPLY_ARRAY || (s->samples = calloc(a->elements ?
	    a->elements : 1, sizeof *s->samples)) == NULL)
		return -1;
	for (size_t i = 0; i < a->elements; i++) {
		struct room_sample *p = &s->samples[s->n];
		const char *t = qreply_str(a, i);

		if (t && sscanf(t, "{\"t\":%lld,\"joined\":%lld,\"admitted\":"
		    "%lld,\"waiting\":%lld,\"active\":%lld}", &p->t, &p->joined,
		    &p->admitted, &p->waiting, &p->active) == 5)
			s->n++;
	}
	return 0;
}

static void
read_history(struct qcall *c, enum result r, const redisReply *rp)
{
	struct room_series *s = NULL;

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != c->n))
		r = qcall_misshaped(c);
	if (r == RESULT_OK && (s = calloc(c->n ? c->n : 1, sizeof *s)) == NULL)
		r = RESULT_ERROR;
	for (size_t i = 0; r == RESULT_OK && i < c->n; i++)
		if (read_series(rp->element[i], &s[i]) == -1)
			r = RESULT_ERROR;
	((qs_series_cb *)c->cb)(r, r == RESULT_OK ? s : NULL, c->n, c->arg);
	for (size_t i = 0; s && i < c->n; i++)
		free(s[i].samples);
	free(s);
}

int
qstore_room_history(struct qstore *qs, const char *const *names, size_t n,
    long long from_s, qs_series_cb *cb, void *arg)
{
	struct script_call *sc;
	struct qcall *c;

	if (n > ROOM_QUEUES_MAX ||
	    (sc = script_call_new(LUA_ROOM_HISTORY)) == NULL)
		return -1;
	script_set_num(sc, ROOM_HISTORY_A_FROM, from_s);
	if (room_queue_keys(qs, sc, names, n, (struct room_runs){ -1,
	    ROOM_HISTORY_K_SERIES, -1, -1 }) == -1) {
		script_call_free(sc);
		return -1;
	}
	if ((c = qcall_new(qs, read_history, cb, arg, "room_history",
	    NULL)) != NULL)
		c->n = n;
	return qcall_eval(qs, c, sc);
}
