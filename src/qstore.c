/*
 * qstore.c: the queue store; see qstore.h. Each call builds its script's
 * KEYS and ARGV here (lib.lua's seven queue keys first, in its order),
 * sends it through store.c, and reads the reply with qstore_reply.c into
 * what its callback takes.
 *
 * Invariant: a struct qcall is made per call and freed right after its
 * callback returned, in call_reply, whatever the outcome.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decimal.h"
#include "keys.h"
#include "log.h"
#include "pass.h"
#include "qstore.h"
#include "qstore_reply.h"
#include "store.h"
#include "text.h"

#define QUEUE_KEYS 7		/* config seq waiting active seen stats tick */
/* A user key outlives any sane wait; join ignores it once its token left. */
#define USER_KEY_TTL "86400"
#define JOIN_MAX 64		/* joins in one run of join.lua */
#define SHOW_MAX 4096		/* queues in one run of admin_show.lua */
#define SEED_ARGS 64

struct qstore {
	struct store *store;
	char prefix[KEYS_PREFIX_MAX + 1];
	int full;		/* an episode of a full Redis: see qstore_full */
	long long full_at;	/* when it last refused a write (monotonic ms) */
};

struct qcall;
/* Reads a reply (NULL when Redis did not answer) and calls back. */
typedef void qcall_read(struct qcall *c, enum result r, const redisReply *rp);

struct qcall {
	struct qstore *qs;
	qcall_read *read;
	void *cb;		/* the caller's typed callback */
	void *arg;
	const char *script;	/* for logs */
	char queue[CONF_QUEUE_ID_MAX + 1];
	size_t n;		/* tokens or queues the caller sent; for
				 * read_strings, 1: the list is the second */
};

struct qs_joins {
	const redisReply *r;
	size_t next;		/* the entry to read */
	long long line;		/* see qreply_join_entry */
	struct standing s;
};

struct qstore *
qstore_new(struct store *s, const char *prefix)
{
	struct qstore *qs = calloc(1, sizeof *qs);

	if (qs == NULL)
		return NULL;
	qs->store = s;
	text_copy(qs->prefix, sizeof qs->prefix, prefix);
	return qs;
}

void
qstore_free(struct qstore *qs)
{
	free(qs);
}

void
qstore_flush(struct qstore *qs)
{
	store_flush(qs->store);
}

/* lib.lua's queue keys into argv[0 .. QUEUE_KEYS - 1]. */
static void
queue_argv(struct qstore *qs, const char *queue, struct queue_keys *k,
    const char **argv)
{
	keys_queue(k, qs->prefix, queue);
	argv[0] = k->config, argv[1] = k->seq, argv[2] = k->waiting;
	argv[3] = k->active, argv[4] = k->seen, argv[5] = k->stats;
	argv[6] = k->tick;
}

static long long
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
full_logged(const struct store_result *res, void *arg)
{
	const char *info = res->status == STORE_OK &&
	    res->reply->type == REDIS_REPLY_STRING ? res->reply->str : "";
	const char *used = strstr(info, "\nused_memory:");
	const char *max = strstr(info, "\nmaxmemory:");

	(void)arg;
	log_error("event=store_full used=%lld max=%lld msg=\"Redis refuses "
	    "writes for memory: no joins, no admissions, no waiter dropped as "
	    "abandoned until it has room\"", used ? atoll(used + 13) : -1,
	    max ? atoll(max + 11) : -1);
}

/* Redis refused a write for memory: an episode starts, or goes on. */
static void
saw_full(struct qstore *qs)
{
	const char *argv[] = { "INFO", "memory" };

	qs->full_at = mono_ms();
	if (qs->full)
		return;
	qs->full = 1;
	if (store_command(qs->store, 2, argv, NULL, full_logged, NULL) == -1)
		log_error("event=store_full msg=\"Redis refuses writes for "
		    "memory\"");
}

int
qstore_full(const struct qstore *qs)
{
	return qs->full;
}

static void
call_reply(const struct store_result *res, void *arg)
{
	struct qcall *c = arg;

	if (res->status == STORE_UNAVAILABLE && res->error &&
	    strstr(res->error, "OOM") != NULL)
		saw_full(c->qs);
	if (res->status == STORE_OK)
		c->read(c, RESULT_OK, res->reply);
	else if (res->status == STORE_UNAVAILABLE)
		c->read(c, RESULT_UNAVAILABLE, NULL);
	else {
		log_error("event=script_error script=%s queue=%s error=\"%s\"",
		    c->script, c->queue, res->error ? res->error : "");
		c->read(c, RESULT_ERROR, NULL);
	}
	free(c);
}

