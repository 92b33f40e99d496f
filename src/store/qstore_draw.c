/*
 * qstore_draw.c: the queue store's calls of a scheduled queue's draw;
 * see qstore_draw.h. KEYS are lib.lua's seven queue keys, then the draw's
 * (keys.c: keys_draw) in the order each script's header gives.
 */
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "keys.h"
#include "qstore_call.h"
#include "qstore_draw.h"
#include "qstore_reply.h"

#define DRAW_KEYS 4		/* draw, sorted, order, lock */

/* lib.lua's queue keys, then the draw's, into argv; how many. */
static int
draw_argv(struct qstore *qs, const char *queue, struct queue_keys *k,
    struct draw_keys *dk, const char **argv)
{
	qcall_queue_argv(qs, queue, k, argv);
	keys_draw(dk, qs->prefix, queue);
	argv[QUEUE_KEYS] = dk->draw;
	argv[QUEUE_KEYS + 1] = dk->sorted;
	argv[QUEUE_KEYS + 2] = dk->order;
	argv[QUEUE_KEYS + 3] = dk->lock;
	return QUEUE_KEYS + DRAW_KEYS;
}

static void
read_step(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_draw_step d;
	const char **list = NULL;

	memset(&d, 0, sizeof d);
	if (r == RESULT_OK && qreply_draw_step(rp, &d, &list) == -1)
		r = qcall_misshaped(c);
	((qs_draw_step_cb *)c->cb)(r, &d, c->arg);
	free(list);
}

int
qstore_draw_step(struct qstore *qs, const char *queue, const char *owner,
    long lock_ms, int chunk, const char *op, const char *const *args,
    size_t nargs, qs_draw_step_cb *cb, void *arg)
{
	const char **argv = calloc(QUEUE_KEYS + DRAW_KEYS + 4 + nargs,
	    sizeof *argv);
	char lock[DECIMAL_MAX + 1], n[DECIMAL_MAX + 1];
	struct queue_keys k;
	struct draw_keys dk;
	int argc, rc;

	if (argv == NULL)
		return -1;
	argc = draw_argv(qs, queue, &k, &dk, argv);
	argv[argc++] = owner;
	argv[argc++] = decimal_str(lock, lock_ms);
	argv[argc++] = decimal_str(n, chunk);
	argv[argc++] = op;
	for (size_t i = 0; i < nargs; i++)
		argv[argc++] = args[i];
	rc = qcall_eval(qs, qcall_new(qs, read_step, cb, arg, "draw_step",
	    queue), LUA_DRAW_STEP, QUEUE_KEYS + DRAW_KEYS, argc, argv);
	free(argv);
	return rc;
}

static void
read_view(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_draw_view v;

	memset(&v, 0, sizeof v);
	if (r == RESULT_OK && (r = qreply_first(rp)) == RESULT_OK &&
	    qreply_draw_view(rp, &v) == -1)
		r = qcall_misshaped(c);
	((qs_draw_view_cb *)c->cb)(r, &v, c->arg);
}

int
qstore_draw_show(struct qstore *qs, const char *queue, qs_draw_view_cb *cb,
    void *arg)
{
	const char *argv[QUEUE_KEYS + DRAW_KEYS];
	struct queue_keys k;
	struct draw_keys dk;

	draw_argv(qs, queue, &k, &dk, argv);
	return qcall_eval(qs, qcall_new(qs, read_view, cb, arg, "draw_show",
	    queue), LUA_DRAW_SHOW, QUEUE_KEYS + 1, QUEUE_KEYS + 1, argv);
}

static void
read_done(struct qcall *c, enum result r, const redisReply *rp)
{
	if (r == RESULT_OK)
		r = qreply_first(rp);
	((qs_draw_done_cb *)c->cb)(r, c->arg);
}

int
qstore_draw_commit(struct qstore *qs, const char *queue,
    const char *seed_hex, const char *commit_hex, qs_draw_done_cb *cb,
    void *arg)
{
	const char *argv[QUEUE_KEYS + DRAW_KEYS + 2];
	struct queue_keys k;
	struct draw_keys dk;

	draw_argv(qs, queue, &k, &dk, argv);
	argv[QUEUE_KEYS + 1] = seed_hex;
	argv[QUEUE_KEYS + 2] = commit_hex;
	return qcall_eval(qs, qcall_new(qs, read_done, cb, arg, "draw_commit",
	    queue), LUA_DRAW_COMMIT, QUEUE_KEYS + 1, QUEUE_KEYS + 3, argv);
}

int
qstore_draw_beacon(struct qstore *qs, const char *queue,
    const char *beacon_hex, qs_draw_done_cb *cb, void *arg)
{
	const char *argv[QUEUE_KEYS + DRAW_KEYS + 1];
	struct queue_keys k;
	struct draw_keys dk;

	draw_argv(qs, queue, &k, &dk, argv);
	argv[QUEUE_KEYS + 1] = beacon_hex;
	return qcall_eval(qs, qcall_new(qs, read_done, cb, arg, "draw_beacon",
	    queue), LUA_DRAW_BEACON, QUEUE_KEYS + 1, QUEUE_KEYS + 2, argv);
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
	const char *argv[] = { "PUBLISH", k.events, "drawn" };

	if (keys_queue(&k, qs->prefix, queue) == -1)
		return -1;
	return qcall_command(qs, qcall_new(qs, read_announced, NULL, NULL,
	    "publish", queue), 3, argv);
}
