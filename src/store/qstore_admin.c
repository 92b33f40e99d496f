/*
 * qstore_admin.c: the queue store's calls for the admin API (admin_*.lua)
 * and for the start (config_init.lua, epoch.lua); see qstore.h.
 */
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "log.h"
#include "pass.h"
#include "qstore.h"
#include "qstore_call.h"
#include "qstore_reply.h"
#include "script.h"
#include "store.h"

#define SHOW_MAX 4096		/* queues in one run of admin_show.lua */
#define PUT_PAIRS_MAX 64	/* fields one admin_put.lua changes */

_Static_assert(SHOW_NTOTALS == TOTALS_FIELDS,
    "figures.h's SHOW_NTOTALS is not scripts.def's TOTALS_FIELDS");

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
	struct script_call *sc;
	struct qcall *c;

	if (n > SHOW_MAX || (sc = script_call_new(LUA_ADMIN_SHOW)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct queue_keys k;

		/* A name no key can hold: empty keys, answered as none. */
		if (keys_queue(&k, qs->prefix, names[i]) == -1)
			memset(&k, 0, sizeof k);
		script_add_queue(sc, ADMIN_SHOW_K_QUEUES, &k);
	}
	if ((c = qcall_new(qs, read_figures, cb, arg, "admin_show",
	    n == 1 ? names[0] : NULL)) != NULL)
		c->n = n;
	return qcall_eval(qs, c, sc);
}

/* bad_schedule's key and values into f; -1 when misshaped. */
static int
read_fault(const redisReply *rp, struct qschedule_fault *f)
{
	if (rp->elements != BAD_SCHEDULE_FIELDS ||
	    (f->field = qreply_str(rp, BAD_SCHEDULE_FIELD)) == NULL ||
	    qreply_num(rp, BAD_SCHEDULE_VALUE, &f->value) == -1 ||
	    qreply_num(rp, BAD_SCHEDULE_OPENS_AT, &f->opens_at) == -1)
		return -1;
	return 0;
}

static void
read_config(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qconfig config = { 0 };
	struct qschedule_fault fault = { "", 0, 0 };

	if (r == RESULT_OK) {
		r = qreply_first(rp);
		if ((r == RESULT_OK || r == RESULT_NEW) &&
		    (rp->elements != PUT_FIELDS ||
		    qreply_config(rp->element[PUT_CONFIG], &config) == -1))
			r = qcall_misshaped(c);
		if (r == RESULT_BAD_SCHEDULE && read_fault(rp, &fault) == -1)
			r = qcall_misshaped(c);
	}
	((qs_config_cb *)c->cb)(r, &config, &fault, c->arg);
}

/* A queue's fields, as conf_queue_fields gives them, into run. */
struct fields_to {
	struct script_call *sc;
	int run;
};

static void
add_field(const char *key, const char *value, void *arg)
{
	struct fields_to *f = arg;

	script_add(f->sc, f->run, key);
	script_add(f->sc, f->run, value);
}

int
qstore_put(struct qstore *qs, const char *queue, const struct qs_put *p,
    qs_config_cb *cb, void *arg)
{
	struct script_call *sc = script_call_new(LUA_ADMIN_PUT);
	struct fields_to f = { sc, ADMIN_PUT_A_FIELDS };
	char registry[KEYS_MAX];
	struct queue_keys k;
	struct draw_keys dk;

	if (sc == NULL || p->npairs < 0 || p->npairs > PUT_PAIRS_MAX ||
	    keys_queue(&k, qs->prefix, queue) ==
	    -1 || keys_registry(registry, qs->prefix) == -1 ||
	    keys_draw(&dk, qs->prefix, queue) == -1) {
		script_call_free(sc);
		return -1;
	}
	script_set(sc, ADMIN_PUT_K_CONFIG, k.config);
	script_set(sc, ADMIN_PUT_K_REGISTRY, registry);
	script_set(sc, ADMIN_PUT_K_DRAW, dk.draw);
	script_set(sc, ADMIN_PUT_K_WAITING, k.waiting);
	script_set(sc, ADMIN_PUT_A_QUEUE, queue);
	script_set(sc, ADMIN_PUT_A_SEED, p->seed);
	script_set(sc, ADMIN_PUT_A_COMMIT, p->commit);
	qcall_trail(qs, sc, ADMIN_PUT_K_TRAIL, ADMIN_PUT_A_ADMIN,
	    p->admin);
	for (int i = 0; i < 2 * p->npairs; i++)
		script_add(sc, ADMIN_PUT_A_PAIRS, p->pairs[i]);
	conf_queue_fields(p->q, add_field, &f);
	return qcall_eval(qs, qcall_new(qs, read_config, cb, arg, "admin_put",
	    queue), sc);
}