/* A reply that is not what script promises: logged, answered as ERROR. */
static enum result
call_misshaped(struct qcall *c)
{
	log_error("event=bad_script_reply script=%s queue=%s", c->script,
	    c->queue);
	return RESULT_ERROR;
}

static struct qcall *
call_new(struct qstore *qs, qcall_read *read, void *cb, void *arg,
    const char *script, const char *queue)
{
	struct qcall *c = malloc(sizeof *c);

	if (c == NULL)
		return NULL;
	c->qs = qs, c->read = read, c->cb = cb, c->arg = arg, c->script = script;
	text_copy(c->queue, sizeof c->queue, queue ? queue : "");
	c->n = 0;
	return c;
}

/*
 * Run script id for c; -1 (c freed) when the store is not ready. flags:
 * STORE_DURABLE for what must survive a failover once acknowledged
 * (joins, leaves, admissions: redis_wait_replicas).
 */
static int
call_eval_flags(struct qstore *qs, struct qcall *c, enum lua_script_id id,
    int nkeys, int argc, const char *const *argv, int flags)
{
	if (c == NULL)
		return -1;
	if (store_eval_flags(qs->store, id, nkeys, argc, argv, NULL,
	    call_reply, c, flags) == -1) {
		free(c);
		return -1;
	}
	return 0;
}

static int
call_eval(struct qstore *qs, struct qcall *c, enum lua_script_id id,
    int nkeys, int argc, const char *const *argv)
{
	return call_eval_flags(qs, c, id, nkeys, argc, argv, 0);
}

static int
call_command(struct qstore *qs, struct qcall *c, int argc,
    const char *const *argv)
{
	if (c == NULL)
		return -1;
	if (store_command(qs->store, argc, argv, NULL, call_reply, c) == -1) {
		free(c);
		return -1;
	}
	return 0;
}

/* ---- where a token stands -------------------------------------------- */

static void
read_standing(struct qcall *c, enum result r, const redisReply *rp)
{
	struct standing s;

	memset(&s, 0, sizeof s);
	if (r == RESULT_OK && qreply_standing(rp, &r, &s) == -1)
		r = call_misshaped(c);
	((qs_standing_cb *)c->cb)(r, &s, c->arg);
}

int
qstore_status(struct qstore *qs, const char *queue, const char *token,
    qs_standing_cb *cb, void *arg)
{
	const char *argv[QUEUE_KEYS + 1];
	struct queue_keys k;

	queue_argv(qs, queue, &k, argv);
	argv[QUEUE_KEYS] = token;
	return call_eval(qs, call_new(qs, read_standing, cb, arg, "status", queue),
	    LUA_STATUS, QUEUE_KEYS, QUEUE_KEYS + 1, argv);
}

int
qstore_summary(struct qstore *qs, const char *queue, qs_standing_cb *cb,
    void *arg)
{
	const char *argv[QUEUE_KEYS];
	struct queue_keys k;

	queue_argv(qs, queue, &k, argv);
	return call_eval(qs, call_new(qs, read_standing, cb, arg, "summary",
	    queue), LUA_SUMMARY, QUEUE_KEYS, QUEUE_KEYS, argv);
}

/* ---- joins ------------------------------------------------------------- */

static void
read_joins(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_joins j = { .r = rp, .next = 1 };

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != c->n + 1 ||
	    qreply_join_head(rp->element[0], &j.s) == -1))
		r = call_misshaped(c);
	j.line = j.s.waiting;
	((qs_joins_cb *)c->cb)(r, &j, c->arg);
}

enum result
qstore_join_next(struct qs_joins *j, const char *token,
    const struct standing **s)
{
	enum result r;

	*s = &j->s;
	if (j->next >= j->r->elements)
		return RESULT_ERROR;
	if (qreply_join_entry(j->r->element[j->next++], token, &j->line, &r,
	    &j->s) == -1)
		return RESULT_ERROR;
	return r;
}

/*
 * KEYS: the queue's, then the keys of the users given; ARGV: the user
 * key's lifetime, how many joins gave a user and which (1-based), then
 * the joins' tokens.
 */
