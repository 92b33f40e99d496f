/*
 * qstore.c: the queue store's calls for visitors, streams and ticks, and
 * what every call shares (qstore_call.h); the joins are in qstore_join.c,
 * the admin API's and the start's in qstore_admin.c, the draw's in
 * qstore_draw.c. See qstore.h. Each call sets its script's keys and
 * arguments by their names in scripts.def (script.h), sends it through
 * store.c, and reads the reply with qstore_reply.c into what its
 * callback takes.
 *
 * Invariant: a struct qcall is made per call and freed right after its
 * callback returned, in call_reply, whatever the outcome.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "keys.h"
#include "log.h"
#include "pass.h"
#include "qstore.h"
#include "qstore_call.h"
#include "qstore_reply.h"
#include "script.h"
#include "store.h"
#include "text.h"

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

struct script_call *
qcall_script(struct qstore *qs, enum lua_script_id id, const char *queue,
    int first, struct queue_keys *k)
{
	struct script_call *sc;
	struct queue_keys own;

	if (k == NULL)
		k = &own;
	if (keys_queue(k, qs->prefix, queue) == -1 ||
	    (sc = script_call_new(id)) == NULL)
		return NULL;
	script_set_queue(sc, first, k);
	return sc;
}

void
qcall_trail(struct qstore *qs, struct script_call *sc, int key_slot,
    int admin_slot, const char *admin)
{
	char trail[KEYS_MAX];

	if (sc == NULL || keys_trail(trail, qs->prefix) == -1)
		return;
	script_set(sc, key_slot, trail);
	script_set(sc, admin_slot, admin != NULL ? admin : "");
}

static void
full_logged(const struct store_result *res, void *arg)
{
	long long used = -1, max = -1;

	(void)arg;
	if (res->status == STORE_OK) {
		qreply_info(res->reply, "used_memory", &used);
		qreply_info(res->reply, "maxmemory", &max);
	}
	log_error("event=store_full used=%lld max=%lld msg=\"Redis refuses "
	    "writes for memory: no joins, no admissions, no waiter dropped as "
	    "abandoned until it has room\"", used, max);
}

/* Redis refused a write for memory: an episode starts, or goes on. */
static void
saw_full(struct qstore *qs)
{
	const char *argv[] = { "INFO", "memory" };

	qs->full_at = clock_mono_ms();
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

	if (res->code == STORE_ERR_OOM)
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
qcall_new_extra(struct qstore *qs, qcall_read *read, void *cb, void *arg,
    const char *script, const char *queue, size_t extra)
{
	struct qcall *c = malloc(sizeof *c + extra);

	if (c == NULL)
		return NULL;
	c->qs = qs, c->read = read, c->cb = cb, c->arg = arg, c->script = script;
	text_copy(c->queue, sizeof c->queue, queue ? queue : "");
	c->n = 0, c->list = -1, c->held = 0;
	c->extra = c + 1;
	return c;
}

struct qcall *
qcall_new(struct qstore *qs, qcall_read *read, void *cb, void *arg,
    const char *script, const char *queue)
{
	return qcall_new_extra(qs, read, cb, arg, script, queue, 0);
}

/*
 * Run sc for c; -1 (c freed) when the store is not ready. flags:
 * STORE_DURABLE for what must survive a failover once acknowledged
 * (joins, leaves, admissions: redis_wait_replicas).
 */
int
qcall_eval_flags(struct qstore *qs, struct qcall *c, struct script_call *sc,
    int flags)
{
	const char *const *argv;
	const size_t *lens;
	int nkeys, argc, rc = -1;

	if (c == NULL || sc == NULL)
		goto done;
	if (script_call_argv(sc, &nkeys, &argc, &argv, &lens) == -1) {
		log_error("event=script_call_failed script=%s queue=%s "
		    "msg=\"its keys or arguments are not as scripts.def "
		    "says\"", c->script, c->queue);
		goto done;
	}
	rc = store_eval_flags(qs->store, script_call_id(sc), nkeys, argc,
	    argv, lens, call_reply, c, flags);
done:
	script_call_free(sc);
	if (rc == -1)
		free(c);
	return rc;
}

int
qcall_eval(struct qstore *qs, struct qcall *c, struct script_call *sc)
{
	return qcall_eval_flags(qs, c, sc, 0);
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

static void
read_summary(struct qcall *c, enum result r, const redisReply *rp)
{
	struct standing s;

	memset(&s, 0, sizeof s);
	if (r == RESULT_OK && qreply_summary(rp, &r, &s) == -1)
		r = qcall_misshaped(c);
	((qs_standing_cb *)c->cb)(r, &s, c->arg);
}

/*
 * Script id (named script) on queue's keys, with token as its one
 * argument when it takes one: where a token stands, a queue's summary, a
 * renewal.
 */
static int
queue_eval(struct qstore *qs, const char *queue, const char *token,
    qcall_read *read, void *cb, void *arg, const char *script,
    enum lua_script_id id, int token_slot)
{
	struct script_call *sc = qcall_script(qs, id, queue, 0, NULL);

	if (sc != NULL && token != NULL)
		script_set(sc, token_slot, token);
	return qcall_eval(qs, qcall_new(qs, read, cb, arg, script, queue), sc);
}

int
qstore_status(struct qstore *qs, const char *queue, const char *token,
    qs_standing_cb *cb, void *arg)
{
	return queue_eval(qs, queue, token, read_standing, cb, arg, "status",
	    LUA_STATUS, STATUS_A_TOKEN);
}

int
qstore_summary(struct qstore *qs, const char *queue, qs_standing_cb *cb,
    void *arg)
{
	return queue_eval(qs, queue, NULL, read_summary, cb, arg, "summary",
	    LUA_SUMMARY, -1);
}

/* ---- streams ----------------------------------------------------------- */

static void
read_ranks(struct qcall *c, enum result r, const redisReply *rp)
{
	long long values[QSTORE_RANKS_MAX], lines[QSTORE_RANKS_MAX];
	struct qs_ranks rk = { .kinds = "", .values = values, .lines = lines };

	memset(&rk.s, 0, sizeof rk.s);
	if (r == RESULT_OK && qreply_first(rp) == RESULT_NO_QUEUE)
		r = RESULT_NO_QUEUE;
	else if (r == RESULT_OK && qreply_ranks(rp, c->n, &rk.s, &rk.kinds,
	    values, lines) == -1)
		r = qcall_misshaped(c);
	((qs_ranks_cb *)c->cb)(r, &rk, c->arg);
}

int
qstore_ranks(struct qstore *qs, const char *queue, int n,
    const char *const *tokens, qs_ranks_cb *cb, void *arg)
{
	struct script_call *sc;
	struct qcall *c;

	if (n < 1 || n > QSTORE_RANKS_MAX)
		return -1;
	sc = qcall_script(qs, LUA_RANKS, queue, RANKS_K_CONFIG, NULL);
	for (int i = 0; sc != NULL && i < n; i++)
		script_add(sc, RANKS_A_TOKENS, tokens[i]);
	if ((c = qcall_new(qs, read_ranks, cb, arg, "ranks", queue)) != NULL)
		c->n = (size_t)n;
	return qcall_eval(qs, c, sc);
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
	char full[KEYS_MAX], revoked[KEYS_MAX + 16];
	struct queue_keys k;
	struct draw_keys dk;
	struct room_keys rk;
	struct script_call *sc;

	sc = qcall_script(qs, LUA_TICK, queue, TICK_K_CONFIG, &k);
	if (sc != NULL && keys_full(full, qs->prefix, queue) == 0 &&
	    keys_draw(&dk, qs->prefix, queue) == 0 &&
	    keys_room_queue(&rk, qs->prefix, queue) == 0) {
		script_set(sc, TICK_K_FULL, full);
		script_set(sc, TICK_K_DRAW, dk.draw);
		script_set(sc, TICK_K_JOINS, rk.joins);
		script_set(sc, TICK_K_WAITS, rk.waits);
	}
	if (sc != NULL && keys_revoked(revoked, sizeof revoked, qs->prefix,
	    queue, "") != -1)
		script_set(sc, TICK_A_REVOKED_PREFIX, revoked);
	if (sc != NULL) {
		script_set(sc, TICK_A_CHANNEL, k.events);
		script_set_num(sc, TICK_A_CAP, cap);
		script_set_num(sc, TICK_A_FULL_AGO_MS, qs->full_at == 0 ? -1 :
		    clock_mono_ms() - qs->full_at);
		script_set_num(sc, TICK_A_LEEWAY_MS, PASS_LEEWAY * 1000);
	}
	return qcall_eval_flags(qs, qcall_new(qs, read_tick, cb, arg, "tick",
	    queue), sc, STORE_DURABLE);
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

/* A list of strings: the whole reply, or its field c->list after a
 * result word. */
void
qcall_read_strings(struct qcall *c, enum result r, const redisReply *rp)
{
	const redisReply *a = rp;
	const char **list = NULL;
	size_t n = 0;

	if (r == RESULT_OK && c->list >= 0 &&
	    (r = qreply_first(rp)) == RESULT_OK)
		a = rp->elements == (size_t)c->list + 1 ?
		    rp->element[c->list] : NULL;
	if (r == RESULT_OK && (a == NULL || a->type != REDIS_REPLY_ARRAY))
		r = qcall_misshaped(c);
	if (r == RESULT_OK && (list = string_list(a, &n)) == NULL)
		r = RESULT_ERROR;
	((qs_strings_cb *)c->cb)(r, list, n, c->arg);
	free(list);
}

/* The result word that leads the reply ({ 'ok' }, { 'no_queue' }...). */
void
qcall_read_done(struct qcall *c, enum result r, const redisReply *rp)
{
	if (r == RESULT_OK)
		r = qreply_first(rp);
	((qs_done_cb *)c->cb)(r, c->arg);
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
		was = qreply_str(rp, END_WAS);
		if (r == RESULT_OK && was == NULL)
			r = qcall_misshaped(c);
	}
	((qs_end_cb *)c->cb)(r, was && strcmp(was, "active") == 0, c->arg);
}

/*
 * The two scripts that end a place or a session, leave.lua (qstore_leave)
 * and admin_kick.lua (qstore_kick), take the same keys and arguments
 * under their own names: the token's revoked key, so an ended session's
 * pass dies (living the checkers' leeway past the pass), the join marks
 * and the events channel (a slot may refill, counting its admitted's
 * times in line, or the streams hear of it).
 */
enum end_script { END_LEAVE, END_KICK };
static const struct {
	enum lua_script_id id;
	int config, revoked, joins, token, channel, leeway_ms;
} ends[] = {
	[END_LEAVE] = { LUA_LEAVE, LEAVE_K_CONFIG, LEAVE_K_REVOKED,
	    LEAVE_K_JOINS, LEAVE_A_TOKEN, LEAVE_A_CHANNEL, LEAVE_A_LEEWAY_MS },
	[END_KICK] = { LUA_ADMIN_KICK, ADMIN_KICK_K_CONFIG, ADMIN_KICK_K_REVOKED,
	    ADMIN_KICK_K_JOINS, ADMIN_KICK_A_TOKEN, ADMIN_KICK_A_CHANNEL,
	    ADMIN_KICK_A_LEEWAY_MS },
};

/* The call of ends[how] for token, NULL when out of memory. */
static struct script_call *
end_call(struct qstore *qs, enum end_script how, const char *queue,
    const char *token)
{
	char revoked[KEYS_MAX + 48];
	struct queue_keys k;
	struct room_keys rk;
	struct script_call *sc;

	sc = qcall_script(qs, ends[how].id, queue, ends[how].config, &k);
	if (sc != NULL && keys_revoked(revoked, sizeof revoked, qs->prefix,
	    queue, token) != -1)
		script_set(sc, ends[how].revoked, revoked);
	if (sc != NULL && keys_room_queue(&rk, qs->prefix, queue) == 0)
		script_set(sc, ends[how].joins, rk.joins);
	if (sc != NULL) {
		script_set(sc, ends[how].token, token);
		script_set(sc, ends[how].channel, k.events);
		script_set_num(sc, ends[how].leeway_ms, PASS_LEEWAY * 1000);
	}
	return sc;
}

static int
end_eval(struct qstore *qs, enum end_script how, const char *queue,
    struct script_call *sc, qs_end_cb *cb, void *arg)
{
	return qcall_eval_flags(qs, qcall_new(qs, read_end, cb, arg,
	    script_info(ends[how].id)->name, queue), sc, STORE_DURABLE);
}

int
qstore_leave(struct qstore *qs, const char *queue, const char *token,
    qs_end_cb *cb, void *arg)
{
	return end_eval(qs, END_LEAVE, queue, end_call(qs, END_LEAVE, queue,
	    token), cb, arg);
}

int
qstore_kick(struct qstore *qs, const char *queue, const char *token,
    const char *ticket, const char *admin, qs_end_cb *cb, void *arg)
{
	struct script_call *sc = end_call(qs, END_KICK, queue, token);

	if (sc != NULL) {
		script_set(sc, ADMIN_KICK_A_QUEUE, queue);
		script_set(sc, ADMIN_KICK_A_TICKET, ticket);
		qcall_trail(qs, sc, ADMIN_KICK_K_TRAIL,
		    ADMIN_KICK_A_ADMIN, admin);
	}
	return end_eval(qs, END_KICK, queue, sc, cb, arg);
}

static void
read_lookup(struct qcall *c, enum result r, const redisReply *rp)
{
	struct revoke_facts f = { 0, 0 };

	if (r == RESULT_OK && qreply_lookup(rp, &f) == -1)
		r = qcall_misshaped(c);
	((qs_lookup_cb *)c->cb)(r, &f, c->arg);
}

/*
 * The first check of a session needs no answer: a ZREM that finds
 * nothing (every later check, and a pass whose session ended) writes
 * nothing, and one lost to a failing Redis only leaves the session to
 * count as a no-show.
 */
static void
lookup_noted(const struct store_result *res, void *arg)
{
	(void)res, (void)arg;
}

/*
 * MGET of two keys in the queue's hash slot, so a Redis Cluster answers
 * it from one node, and behind it on the same round trip the session's
 * first check recorded: the token leaves the queue's unchecked set
 * (tick.lua's no-shows), once. A script doing both cost Redis 8 us a
 * lookup against 0.2 us for the MGET (redis-benchmark, INFO
 * commandstats); the ZREM costs about as much as the MGET.
 */
int
qstore_lookup(struct qstore *qs, const char *queue, const char *token,
    qs_lookup_cb *cb, void *arg)
{
	char revoked[KEYS_MAX + 48], dropped[KEYS_MAX];
	const char *argv[1 + LOOKUP_FIELDS] = { "MGET" };
	const char *zrem[3] = { "ZREM", NULL, token };
	struct queue_keys k;

	if (keys_queue(&k, qs->prefix, queue) == -1 ||
	    keys_revoked(revoked, sizeof revoked, qs->prefix, queue,
	    token) == -1 || keys_dropped(dropped, qs->prefix, queue) == -1)
		return -1;
	argv[1 + LOOKUP_REVOKED] = revoked;
	argv[1 + LOOKUP_DROPPED] = dropped;
	if (qcall_command(qs, qcall_new(qs, read_lookup, cb, arg, "mget",
	    queue), 1 + LOOKUP_FIELDS, argv) == -1)
		return -1;
	zrem[1] = k.unchecked;
	store_command(qs->store, 3, zrem, NULL, lookup_noted, NULL);
	return 0;
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
	    LUA_RENEW, RENEW_A_TOKEN);
}
