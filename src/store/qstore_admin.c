/*
 * qstore_admin.c: the queue store's calls for the admin API (admin_*.lua)
 * and for the start (config_init.lua, epoch.lua); see qstore.h.
 */
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "keys.h"
#include "log.h"
#include "pass.h"
#include "qstore.h"
#include "qstore_call.h"
#include "qstore_reply.h"
#include "store.h"

#define SHOW_MAX 4096		/* queues in one run of admin_show.lua */
#define SEED_ARGS 64

/* ---- the admin API's scripts ----------------------------------------- */

static void
read_figures(struct qcall *c, enum result r, const redisReply *rp)
{
	struct queue_figures *f = NULL;

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != c->n))
		r = qcall_misshaped(c);
	if (r == RESULT_OK && (f = calloc(c->n ? c->n : 1, sizeof *f)) == NULL)
		r = RESULT_ERROR;
	for (size_t i = 0; r == RESULT_OK && i < c->n; i++)
		if (qreply_figures(rp->element[i], &f[i]) == -1)
			f[i].exists = 0;	/* as if there were none */
	((qs_figures_cb *)c->cb)(r, f, f ? c->n : 0, c->arg);
	free(f);
}

int
qstore_show(struct qstore *qs, const char *const *names, size_t n,
    qs_figures_cb *cb, void *arg)
{
	const char **argv = calloc(n ? n * QUEUE_KEYS : 1, sizeof *argv);
	struct queue_keys *k = calloc(n ? n : 1, sizeof *k);
	struct qcall *c = NULL;
	int rc = -1;

	if (argv == NULL || k == NULL || n > SHOW_MAX)
		goto done;
	for (size_t i = 0; i < n; i++)
		qcall_queue_argv(qs, names[i], &k[i], argv + i * QUEUE_KEYS);
	if ((c = qcall_new(qs, read_figures, cb, arg, "admin_show",
	    n == 1 ? names[0] : NULL)) != NULL)
		c->n = n;
	rc = qcall_eval(qs, c, LUA_ADMIN_SHOW, (int)(n * QUEUE_KEYS),
	    (int)(n * QUEUE_KEYS), argv);
done:
	free(argv);
	free(k);
	return rc;
}

static void
read_config(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qconfig config = { 0 };

	if (r == RESULT_OK) {
		r = qreply_first(rp);
		if ((r == RESULT_OK || r == RESULT_NEW) &&
		    (rp->elements != 2 ||
		    qreply_config(rp->element[1], &config) == -1))
			r = qcall_misshaped(c);
	}
	((qs_config_cb *)c->cb)(r, &config, c->arg);
}

struct field_args {
	const char *argv[5 + 4 * SEED_ARGS];
	char *copies[2 * SEED_ARGS];	/* the values are borrowed */
	int argc, ncopies;
};

static void
add_field(const char *key, const char *value, void *arg)
{
	struct field_args *a = arg;
	char *copy;

	if (a->argc + 2 > (int)(sizeof a->argv / sizeof a->argv[0]) ||
	    a->ncopies >= (int)(sizeof a->copies / sizeof a->copies[0]) ||
	    (copy = strdup(value)) == NULL)
		return;
	a->copies[a->ncopies++] = copy;
	a->argv[a->argc++] = key;
	a->argv[a->argc++] = copy;
}

static void
fields_free(struct field_args *a)
{
	for (int i = 0; i < a->ncopies; i++)
		free(a->copies[i]);
}

int
qstore_put(struct qstore *qs, const char *queue, const char *const *pairs,
    int npairs, const struct queue_conf *q, qs_config_cb *cb, void *arg)
{
	struct field_args a = { .argc = 0 };
	char registry[KEYS_MAX], n[DECIMAL_MAX + 1];
	struct queue_keys k;
	struct draw_keys dk;
	int rc;

	if (npairs < 0 || npairs > SEED_ARGS)
		return -1;
	keys_queue(&k, qs->prefix, queue);
	keys_registry(registry, qs->prefix);
	keys_draw(&dk, qs->prefix, queue);
	a.argv[0] = k.config, a.argv[1] = registry, a.argv[2] = dk.draw;
	a.argv[3] = queue, a.argv[4] = decimal_str(n, npairs), a.argc = 5;
	memcpy(a.argv + 5, pairs, 2 * (size_t)npairs * sizeof *pairs);
	a.argc += 2 * npairs;
	conf_queue_fields(q, add_field, &a);
	rc = qcall_eval(qs, qcall_new(qs, read_config, cb, arg, "admin_put", queue),
	    LUA_ADMIN_PUT, 3, a.argc, a.argv);
	fields_free(&a);
	return rc;
}

static void
read_state(struct qcall *c, enum result r, const redisReply *rp)
{
	const char *before = NULL, *after = NULL;

	if (r == RESULT_OK) {
		r = qreply_first(rp);
		before = qreply_str(rp, 1), after = qreply_str(rp, 2);
		if (r == RESULT_OK && (before == NULL || after == NULL))
			r = qcall_misshaped(c);
	}
	((qs_state_cb *)c->cb)(r, before, after, c->arg);
}

int
qstore_state(struct qstore *qs, const char *queue, const char *to,
    const char *from, qs_state_cb *cb, void *arg)
{
	struct queue_keys k;
	const char *argv[3];

	keys_queue(&k, qs->prefix, queue);
	argv[0] = k.config, argv[1] = to, argv[2] = from ? from : "";
	return qcall_eval(qs, qcall_new(qs, read_state, cb, arg, "admin_state",
	    queue), LUA_ADMIN_STATE, 1, 3, argv);
}