int
qstore_join(struct qstore *qs, const char *queue, int n,
    const char *const *tokens, const char *const *users, qs_joins_cb *cb,
    void *arg)
{
	const char *argv[QUEUE_KEYS + 2 + 3 * JOIN_MAX];
	char num[JOIN_MAX + 1][DECIMAL_MAX + 1];
	static char ukeys[JOIN_MAX][KEYS_USER_MAX];	/* the store copies */
	struct queue_keys k;
	int nkeys = QUEUE_KEYS, argc, nusers = 0;
	struct qcall *c;

	if (n < 1 || n > JOIN_MAX)
		return -1;
	queue_argv(qs, queue, &k, argv);
	for (int i = 0; i < n; i++) {
		if (users[i] == NULL)
			continue;
		if (keys_user(ukeys[nkeys - QUEUE_KEYS], KEYS_USER_MAX,
		    qs->prefix, queue, users[i]) == -1)
			return -1;
		argv[nkeys] = ukeys[nkeys - QUEUE_KEYS];
		nkeys++;
	}
	argc = nkeys;
	argv[argc++] = USER_KEY_TTL;
	argv[argc++] = decimal_str(num[0], nkeys - QUEUE_KEYS);
	for (int i = 0; i < n; i++)
		if (users[i]) {
			nusers++;
			argv[argc++] = decimal_str(num[nusers], i + 1);
		}
	for (int i = 0; i < n; i++)
		argv[argc++] = tokens[i];
	if ((c = call_new(qs, read_joins, cb, arg, "join", queue)) != NULL)
		c->n = (size_t)n;
	return call_eval_flags(qs, c, LUA_JOIN, nkeys, argc, argv,
	    STORE_DURABLE);
}

/* ---- streams ----------------------------------------------------------- */

static void
read_ranks(struct qcall *c, enum result r, const redisReply *rp)
{
	long long values[QSTORE_RANKS_MAX];
	struct qs_ranks rk = { .kinds = "", .values = values };

	memset(&rk.s, 0, sizeof rk.s);
	if (r == RESULT_OK && qreply_first(rp) == RESULT_NO_QUEUE)
		r = RESULT_NO_QUEUE;
	else if (r == RESULT_OK && qreply_ranks(rp, c->n, &rk.s, &rk.kinds,
	    values) == -1)
		r = call_misshaped(c);
	((qs_ranks_cb *)c->cb)(r, &rk, c->arg);
}

int
qstore_ranks(struct qstore *qs, const char *queue, int n,
    const char *const *tokens, qs_ranks_cb *cb, void *arg)
{
	const char *argv[QUEUE_KEYS + QSTORE_RANKS_MAX];
	struct queue_keys k;
	struct qcall *c;

	if (n < 1 || n > QSTORE_RANKS_MAX)
		return -1;
	queue_argv(qs, queue, &k, argv);
	memcpy(argv + QUEUE_KEYS, tokens, (size_t)n * sizeof *tokens);
	if ((c = call_new(qs, read_ranks, cb, arg, "ranks", queue)) != NULL)
		c->n = (size_t)n;
	return call_eval(qs, c, LUA_RANKS, QUEUE_KEYS, QUEUE_KEYS + n, argv);
}

/* ---- admission ------------------------------------------------------------ */

static void
read_tick(struct qcall *c, enum result r, const redisReply *rp)
{
	struct tick_figures t = { 0 };

	if (r == RESULT_OK && qreply_first(rp) == RESULT_NO_QUEUE)
		r = RESULT_NO_QUEUE;	/* not written yet */
	else if (r == RESULT_OK && qreply_tick(rp, &t) == -1)
		r = call_misshaped(c);
	if (r == RESULT_OK && t.full_ms != 0)
		saw_full(c->qs);
	else if (r == RESULT_OK && c->qs->full) {
		c->qs->full = 0;
		log_info("event=store_writable msg=\"Redis takes writes again; "
		    "waiters are dropped as abandoned once waiting_ttl has "
		    "passed\"");
	}
	((qs_tick_cb *)c->cb)(r, &t, c->arg);
}

int
qstore_tick(struct qstore *qs, const char *queue, long cap, qs_tick_cb *cb,
    void *arg)
{
	const char *argv[QUEUE_KEYS + 4];
	char num[DECIMAL_MAX + 1], ago[DECIMAL_MAX + 1], full[KEYS_MAX];
	struct queue_keys k;

	queue_argv(qs, queue, &k, argv);
	keys_full(full, qs->prefix, queue);
	argv[QUEUE_KEYS] = full;
	argv[QUEUE_KEYS + 1] = k.events;
	argv[QUEUE_KEYS + 2] = decimal_str(num, cap);
	argv[QUEUE_KEYS + 3] = qs->full_at == 0 ? "-1" :
	    decimal_str(ago, mono_ms() - qs->full_at);
	return call_eval_flags(qs, call_new(qs, read_tick, cb, arg, "tick",
	    queue), LUA_TICK, QUEUE_KEYS + 1, QUEUE_KEYS + 4, argv,
	    STORE_DURABLE);
}

