/*
 * qstore_room.c: the queue store's calls for the operator's console; see
 * qstore_room.h. qstore_reply.c reads the replies into plain figures,
 * copied: hiredis frees a reply when the callback returns.
 */
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "qstore_call.h"
#include "qstore_reply.h"
#include "qstore_room.h"
#include "script.h"

#define ROOM_QUEUES_MAX 4096	/* queues in one call */

/* The keys of names' queues into sc's runs: queues (their ten), series,
 * joins, waits and history (keys.c's room_keys), and their names, each -1
 * when sc takes none. -1 when a name is not a queue's. */
struct room_runs {
	int queues, series, joins, waits, history, names;
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
		if (runs.history >= 0)
			script_add(sc, runs.history, rk.history);
		if (runs.names >= 0)
			script_add(sc, runs.names, names[i]);
	}
	return 0;
}

static void
read_beat(struct qcall *c, enum result r, const redisReply *rp)
{
	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != BEAT_FIELDS))
		r = qcall_misshaped(c);
	((qs_done_cb *)c->cb)(r, c->arg);
}

int
qstore_room_beat(struct qstore *qs, const char *id, const char *beat,
    const char *const *names, size_t n, qs_done_cb *cb, void *arg)
{
	struct room_names rn;
	struct script_call *sc;

	if (n > ROOM_QUEUES_MAX || keys_room(&rn, qs->prefix) == -1 ||
	    (sc = script_call_new(LUA_ROOM_BEAT)) == NULL)
		return -1;
	script_set(sc, ROOM_BEAT_K_ROOM, rn.room);
	script_set(sc, ROOM_BEAT_K_ROOM_SEEN, rn.seen);
	script_set(sc, ROOM_BEAT_K_SECOND, rn.second);
	script_set(sc, ROOM_BEAT_A_ID, id);
	script_set(sc, ROOM_BEAT_A_BEAT, beat);
	if (room_queue_keys(qs, sc, names, n, (struct room_runs){
	    ROOM_BEAT_K_QUEUES, ROOM_BEAT_K_SERIES, ROOM_BEAT_K_JOINS,
	    -1, ROOM_BEAT_K_HISTORY, ROOM_BEAT_A_NAMES }) == -1) {
		script_call_free(sc);
		return -1;
	}
	return qcall_eval(qs, qcall_new(qs, read_beat, cb, arg,
	    "room_beat", NULL), sc);
}

/* ---- the room -------------------------------------------------------- */

static void
read_room_reply(struct qcall *c, enum result r, const redisReply *rp)
{
	struct room_read rr;

	memset(&rr, 0, sizeof rr);
	if (r == RESULT_OK && qreply_room(rp, c->n, &rr) == -1)
		r = qcall_misshaped(c);
	((qs_room_cb *)c->cb)(r, r == RESULT_OK ? &rr : NULL, c->arg);
	qreply_room_free(&rr);
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
	    ROOM_READ_K_QUEUES, -1, -1, ROOM_READ_K_WAITS, -1, -1 }) == -1) {
		script_call_free(sc);
		return -1;
	}
	if ((c = qcall_new(qs, read_room_reply, cb, arg, "room_read",
	    NULL)) != NULL)
		c->n = n;
	return qcall_eval(qs, c, sc);
}

/* ---- the history ----------------------------------------------------- */

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
		if (qreply_series(rp->element[i], &s[i]) == -1)
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
	    ROOM_HISTORY_K_SERIES, -1, -1, -1, -1 }) == -1) {
		script_call_free(sc);
		return -1;
	}
	if ((c = qcall_new(qs, read_history, cb, arg, "room_history",
	    NULL)) != NULL)
		c->n = n;
	return qcall_eval(qs, c, sc);
}