int
qstore_promote(struct qstore *qs, const char *queue, long count,
    qs_strings_cb *cb, void *arg)
{
	const char *argv[QUEUE_KEYS + 2];
	char n[DECIMAL_MAX + 1];
	struct queue_keys k;
	struct qcall *c;

	qcall_queue_argv(qs, queue, &k, argv);
	argv[QUEUE_KEYS] = k.events;
	argv[QUEUE_KEYS + 1] = decimal_str(n, count);
	/* { 'ok', { token, ... } }: the list is the reply's second. */
	if ((c = qcall_new(qs, qcall_read_strings, cb, arg, "admin_promote", queue)) !=
	    NULL)
		c->n = 1;
	return qcall_eval(qs, c, LUA_ADMIN_PROMOTE, QUEUE_KEYS, QUEUE_KEYS + 2,
	    argv);
}

static void
read_done(struct qcall *c, enum result r, const redisReply *rp)
{
	if (r == RESULT_OK)
		r = qreply_first(rp);
	((qs_done_cb *)c->cb)(r, c->arg);
}

/* KEYS[9] is the queue's dropped key; ARGV[3] the checkers' leeway, so
 * the queue's passes die with it. */
int
qstore_drop(struct qstore *qs, const char *queue, qs_done_cb *cb, void *arg)
{
	const char *argv[QUEUE_KEYS + 9];
	char registry[KEYS_MAX], dropped[KEYS_MAX], leeway[DECIMAL_MAX + 1];
	struct queue_keys k;
	struct draw_keys dk;

	qcall_queue_argv(qs, queue, &k, argv);
	keys_registry(registry, qs->prefix);
	keys_dropped(dropped, qs->prefix, queue);
	keys_draw(&dk, qs->prefix, queue);
	argv[QUEUE_KEYS] = registry;
	argv[QUEUE_KEYS + 1] = dropped;
	argv[QUEUE_KEYS + 2] = dk.draw;
	argv[QUEUE_KEYS + 3] = dk.sorted;
	argv[QUEUE_KEYS + 4] = dk.order;
	argv[QUEUE_KEYS + 5] = dk.lock;
	argv[QUEUE_KEYS + 6] = queue;
	argv[QUEUE_KEYS + 7] = k.events;
	argv[QUEUE_KEYS + 8] = decimal_str(leeway, PASS_LEEWAY * 1000);
	return qcall_eval(qs, qcall_new(qs, read_done, cb, arg, "admin_drop", queue),
	    LUA_ADMIN_DROP, QUEUE_KEYS + 6, QUEUE_KEYS + 9, argv);
}

/* ---- the marker of Redis's data ------------------------------------ */

static void
read_epoch(struct qcall *c, enum result r, const redisReply *rp)
{
	const char *value = NULL;

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != 2 || (value = qreply_str(rp, 0)) == NULL ||
	    rp->element[1]->type != REDIS_REPLY_INTEGER))
		r = qcall_misshaped(c);
	((qs_epoch_cb *)c->cb)(r, value, r == RESULT_OK &&
	    rp->element[1]->integer == 1, c->arg);
}

int
qstore_epoch(struct qstore *qs, const char *fresh, qs_epoch_cb *cb,
    void *arg)
{
	char key[KEYS_MAX];
	const char *argv[2] = { key, fresh };

	keys_epoch(key, qs->prefix);
	return qcall_eval(qs, qcall_new(qs, read_epoch, cb, arg, "epoch", NULL),
	    LUA_EPOCH, 1, 2, argv);
}

/* The challenges' shared key: epoch.lua's "written once" on its key. */
int
qstore_powkey(struct qstore *qs, const char *fresh, qs_epoch_cb *cb,
    void *arg)
{
	char key[KEYS_MAX];
	const char *argv[2] = { key, fresh };

	keys_powkey(key, qs->prefix);
	return qcall_eval(qs, qcall_new(qs, read_epoch, cb, arg, "powkey",
	    NULL), LUA_EPOCH, 1, 2, argv);
}

/* ---- the file's queues --------------------------------------------------- */

static void
read_seeded(struct qcall *c, enum result r, const redisReply *rp)
{
	(void)rp;
	if (r != RESULT_OK)
		log_error("event=queue_config_failed queue=%s", c->queue);
}

void
qstore_seed(struct qstore *qs, const struct queue_conf *q, const char *how)
{
	struct field_args a = { .argc = 0 };
	char registry[KEYS_MAX];
	struct queue_keys k;
	struct draw_keys dk;

	keys_registry(registry, qs->prefix);
	keys_queue(&k, qs->prefix, q->name);
	keys_draw(&dk, qs->prefix, q->name);
	a.argv[a.argc++] = k.config;
	a.argv[a.argc++] = registry;
	a.argv[a.argc++] = dk.draw;
	a.argv[a.argc++] = how;
	a.argv[a.argc++] = q->name;
	conf_queue_fields(q, add_field, &a);
	qcall_eval(qs, qcall_new(qs, read_seeded, NULL, NULL, "config_init",
	    q->name), LUA_CONFIG_INIT, 3, a.argc, a.argv);
	fields_free(&a);
}
