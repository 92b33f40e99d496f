/*
 * qstore_draw.c: the queue store's calls of a scheduled queue's draw, and
 * the reading of their replies (scripts.def's DRAW_* shapes); see
 * qstore_draw.h. KEYS are lib.lua's ten queue keys, then the draw's
 * (keys.c: keys_draw).
 */
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "events.h"
#include "keys.h"
#include "qstore_call.h"
#include "qstore_draw.h"
#include "qstore_reply.h"
#include "script.h"

/* ---- the replies ------------------------------------------------------ */

/* Every reply of draw_step.lua starts with its kind. */
#define DRAW_KIND (int)DRAW_HASH_KIND
_Static_assert((int)DRAW_MORE_KIND == DRAW_KIND &&
    (int)DRAW_SUM_KIND == DRAW_KIND && (int)DRAW_BYTES_KIND == DRAW_KIND &&
    (int)DRAW_DRAWN_KIND == DRAW_KIND,
    "scripts.def: a draw_step.lua reply not led by its kind");

static const char *const draw_kinds[] = {
	[QS_DRAW_BUSY] = "busy", [QS_DRAW_IDLE] = "idle",
	[QS_DRAW_HASH] = "hash", [QS_DRAW_MORE] = "more",
	[QS_DRAW_SUM] = "sum", [QS_DRAW_BYTES] = "bytes",
	[QS_DRAW_DRAWN] = "drawn",
};

/* The entrants read (none: all were): tokens allocated into *list. */
static int
draw_hash(const redisReply *r, struct qs_draw_step *d, const char ***list)
{
	size_t n;

	if (r->elements < DRAW_HASH_TOKENS)
		return -1;
	n = r->elements - DRAW_HASH_TOKENS;
	if ((d->seed = qreply_str(r, DRAW_HASH_SEED)) == NULL ||
	    (d->beacon = qreply_str(r, DRAW_HASH_BEACON)) == NULL ||
	    (d->last = qreply_str(r, DRAW_HASH_LAST)) == NULL ||
	    qreply_num(r, DRAW_HASH_BASE, &d->base) == -1 ||
	    (*list = calloc(n + 1, sizeof **list)) == NULL)
		return -1;
	d->tokens = *list, d->n = n;
	for (size_t i = 0; i < n; i++)
		if ((d->tokens[i] = qreply_str(r, DRAW_HASH_TOKENS + i)) ==
		    NULL)
			return -1;
	return 0;
}

/* Field i, a string, into *bytes and *len (borrowed). */
static int
draw_text(const redisReply *r, size_t i, const char **bytes, size_t *len)
{
	if (r->element[i]->type != REDIS_REPLY_STRING)
		return -1;
	*bytes = r->element[i]->str, *len = r->element[i]->len;
	return 0;
}

/* A step's reply into d: its kind, then the fields of that kind's shape.
 * The tokens of a HASH step are allocated into *list (free it). */
static int
draw_step_reply(const redisReply *r, struct qs_draw_step *d,
    const char ***list)
{
	const char *w = qreply_str(r, DRAW_KIND);
	size_t k;

	memset(d, 0, sizeof *d);
	*list = NULL;
	if (w == NULL)
		return -1;
	for (k = 0; k < sizeof draw_kinds / sizeof draw_kinds[0]; k++)
		if (strcmp(w, draw_kinds[k]) == 0)
			break;
	d->kind = (enum qs_draw_kind)k;
	switch (k) {
	case QS_DRAW_HASH:
		return draw_hash(r, d, list);
	case QS_DRAW_BYTES:
		return r->elements == DRAW_BYTES_FIELDS ? draw_text(r,
		    DRAW_BYTES_TEXT, &d->bytes, &d->len) : -1;
	case QS_DRAW_DRAWN:
		return r->elements == DRAW_DRAWN_FIELDS &&
		    qreply_num(r, DRAW_DRAWN_ENTRANTS, &d->entrants) == 0 &&
		    qreply_num(r, DRAW_DRAWN_STARTED_MS, &d->started_ms) == 0 &&
		    qreply_num(r, DRAW_DRAWN_NOW_MS, &d->now_ms) == 0 ? 0 : -1;
	case QS_DRAW_MORE:
		return r->elements == DRAW_MORE_FIELDS &&
		    draw_text(r, DRAW_MORE_PIECE, &d->bytes, &d->len) == 0 &&
		    qreply_num(r, DRAW_MORE_INDEX, &d->index) == 0 &&
		    qreply_num(r, DRAW_MORE_BASE, &d->base) == 0 ? 0 : -1;
	case QS_DRAW_SUM:
		return r->elements == DRAW_SUM_FIELDS &&
		    qreply_num(r, DRAW_SUM_PIECES, &d->index) == 0 ? 0 : -1;
	case QS_DRAW_BUSY: case QS_DRAW_IDLE:
		return 0;
	}
	return -1;
}