static void
read_state(struct qcall *c, enum result r, const redisReply *rp)
{
	const char *before = NULL, *after = NULL;

	if (r == RESULT_OK) {
		r = qreply_first(rp);
		before = qreply_str(rp, SET_STATE_BEFORE);
		after = qreply_str(rp, SET_STATE_AFTER);
		if (r == RESULT_OK && (before == NULL || after == NULL))
			r = qcall_misshaped(c);
	}
	((qs_state_cb *)c->cb)(r, before, after, c->arg);
}

int
qstore_state(struct qstore *qs, const char *queue,
    const struct qs_state *st, qs_state_cb *cb, void *arg)
{
	struct script_call *sc = script_call_new(LUA_ADMIN_STATE);
	struct queue_keys k;

	if (sc == NULL || keys_queue(&k, qs->prefix, queue) == -1) {
		script_call_free(sc);
		return -1;
	}
	script_set(sc, ADMIN_STATE_K_CONFIG, k.config);
	script_set(sc, ADMIN_STATE_A_TO, st->to);
	script_set(sc, ADMIN_STATE_A_FROM, st->from ? st->from : "");
	script_set(sc, ADMIN_STATE_A_QUEUE, queue);
	script_set(sc, ADMIN_STATE_A_ACTION, st->verb);
	qcall_trail(qs, sc, ADMIN_STATE_K_TRAIL, ADMIN_STATE_A_ADMIN,
	    st->admin);
	return qcall_eval(qs, qcall_new(qs, read_state, cb, arg, "admin_state",
	    queue), sc);
}

int
qstore_notice(struct qstore *qs, const char *queue, const char *text,
    const char *admin, qs_state_cb *cb, void *arg)
{
	struct script_call *sc = script_call_new(LUA_ADMIN_NOTICE);
	struct queue_keys k;

	if (sc == NULL || keys_queue(&k, qs->prefix, queue) == -1) {
		script_call_free(sc);
		return -1;
	}
	script_set(sc, ADMIN_NOTICE_K_CONFIG, k.config);
	script_set(sc, ADMIN_NOTICE_A_TEXT, text);
	script_set(sc, ADMIN_NOTICE_A_QUEUE, queue);
	qcall_trail(qs, sc, ADMIN_NOTICE_K_TRAIL, ADMIN_NOTICE_A_ADMIN, admin);
	return qcall_eval(qs, qcall_new(qs, read_state, cb, arg,
	    "admin_notice", queue), sc);
}

static void
read_fail_open(struct qcall *c, enum result r, const redisReply *rp)
{
	const char *mode = NULL, *prev = NULL;
	long long until = 0;

	if (r == RESULT_OK && (r = qreply_first(rp)) == RESULT_OK) {
		mode = qreply_str(rp, FAIL_OPEN_MODE);
		prev = qreply_str(rp, FAIL_OPEN_PREVIOUS);
		if (mode == NULL || prev == NULL ||
		    qreply_num(rp, FAIL_OPEN_UNTIL, &until) == -1)
			r = qcall_misshaped(c);
	}
	((qs_fail_open_cb *)c->cb)(r, mode, until, prev, c->arg);
}

int
qstore_fail_open(struct qstore *qs, const char *queue, long seconds,
    const char *admin, qs_fail_open_cb *cb, void *arg)
{
	struct queue_keys k;
	struct script_call *sc;

	sc = qcall_script(qs, LUA_ADMIN_FAIL_OPEN, queue,
	    ADMIN_FAIL_OPEN_K_CONFIG, &k);
	if (sc != NULL) {
		script_set_num(sc, ADMIN_FAIL_OPEN_A_SECONDS, seconds);
		script_set(sc, ADMIN_FAIL_OPEN_A_QUEUE, queue);
		qcall_trail(qs, sc, ADMIN_FAIL_OPEN_K_TRAIL,
		    ADMIN_FAIL_OPEN_A_ADMIN, admin);
	}
	return qcall_eval(qs, qcall_new(qs, read_fail_open, cb, arg,
	    "admin_fail_open", queue), sc);
}

