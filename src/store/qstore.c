/*
 * qstore.c: the queue store's calls for visitors, streams and ticks, and
 * what every call shares (qstore_call.h); the admin API's and the start's
 * are in qstore_admin.c. See qstore.h. Each call builds its script's
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
#include "qstore_call.h"
#include "qstore_reply.h"
#include "store.h"
#include "text.h"

/* A user key outlives any sane wait; join ignores it once its token left. */
#define USER_KEY_TTL "86400"
#define JOIN_MAX 64		/* joins in one run of join.lua */

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
	if ((qs->held = held_new()) == NULL) {
		free(qs);
		return NULL;
	}
	return qs;
}

void
qstore_free(struct qstore *qs)
{
	if (qs)
		held_free(qs->held);
	free(qs);
}

void
qstore_flush(struct qstore *qs)
{
	store_flush(qs->store);
}

/* lib.lua's queue keys into argv[0 .. QUEUE_KEYS - 1]. */
void
qcall_queue_argv(struct qstore *qs, const char *queue, struct queue_keys *k,
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
enum result
qcall_misshaped(struct qcall *c)
{
	log_error("event=bad_script_reply script=%s queue=%s", c->script,
	    c->queue);
	return RESULT_ERROR;
}

struct qcall *
qcall_new(struct qstore *qs, qcall_read *read, void *cb, void *arg,
    const char *script, const char *queue)
{
	struct qcall *c = malloc(sizeof *c);

	if (c == NULL)
		return NULL;
	c->qs = qs, c->read = read, c->cb = cb, c->arg = arg, c->script = script;
	text_copy(c->queue, sizeof c->queue, queue ? queue : "");
	c->n = 0, c->held = 0;
	return c;
}

/*
 * Run script id for c; -1 (c freed) when the store is not ready. flags:
 * STORE_DURABLE for what must survive a failover once acknowledged
 * (joins, leaves, admissions: redis_wait_replicas).
 */
int
qcall_eval_flags(struct qstore *qs, struct qcall *c, enum lua_script_id id,
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

int
qcall_eval(struct qstore *qs, struct qcall *c, enum lua_script_id id,
    int nkeys, int argc, const char *const *argv)
{
	return qcall_eval_flags(qs, c, id, nkeys, argc, argv, 0);
}

int
qcall_command(struct qstore *qs, struct qcall *c, int argc,
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
		r = qcall_misshaped(c);
	((qs_standing_cb *)c->cb)(r, &s, c->arg);
}

/*
 * Script id (named script) on queue's keys, with token, when not NULL, as
 * its one argument: where a token stands, a queue's summary, a renewal.
 */
static int
queue_eval(struct qstore *qs, const char *queue, const char *token,
    qcall_read *read, void *cb, void *arg, const char *script,
    enum lua_script_id id)
{
	const char *argv[QUEUE_KEYS + 1];
	struct queue_keys k;
	int argc = QUEUE_KEYS;

	qcall_queue_argv(qs, queue, &k, argv);
	if (token != NULL)
		argv[argc++] = token;
	return qcall_eval(qs, qcall_new(qs, read, cb, arg, script, queue), id,
	    QUEUE_KEYS, argc, argv);
}

int
qstore_status(struct qstore *qs, const char *queue, const char *token,
    qs_standing_cb *cb, void *arg)
{
	return queue_eval(qs, queue, token, read_standing, cb, arg, "status",
	    LUA_STATUS);
}

int
qstore_summary(struct qstore *qs, const char *queue, qs_standing_cb *cb,
    void *arg)
{
	return queue_eval(qs, queue, NULL, read_standing, cb, arg, "summary",
	    LUA_SUMMARY);
}

/* ---- joins ------------------------------------------------------------- */

/* The head of a batch's reply into j->s; -1 when misshaped. */
static int
join_head(struct qcall *c, const redisReply *head, struct qs_joins *j)
{
	struct held_head hh;

	switch (qreply_join_head(head, &j->s, &hh)) {
	case JOIN_HEAD_NO_QUEUE:
		return 0;
	case JOIN_HEAD_FULL:
		held_put(c->qs->held, c->queue, &j->s, &hh);
		return 0;
	case JOIN_HEAD_HELD:
		return c->held ? held_fill(c->qs->held, c->queue, &j->s) : -1;
	}
	return -1;
}

static void
read_joins(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_joins j = { .r = rp, .next = 1 };

	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != c->n + 1 || join_head(c, rp->element[0], &j) == -1))
		r = qcall_misshaped(c);
	if (c->held)
		held_done(c->qs->held, c->queue);
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
 * KEYS: the queue's, then the keys of the users given, then the use keys
 * given; ARGV: the user key's lifetime, how many joins gave a user and
 * how many a use key, the held facts (version, max_waiting, closes_at;
 * qstore_held.h), which joins gave a user (1-based), for each use key its
 * join, limit and expiry, then the joins' tokens.
 */
int
qstore_join(struct qstore *qs, const char *queue, int n,
    const char *const *tokens, const char *const *users,
    const struct qs_use *const *uses, qs_joins_cb *cb, void *arg)
{
	const char *argv[QUEUE_KEYS + 6 + 7 * JOIN_MAX];
	char num[4 + 4 * JOIN_MAX][DECIMAL_MAX + 1];
	struct held_send hs;
	static char ukeys[JOIN_MAX][KEYS_USER_MAX];	/* the store copies */
	static char gkeys[JOIN_MAX][KEYS_USED_MAX];
	struct queue_keys k;
	int nkeys = QUEUE_KEYS, nusers, argc, nn = 0;
	struct qcall *c;

	if (n < 1 || n > JOIN_MAX)
		return -1;
	qcall_queue_argv(qs, queue, &k, argv);
	for (int i = 0; i < n; i++) {
		if (users[i] == NULL)
			continue;
		if (keys_user(ukeys[nkeys - QUEUE_KEYS], KEYS_USER_MAX,
		    qs->prefix, queue, users[i]) == -1)
			return -1;
		argv[nkeys] = ukeys[nkeys - QUEUE_KEYS];
		nkeys++;
	}
	nusers = nkeys - QUEUE_KEYS;
	for (int i = 0; uses && i < n; i++) {
		char *key = gkeys[nkeys - QUEUE_KEYS - nusers];

		if (uses[i] == NULL)
			continue;
		if (keys_used(key, qs->prefix, queue, uses[i]->kind,
		    uses[i]->id) == -1)
			return -1;
		argv[nkeys++] = key;
	}
	argc = nkeys;
	argv[argc++] = USER_KEY_TTL;
	argv[argc++] = decimal_str(num[nn++], nusers);
	argv[argc++] = decimal_str(num[nn++], nkeys - QUEUE_KEYS - nusers);
	if ((c = qcall_new(qs, read_joins, cb, arg, "join", queue)) == NULL)
		return -1;
	held_send(qs->held, queue, &hs);
	c->n = (size_t)n, c->held = hs.ver[0] != '\0';
	argv[argc++] = hs.ver[0] ? hs.ver : "0";
	argv[argc++] = decimal_str(num[nn++], hs.max_waiting);
	argv[argc++] = decimal_str(num[nn++], hs.closes_at_ms);
	for (int i = 0; i < n; i++)
		if (users[i])
			argv[argc++] = decimal_str(num[nn++], i + 1);
	for (int i = 0; uses && i < n; i++)
		if (uses[i]) {
			argv[argc++] = decimal_str(num[nn++], i + 1);
			argv[argc++] = decimal_str(num[nn++], uses[i]->limit);
			argv[argc++] = decimal_str(num[nn++],
			    uses[i]->expires_ms);
		}
	for (int i = 0; i < n; i++)
		argv[argc++] = tokens[i];
	if (qcall_eval_flags(qs, c, LUA_JOIN, nkeys, argc, argv,
	    STORE_DURABLE) == 0)
		return 0;
	if (hs.ver[0] != '\0')
		held_done(qs->held, queue);
	return -1;
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
		r = qcall_misshaped(c);
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
	qcall_queue_argv(qs, queue, &k, argv);
	memcpy(argv + QUEUE_KEYS, tokens, (size_t)n * sizeof *tokens);
	if ((c = qcall_new(qs, read_ranks, cb, arg, "ranks", queue)) != NULL)
		c->n = (size_t)n;
	return qcall_eval(qs, c, LUA_RANKS, QUEUE_KEYS, QUEUE_KEYS + n, argv);
}

/* ---- admission ------------------------------------------------------------ */

static void
read_tick(struct qcall *c, enum result r, const redisReply *rp)
{
	struct tick_figures t = { 0 };

	if (r == RESULT_OK && qreply_first(rp) == RESULT_NO_QUEUE)
		r = RESULT_NO_QUEUE;	/* not written yet */
	else if (r == RESULT_OK && qreply_tick(rp, &t) == -1)
		r = qcall_misshaped(c);
	if (r == RESULT_OK)
		held_rate(c->qs->held, c->queue, t.ver, t.rate);
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
	const char *argv[QUEUE_KEYS + 5];
	char num[DECIMAL_MAX + 1], ago[DECIMAL_MAX + 1], full[KEYS_MAX];
	struct queue_keys k;
	struct draw_keys dk;

	qcall_queue_argv(qs, queue, &k, argv);
	keys_full(full, qs->prefix, queue);
	keys_draw(&dk, qs->prefix, queue);
	argv[QUEUE_KEYS] = full;
	argv[QUEUE_KEYS + 1] = dk.draw;
	argv[QUEUE_KEYS + 2] = k.events;
	argv[QUEUE_KEYS + 3] = decimal_str(num, cap);
	argv[QUEUE_KEYS + 4] = qs->full_at == 0 ? "-1" :
	    decimal_str(ago, mono_ms() - qs->full_at);
	return qcall_eval_flags(qs, qcall_new(qs, read_tick, cb, arg, "tick",
	    queue), LUA_TICK, QUEUE_KEYS + 2, QUEUE_KEYS + 5, argv,
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
void
qcall_read_strings(struct qcall *c, enum result r, const redisReply *rp)
{
	const redisReply *a = rp;
	const char **list = NULL;
	size_t n = 0;

	if (r == RESULT_OK && c->n == 1 && (r = qreply_first(rp)) == RESULT_OK)
		a = rp->elements == 2 ? rp->element[1] : NULL;
	if (r == RESULT_OK && (a == NULL || a->type != REDIS_REPLY_ARRAY))
		r = qcall_misshaped(c);
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
	return qcall_command(qs, qcall_new(qs, qcall_read_strings, cb, arg, "smembers",
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
			r = qcall_misshaped(c);
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

	qcall_queue_argv(qs, queue, &k, argv);
	keys_revoked(revoked, sizeof revoked, qs->prefix, queue, token);
	argv[QUEUE_KEYS] = revoked;
	argv[QUEUE_KEYS + 1] = token;
	argv[QUEUE_KEYS + 2] = k.events;
	argv[QUEUE_KEYS + 3] = decimal_str(leeway, PASS_LEEWAY * 1000);
	return qcall_eval_flags(qs, qcall_new(qs, read_end, cb, arg,
	    how == QS_KICK ? "admin_kick" : "leave", queue), how == QS_KICK ?
	    LUA_ADMIN_KICK : LUA_LEAVE, QUEUE_KEYS + 1, QUEUE_KEYS + 4, argv,
	    STORE_DURABLE);
}

static void
read_lookup(struct qcall *c, enum result r, const redisReply *rp)
{
	struct revoke_facts f = { 0, 0 };

	if (r == RESULT_OK && qreply_lookup(rp, &f) == -1)
		r = qcall_misshaped(c);
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
	return qcall_command(qs, qcall_new(qs, read_lookup, cb, arg, "mget", queue),
	    1 + LOOKUP_FIELDS, argv);
}


/* ---- renewals ---------------------------------------------------------- */

static void
read_renew(struct qcall *c, enum result r, const redisReply *rp)
{
	struct renewal rn = { 0, 0 };

	if (r == RESULT_OK && (r = qreply_renewal(rp, &rn)) == RESULT_ERROR)
		r = qcall_misshaped(c);
	((qs_renew_cb *)c->cb)(r, &rn, c->arg);
}

int
qstore_renew(struct qstore *qs, const char *queue, const char *token,
    qs_renew_cb *cb, void *arg)
{
	return queue_eval(qs, queue, token, read_renew, cb, arg, "renew",
	    LUA_RENEW);
}