/* A string field, or "" for a nil (an unset field of the draw's hash). */
static const char *
str_or_empty(const redisReply *r, size_t i)
{
	const char *s = qreply_str(r, i);

	return s ? s : "";
}

static int
draw_view_reply(const redisReply *r, struct qs_draw_view *v)
{
	memset(v, 0, sizeof *v);
	if (r->type != REDIS_REPLY_ARRAY || r->elements != DRAW_VIEW_FIELDS ||
	    qreply_num(r, DRAW_VIEW_OPENS_AT, &v->opens_at) == -1 ||
	    qreply_num(r, DRAW_VIEW_ENTRANTS, &v->entrants) == -1 ||
	    qreply_num(r, DRAW_VIEW_DRAWN_AT, &v->drawn_at) == -1 ||
	    qreply_num(r, DRAW_VIEW_MS, &v->ms) == -1 ||
	    (v->state = qreply_str(r, DRAW_VIEW_STATE)) == NULL ||
	    (v->commit = qreply_str(r, DRAW_VIEW_COMMIT)) == NULL)
		return -1;
	v->beacon_round = str_or_empty(r, DRAW_VIEW_BEACON_ROUND);
	v->seed = str_or_empty(r, DRAW_VIEW_SEED);
	v->beacon = str_or_empty(r, DRAW_VIEW_BEACON);
	v->order_sha256 = str_or_empty(r, DRAW_VIEW_ORDER_SHA256);
	return 0;
}

/* ---- the calls -------------------------------------------------------- */

/* A call of script id with queue's keys from slot config on and the
 * draw's hash in slot draw; NULL when out of memory or queue is no
 * queue's name. */
static struct script_call *
draw_script(struct qstore *qs, enum lua_script_id id, const char *queue,
    int config, int draw, struct draw_keys *dk)
{
	struct script_call *sc = qcall_script(qs, id, queue, config, NULL);

	if (sc != NULL && keys_draw(dk, qs->prefix, queue) == 0)
		script_set(sc, draw, dk->draw);
	return sc;
}

static void
read_step(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_draw_step d;
	const char **list = NULL;

	memset(&d, 0, sizeof d);
	if (r == RESULT_OK && draw_step_reply(rp, &d, &list) == -1)
		r = qcall_misshaped(c);
	((qs_draw_step_cb *)c->cb)(r, &d, c->arg);
	free(list);
}

int
qstore_draw_step(struct qstore *qs, const char *queue,
    const struct qs_draw_op *op, qs_draw_step_cb *cb, void *arg)
{
	struct draw_keys dk;
	struct script_call *sc;

	sc = draw_script(qs, LUA_DRAW_STEP, queue, DRAW_STEP_K_CONFIG,
	    DRAW_STEP_K_DRAW, &dk);
	if (sc != NULL) {
		script_set(sc, DRAW_STEP_K_SORTED, dk.sorted);
		script_set(sc, DRAW_STEP_K_ORDER, dk.order);
		script_set(sc, DRAW_STEP_K_LOCK, dk.lock);
		script_set(sc, DRAW_STEP_A_OWNER, op->owner);
		script_set_num(sc, DRAW_STEP_A_LOCK_MS, op->lock_ms);
		script_set_num(sc, DRAW_STEP_A_CHUNK, op->chunk);
		script_set(sc, DRAW_STEP_A_OP, op->op);
		script_set(sc, DRAW_STEP_A_OPERAND, op->operand);
		for (size_t i = 0; i < op->n; i++)
			script_add(sc, DRAW_STEP_A_MEMBERS, op->members[i]);
	}
	return qcall_eval(qs, qcall_new(qs, read_step, cb, arg, "draw_step",
	    queue), sc);
}