int
qstore_promote(struct qstore *qs, const char *queue, long count,
    const char *admin, qs_strings_cb *cb, void *arg)
{
	struct queue_keys k;
	struct room_keys rk;
	struct script_call *sc;
	struct qcall *c;

	sc = qcall_script(qs, LUA_ADMIN_PROMOTE, queue, ADMIN_PROMOTE_K_CONFIG,
	    &k);
	if (sc != NULL && keys_room_queue(&rk, qs->prefix, queue) == 0)
		script_set(sc, ADMIN_PROMOTE_K_JOINS, rk.joins);
	if (sc != NULL) {
		script_set(sc, ADMIN_PROMOTE_A_CHANNEL, k.events);
		script_set_num(sc, ADMIN_PROMOTE_A_COUNT, count);
		script_set(sc, ADMIN_PROMOTE_A_QUEUE, queue);
		qcall_trail(qs, sc, ADMIN_PROMOTE_K_TRAIL,
		    ADMIN_PROMOTE_A_ADMIN, admin);
	}
	if ((c = qcall_new(qs, qcall_read_strings, cb, arg, "admin_promote",
	    queue)) != NULL)
		c->list = PROMOTE_TOKENS;
	return qcall_eval(qs, c, sc);
}

/* The queue's dropped key, with the checkers' leeway, so the queue's
 * passes die with it; its draw's keys, so a queue made again under the
 * name draws anew; its console keys, so it starts without a history. */
int
qstore_drop(struct qstore *qs, const char *queue, const char *admin,
    qs_done_cb *cb, void *arg)
{
	char registry[KEYS_MAX], dropped[KEYS_MAX];
	struct queue_keys k;
	struct draw_keys dk;
	struct room_keys rk;
	struct script_call *sc;

	sc = qcall_script(qs, LUA_ADMIN_DROP, queue, ADMIN_DROP_K_CONFIG, &k);
	if (sc != NULL && keys_registry(registry, qs->prefix) == 0 &&
	    keys_dropped(dropped, qs->prefix, queue) == 0 &&
	    keys_draw(&dk, qs->prefix, queue) == 0 &&
	    keys_room_queue(&rk, qs->prefix, queue) == 0) {
		script_set(sc, ADMIN_DROP_K_SERIES, rk.series);
		script_set(sc, ADMIN_DROP_K_JOINS, rk.joins);
		script_set(sc, ADMIN_DROP_K_WAITS, rk.waits);
		script_set(sc, ADMIN_DROP_K_HISTORY, rk.history);
		script_set(sc, ADMIN_DROP_K_REGISTRY, registry);
		script_set(sc, ADMIN_DROP_K_DROPPED, dropped);
		script_set(sc, ADMIN_DROP_K_DRAW, dk.draw);
		script_set(sc, ADMIN_DROP_K_SORTED, dk.sorted);
		script_set(sc, ADMIN_DROP_K_ORDER, dk.order);
		script_set(sc, ADMIN_DROP_K_LOCK, dk.lock);
		script_set(sc, ADMIN_DROP_A_QUEUE, queue);
		script_set(sc, ADMIN_DROP_A_CHANNEL, k.events);
		script_set_num(sc, ADMIN_DROP_A_LEEWAY_MS, PASS_LEEWAY * 1000);
		qcall_trail(qs, sc, ADMIN_DROP_K_TRAIL,
		    ADMIN_DROP_A_ADMIN, admin);
	}
	return qcall_eval(qs, qcall_new(qs, qcall_read_done, cb, arg,
	    "admin_drop", queue), sc);
}

/* ---- the marker of Redis's data ------------------------------------ */

static void
read_epoch(struct qcall *c, enum result r, const redisReply *rp)
{
	const char *value = NULL;
	long long created = 0;

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != EPOCH_FIELDS ||
	    (value = qreply_str(rp, EPOCH_VALUE)) == NULL ||
	    rp->element[EPOCH_CREATED]->type != REDIS_REPLY_INTEGER ||
	    qreply_num(rp, EPOCH_CREATED, &created) == -1))
		r = qcall_misshaped(c);
	((qs_epoch_cb *)c->cb)(r, value, r == RESULT_OK && created == 1,
	    c->arg);
}

/* epoch.lua's "written once" on key, for what (logs). */
static int
written_once(struct qstore *qs, const char *key, const char *fresh,
    const char *what, qs_epoch_cb *cb, void *arg)
{
	struct script_call *sc = script_call_new(LUA_EPOCH);

	if (sc != NULL) {
		script_set(sc, EPOCH_K_KEY, key);
		script_set(sc, EPOCH_A_FRESH, fresh);
	}
	return qcall_eval(qs, qcall_new(qs, read_epoch, cb, arg, what, NULL),
	    sc);
}

int
qstore_epoch(struct qstore *qs, const char *fresh, qs_epoch_cb *cb,
    void *arg)
{
	char key[KEYS_MAX];

	if (keys_epoch(key, qs->prefix) == -1)
		return -1;
	return written_once(qs, key, fresh, "epoch", cb, arg);
}