/* The string elements of the array a, borrowed, as a new list; NULL
 * when out of memory. */
static const char **
string_list(const redisReply *a, size_t *n)
{
	const char **list = calloc(a->elements + 1, sizeof *list);

	*n = 0;
	for (size_t i = 0; list && i < a->elements; i++)
		if (a->element[i]->type == REDIS_REPLY_STRING)
			list[(*n)++] = a->element[i]->str;
	return list;
}

/* A list of strings: the whole reply (c->n 0) or its second element. */
static void
read_strings(struct qcall *c, enum result r, const redisReply *rp)
{
	const redisReply *a = rp;
	const char **list = NULL;
	size_t n = 0;

	if (r == RESULT_OK && c->n == 1 && (r = qreply_first(rp)) == RESULT_OK)
		a = rp->elements == 2 ? rp->element[1] : NULL;
	if (r == RESULT_OK && (a == NULL || a->type != REDIS_REPLY_ARRAY))
		r = call_misshaped(c);
	if (r == RESULT_OK && (list = string_list(a, &n)) == NULL)
		r = RESULT_ERROR;
	((qs_strings_cb *)c->cb)(r, list, n, c->arg);
	free(list);
}

int
qstore_queues(struct qstore *qs, qs_strings_cb *cb, void *arg)
{
	char registry[KEYS_MAX];
	const char *argv[] = { "SMEMBERS", registry };

	keys_registry(registry, qs->prefix);
	return call_command(qs, call_new(qs, read_strings, cb, arg, "smembers",
	    NULL), 2, argv);
}

/* ---- ending a place or a session ------------------------------------ */

static void
read_end(struct qcall *c, enum result r, const redisReply *rp)
{
	const char *was = NULL;

	if (r == RESULT_OK) {
		r = qreply_first(rp);
		was = qreply_str(rp, 1);
		if (r == RESULT_OK && was == NULL)
			r = call_misshaped(c);
	}
	((qs_end_cb *)c->cb)(r, was && strcmp(was, "active") == 0, c->arg);
}

/*
 * leave.lua, admin_kick.lua: KEYS[8] is the token's revoked key; ARGV the
 * token, the events channel (a slot may refill) and the checkers' leeway,
 * so an ended session's pass dies.
 */
int
qstore_end(struct qstore *qs, enum qs_end how, const char *queue,
    const char *token, qs_end_cb *cb, void *arg)
{
	const char *argv[QUEUE_KEYS + 4];
	char revoked[KEYS_MAX + 48], leeway[DECIMAL_MAX + 1];
	struct queue_keys k;

	queue_argv(qs, queue, &k, argv);
	keys_revoked(revoked, sizeof revoked, qs->prefix, queue, token);
	argv[QUEUE_KEYS] = revoked;
	argv[QUEUE_KEYS + 1] = token;
	argv[QUEUE_KEYS + 2] = k.events;
	argv[QUEUE_KEYS + 3] = decimal_str(leeway, PASS_LEEWAY * 1000);
	return call_eval_flags(qs, call_new(qs, read_end, cb, arg,
	    how == QS_KICK ? "admin_kick" : "leave", queue), how == QS_KICK ?
	    LUA_ADMIN_KICK : LUA_LEAVE, QUEUE_KEYS + 1, QUEUE_KEYS + 4, argv,
	    STORE_DURABLE);
}

static void
read_lookup(struct qcall *c, enum result r, const redisReply *rp)
{
	struct revoke_facts f = { 0, 0 };

	if (r == RESULT_OK && qreply_lookup(rp, &f) == -1)
		r = call_misshaped(c);
	((qs_lookup_cb *)c->cb)(r, &f, c->arg);
}

/* MGET of two keys in the queue's hash slot, so a Redis Cluster answers
 * it from one node. */
int
qstore_lookup(struct qstore *qs, const char *queue, const char *token,
    qs_lookup_cb *cb, void *arg)
{
	char revoked[KEYS_MAX + 48], dropped[KEYS_MAX];
	const char *argv[1 + LOOKUP_FIELDS] = { "MGET" };

	keys_revoked(revoked, sizeof revoked, qs->prefix, queue, token);
	keys_dropped(dropped, qs->prefix, queue);
	argv[1 + LOOKUP_REVOKED] = revoked;
	argv[1 + LOOKUP_DROPPED] = dropped;
	return call_command(qs, call_new(qs, read_lookup, cb, arg, "mget", queue),
	    1 + LOOKUP_FIELDS, argv);
}