static void
read_view(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_draw_view v;

	memset(&v, 0, sizeof v);
	if (r == RESULT_OK && (r = qreply_first(rp)) == RESULT_OK &&
	    draw_view_reply(rp, &v) == -1)
		r = qcall_misshaped(c);
	((qs_draw_view_cb *)c->cb)(r, &v, c->arg);
}

int
qstore_draw_show(struct qstore *qs, const char *queue, qs_draw_view_cb *cb,
    void *arg)
{
	struct draw_keys dk;

	return qcall_eval(qs, qcall_new(qs, read_view, cb, arg, "draw_show",
	    queue), draw_script(qs, LUA_DRAW_SHOW, queue, DRAW_SHOW_K_CONFIG,
	    DRAW_SHOW_K_DRAW, &dk));
}

int
qstore_draw_commit(struct qstore *qs, const char *queue,
    const char *seed_hex, const char *commit_hex, qs_done_cb *cb, void *arg)
{
	struct draw_keys dk;
	struct script_call *sc;

	sc = draw_script(qs, LUA_DRAW_COMMIT, queue, DRAW_COMMIT_K_CONFIG,
	    DRAW_COMMIT_K_DRAW, &dk);
	if (sc != NULL) {
		script_set(sc, DRAW_COMMIT_A_SEED, seed_hex);
		script_set(sc, DRAW_COMMIT_A_COMMIT, commit_hex);
	}
	return qcall_eval(qs, qcall_new(qs, qcall_read_done, cb, arg,
	    "draw_commit", queue), sc);
}

int
qstore_draw_beacon(struct qstore *qs, const char *queue,
    const char *beacon_hex, const char *admin, qs_done_cb *cb, void *arg)
{
	struct draw_keys dk;
	struct script_call *sc;

	sc = draw_script(qs, LUA_DRAW_BEACON, queue, DRAW_BEACON_K_CONFIG,
	    DRAW_BEACON_K_DRAW, &dk);
	if (sc != NULL) {
		script_set(sc, DRAW_BEACON_A_BEACON, beacon_hex);
		script_set(sc, DRAW_BEACON_A_QUEUE, queue);
		qcall_trail(qs, sc, DRAW_BEACON_K_TRAIL,
		    DRAW_BEACON_A_ADMIN, admin);
	}
	return qcall_eval(qs, qcall_new(qs, qcall_read_done, cb, arg,
	    "draw_beacon", queue), sc);
}

static void
read_bytes(struct qcall *c, enum result r, const redisReply *rp)
{
	int str = r == RESULT_OK && rp->type == REDIS_REPLY_STRING;

	if (r == RESULT_OK && !str && rp->type != REDIS_REPLY_NIL)
		r = qcall_misshaped(c);
	((qs_draw_bytes_cb *)c->cb)(r, str ? rp->str : "", str ? rp->len : 0,
	    c->arg);
}

int
qstore_draw_order(struct qstore *qs, const char *queue, long long i,
    qs_draw_bytes_cb *cb, void *arg)
{
	char index[DECIMAL_MAX + 1];
	const char *argv[] = { "LINDEX", NULL, index };
	struct draw_keys dk;

	if (keys_draw(&dk, qs->prefix, queue) == -1)
		return -1;
	argv[1] = dk.order;
	decimal_str(index, i);
	return qcall_command(qs, qcall_new(qs, read_bytes, cb, arg, "lindex",
	    queue), 3, argv);
}

static void
read_announced(struct qcall *c, enum result r, const redisReply *rp)
{
	(void)c, (void)r, (void)rp;	/* streams push anyway, just later */
}

int
qstore_draw_announce(struct qstore *qs, const char *queue)
{
	struct queue_keys k;
	char msg[16];
	const char *argv[] = { "PUBLISH", k.events, msg };

	if (keys_queue(&k, qs->prefix, queue) == -1 ||
	    event_format(msg, sizeof msg, EVENT_DRAWN, NULL, NULL, 0) == -1)
		return -1;
	return qcall_command(qs, qcall_new(qs, read_announced, NULL, NULL,
	    "publish", queue), 3, argv);
}