/* The challenges' shared key: epoch.lua's "written once" on its key. */
int
qstore_powkey(struct qstore *qs, const char *fresh, qs_epoch_cb *cb,
    void *arg)
{
	char key[KEYS_MAX];

	if (keys_powkey(key, qs->prefix) == -1)
		return -1;
	return written_once(qs, key, fresh, "powkey", cb, arg);
}

/* ---- the file's queues --------------------------------------------------- */

/* config_init.lua's reply into s; -1 when misshaped. */
static int
seeded_reply(const redisReply *rp, struct qseeded *s)
{
	long long written;

	memset(s, 0, sizeof *s);
	if (rp->type != REDIS_REPLY_ARRAY || rp->elements < CONFIG_INIT_KEPT ||
	    rp->elements > CONFIG_INIT_KEPT + QSEEDED_KEPT_MAX ||
	    qreply_num(rp, CONFIG_INIT_WRITTEN, &written) == -1 ||
	    (s->why = qreply_str(rp, CONFIG_INIT_WHY)) == NULL)
		return -1;
	s->written = written == 1;
	for (size_t i = CONFIG_INIT_KEPT; i < rp->elements; i++)
		if ((s->kept[s->nkept++] = qreply_str(rp, i)) == NULL)
			return -1;
	return 0;
}

/* What the operator is told when the hash kept values over the file's. */
static const struct {
	const char *why, *msg;
} kept_msgs[] = {
	{ "draw_done", "the draw is done: its record keeps its opens_at "
	  "and beacon_round, the file's are ignored" },
	{ "draw_started", "the opening has passed: the draw keeps its "
	  "opens_at and beacon_round, the file's are ignored" },
	{ "draw_has_entrants", "the pre-queue has entrants, promised a draw: "
	  "the file cannot clear opens_at, it is kept" },
};

static void
log_kept(const char *queue, const struct qseeded *s)
{
	const char *msg = "the hash kept its own values";

	for (size_t i = 0; i < sizeof kept_msgs / sizeof kept_msgs[0]; i++)
		if (strcmp(s->why, kept_msgs[i].why) == 0)
			msg = kept_msgs[i].msg;
	log_warn("event=config_kept queue=%s why=%s keys=%s%s%s msg=\"%s\"",
	    queue, s->why, s->kept[0], s->nkept > 1 ? "," : "",
	    s->nkept > 1 ? s->kept[1] : "", msg);
}

static void
read_seeded(struct qcall *c, enum result r, const redisReply *rp)
{
	const struct qseeded none = { 0, "", { NULL }, 0 };
	struct qseeded s = none;

	if (r == RESULT_OK && seeded_reply(rp, &s) == -1) {
		r = qcall_misshaped(c);
		s = none;
	}
	if (r != RESULT_OK)
		log_error("event=queue_config_failed queue=%s", c->queue);
	else if (s.nkept > 0)
		log_kept(c->queue, &s);
	if (c->cb != NULL)
		((qs_seeded_cb *)c->cb)(r, &s, c->arg);
}

int
qstore_seed(struct qstore *qs, const struct queue_conf *q, const char *how,
    const char *seed, const char *commit, qs_seeded_cb *cb, void *arg)
{
	struct script_call *sc = script_call_new(LUA_CONFIG_INIT);
	struct fields_to f = { sc, CONFIG_INIT_A_FIELDS };
	char registry[KEYS_MAX];
	struct queue_keys k;
	struct draw_keys dk;

	if (sc == NULL || keys_registry(registry, qs->prefix) == -1 ||
	    keys_queue(&k, qs->prefix, q->name) == -1 ||
	    keys_draw(&dk, qs->prefix, q->name) == -1) {
		script_call_free(sc);
		log_error("event=queue_config_failed queue=%s", q->name);
		return -1;
	}
	script_set(sc, CONFIG_INIT_K_CONFIG, k.config);
	script_set(sc, CONFIG_INIT_K_REGISTRY, registry);
	script_set(sc, CONFIG_INIT_K_DRAW, dk.draw);
	script_set(sc, CONFIG_INIT_K_WAITING, k.waiting);
	script_set(sc, CONFIG_INIT_A_HOW, how);
	script_set(sc, CONFIG_INIT_A_QUEUE, q->name);
	script_set(sc, CONFIG_INIT_A_SEED, seed);
	script_set(sc, CONFIG_INIT_A_COMMIT, commit);
	conf_queue_fields(q, add_field, &f);
	return qcall_eval(qs, qcall_new(qs, read_seeded, cb, arg,
	    "config_init", q->name), sc);
}