/* ---- the admin API's scripts ----------------------------------------- */

static void
read_figures(struct qcall *c, enum result r, const redisReply *rp)
{
	struct queue_figures *f = NULL;

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != c->n))
		r = call_misshaped(c);
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
		queue_argv(qs, names[i], &k[i], argv + i * QUEUE_KEYS);
	if ((c = call_new(qs, read_figures, cb, arg, "admin_show",
	    n == 1 ? names[0] : NULL)) != NULL)
		c->n = n;
	rc = call_eval(qs, c, LUA_ADMIN_SHOW, (int)(n * QUEUE_KEYS),
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
			r = call_misshaped(c);
	}
	((qs_config_cb *)c->cb)(r, &config, c->arg);
}

struct field_args {
	const char *argv[4 + 4 * SEED_ARGS];
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
	int rc;

	if (npairs < 0 || npairs > SEED_ARGS)
		return -1;
	keys_queue(&k, qs->prefix, queue);
	keys_registry(registry, qs->prefix);
	a.argv[0] = k.config, a.argv[1] = registry, a.argv[2] = queue;
	a.argv[3] = decimal_str(n, npairs), a.argc = 4;
	memcpy(a.argv + 4, pairs, 2 * (size_t)npairs * sizeof *pairs);
	a.argc += 2 * npairs;
	conf_queue_fields(q, add_field, &a);
	rc = call_eval(qs, call_new(qs, read_config, cb, arg, "admin_put", queue),
	    LUA_ADMIN_PUT, 2, a.argc, a.argv);
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
			r = call_misshaped(c);
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
	return call_eval(qs, call_new(qs, read_state, cb, arg, "admin_state",
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

	queue_argv(qs, queue, &k, argv);
	argv[QUEUE_KEYS] = k.events;
	argv[QUEUE_KEYS + 1] = decimal_str(n, count);
	/* { 'ok', { token, ... } }: the list is the reply's second. */
	if ((c = call_new(qs, read_strings, cb, arg, "admin_promote", queue)) !=
	    NULL)
		c->n = 1;
	return call_eval(qs, c, LUA_ADMIN_PROMOTE, QUEUE_KEYS, QUEUE_KEYS + 2,
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
	const char *argv[QUEUE_KEYS + 5];
	char registry[KEYS_MAX], dropped[KEYS_MAX], leeway[DECIMAL_MAX + 1];
	struct queue_keys k;

	queue_argv(qs, queue, &k, argv);
	keys_registry(registry, qs->prefix);
	keys_dropped(dropped, qs->prefix, queue);
	argv[QUEUE_KEYS] = registry;
	argv[QUEUE_KEYS + 1] = dropped;
	argv[QUEUE_KEYS + 2] = queue;
	argv[QUEUE_KEYS + 3] = k.events;
	argv[QUEUE_KEYS + 4] = decimal_str(leeway, PASS_LEEWAY * 1000);
	return call_eval(qs, call_new(qs, read_done, cb, arg, "admin_drop", queue),
	    LUA_ADMIN_DROP, QUEUE_KEYS + 2, QUEUE_KEYS + 5, argv);
}

/* ---- the marker of Redis's data ------------------------------------ */

static void
read_epoch(struct qcall *c, enum result r, const redisReply *rp)
{
	const char *value = NULL;

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != 2 || (value = qreply_str(rp, 0)) == NULL ||
	    rp->element[1]->type != REDIS_REPLY_INTEGER))
		r = call_misshaped(c);
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
	return call_eval(qs, call_new(qs, read_epoch, cb, arg, "epoch", NULL),
	    LUA_EPOCH, 1, 2, argv);
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

	keys_registry(registry, qs->prefix);
	keys_queue(&k, qs->prefix, q->name);
	a.argv[a.argc++] = k.config;
	a.argv[a.argc++] = registry;
	a.argv[a.argc++] = how;
	a.argv[a.argc++] = q->name;
	conf_queue_fields(q, add_field, &a);
	call_eval(qs, call_new(qs, read_seeded, NULL, NULL, "config_init",
	    q->name), LUA_CONFIG_INIT, 2, a.argc, a.argv);
	fields_free(&a);
}
