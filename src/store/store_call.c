/*
 * store_call.c: the calls of a store's command connection (store.c):
 * each command's copy, its timeout, EVALSHA with its NOSCRIPT retry, WAIT
 * behind a durable call, and loading the scripts. It stands on store.c
 * (it drops the connection on a timeout or READONLY, and makes it ready
 * once the scripts are in); store.c reaches it only through the
 * end_calls hook it sets (store_conn.h), so the two form no ring.
 *
 * Invariants, from hiredis 0.14's async API:
 * - Every command is a struct call that owns a copy of its arguments and a
 *   timeout timer. Its hiredis callback always runs exactly once (with a
 *   NULL reply on disconnect), and that callback frees the call. A timeout
 *   answers the caller early, marks the call answered, and drops the
 *   connection, since a Redis that does not answer one command in time is
 *   not answering the ones queued behind it either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event_struct.h>
#include <hiredis/async.h>

#include "clock.h"
#include "log.h"
#include "metrics.h"
#include "store.h"
#include "store_conn.h"

#define STORE_CMD_TIMEOUT_MS 3000
#define STORE_WAIT_MS 1000	/* WAIT's timeout for durable calls */

struct call {
	struct store *s;
	store_cb *cb;
	void *arg;
	struct event timer;
	int answered;		/* cb has run (timeout or reply) */
	long long sent_us;	/* for the latency histogram */
	int script;		/* lua_script_id, -1 for a plain command */
	int durable;		/* answered once replicas confirm (WAIT) */
	redisReply *held;	/* durable: the reply, until WAIT answers */
	int argc;
	const char **argv;	/* into the call's own block (or static text) */
	size_t *lens;
	struct call *prev, *next;
};

/* Out of the list of calls hiredis holds, its timer stopped. */
static void
call_unlink(struct call *c)
{
	if (evtimer_initialized(&c->timer))
		evtimer_del(&c->timer);
	if (c->prev)
		c->prev->next = c->next;
	else if (c->s->calls == c)
		c->s->calls = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->prev = c->next = NULL;
}

static void
call_free(struct call *c)
{
	if (c == NULL)
		return;
	call_unlink(c);
	if (c->held)
		freeReplyObject(c->held);
	free(c);
}

/* A deep copy of r, for freeReplyObject; NULL when out of memory. */
static redisReply *
reply_dup(const redisReply *r)
{
	redisReply *d = calloc(1, sizeof *d);

	if (d == NULL)
		return NULL;
	d->type = r->type, d->integer = r->integer, d->len = r->len;
	if (r->str && (d->str = malloc(r->len + 1)) != NULL) {
		memcpy(d->str, r->str, r->len);
		d->str[r->len] = '\0';
	} else if (r->str)
		goto fail;
	if (r->type != REDIS_REPLY_ARRAY || r->elements == 0)
		return d;
	if ((d->element = calloc(r->elements, sizeof *d->element)) == NULL)
		goto fail;
	d->elements = r->elements;
	for (size_t i = 0; i < r->elements; i++)
		if ((d->element[i] = reply_dup(r->element[i])) == NULL)
			goto fail;
	return d;
fail:
	freeReplyObject(d);
	return NULL;
}

static void
call_answer(struct call *c, enum store_status status, const redisReply *r,
    enum store_error code, const char *error)
{
	struct store_result res = { status, r, code, error };

	if (c->answered)
		return;
	c->answered = 1;
	evtimer_del(&c->timer);
	metrics_redis((double)(clock_mono_us() - c->sent_us) / 1e6);
	if (c->cb)
		c->cb(&res, c->arg);
}

static void
call_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct call *c = arg;
	struct store *s = c->s;

	call_answer(c, STORE_UNAVAILABLE, NULL, STORE_ERR_NO_ANSWER, "timeout");
	store_drop(s, "command timeout");
}

/* One block holds the call, its argument vector and a copy of each one. */
static struct call *
call_new(struct store *s, int argc, const char *const *argv,
    const size_t *lens, store_cb *cb, void *arg)
{
	size_t bytes = 0;
	struct call *c;
	char *p;

	for (int i = 0; i < argc; i++)
		bytes += (lens ? lens[i] : strlen(argv[i])) + 1;
	c = calloc(1, sizeof *c + argc * (sizeof *c->argv + sizeof *c->lens) +
	    bytes);
	if (c == NULL)
		return NULL;
	c->s = s, c->cb = cb, c->arg = arg, c->script = -1, c->argc = argc;
	c->argv = (const char **)(c + 1);
	c->lens = (size_t *)(c->argv + argc);
	p = (char *)(c->lens + argc);
	for (int i = 0; i < argc; i++) {
		size_t n = lens ? lens[i] : strlen(argv[i]);

		memcpy(p, argv[i], n);
		p[n] = '\0';
		c->argv[i] = p, c->lens[i] = n;
		p += n + 1;
	}
	evtimer_assign(&c->timer, s->base, call_timeout, c);
	c->sent_us = clock_mono_us();
	return c;
}

/* Replace argv[0..1] (EVALSHA sha) by EVAL body, for a NOSCRIPT retry. */
static void
call_use_eval(struct call *c)
{
	const char *body = lua_script_body[c->script];

	c->argv[0] = "EVAL", c->lens[0] = 4;
	c->argv[1] = body, c->lens[1] = strlen(body);
}

static void call_reply(redisAsyncContext *ac, void *reply, void *priv);
static int call_send_wait(struct store *s, struct call *c);

/* store_free's end_calls: answer and free the calls left. */
static void
call_end_all(struct store *s, const char *why)
{
	while (s->calls) {
		call_answer(s->calls, STORE_UNAVAILABLE, NULL,
		    STORE_ERR_NO_ANSWER, why);
		call_free(s->calls);
	}
}

/* Hand the call to hiredis, which then owns it until call_reply. */
static int
call_send(struct store *s, struct call *c)
{
	struct timeval tv = { STORE_CMD_TIMEOUT_MS / 1000,
	    (STORE_CMD_TIMEOUT_MS % 1000) * 1000 };

	if (s->ac == NULL || redisAsyncCommandArgv(s->ac, call_reply, c,
	    c->argc, c->argv, c->lens) != REDIS_OK)
		return -1;
	if (!c->prev && s->calls != c) {
		c->next = s->calls;
		if (s->calls)
			s->calls->prev = c;
		s->calls = c;
		s->end_calls = call_end_all;
	}
	if (!c->answered)
		evtimer_add(&c->timer, &tv);
	if (c->durable && call_send_wait(s, c) == -1)
		c->durable = 0;		/* the connection is going: NULL */
	return 0;
}

/*
 * The script cache was flushed: the scripts load again, and c runs its
 * body once with EVAL; a durable call is answered 503 instead (the client
 * retries once they are loaded). 0 when c went again.
 */
static int
call_noscript(struct store *s, struct call *c)
{
	log_warn("event=noscript script=%s", script_info(c->script)->name);
	if (s->loading == 0)
		store_load_scripts(s);
	if (c->durable || c->answered) {
		call_answer(c, STORE_UNAVAILABLE, NULL, STORE_ERR_NOSCRIPT,
		    "script cache flushed");
		return -1;
	}
	call_use_eval(c);
	evtimer_del(&c->timer);
	if (call_send(s, c) == 0)
		return 0;
	call_answer(c, STORE_UNAVAILABLE, NULL, STORE_ERR_NO_ANSWER,
	    "not connected");
	return -1;
}

static void
call_reply(redisAsyncContext *ac, void *reply, void *priv)
{
	struct call *c = priv;
	struct store *s = c->s;
	redisReply *r = reply;
	enum store_error e = r && r->type == REDIS_REPLY_ERROR ?
	    store_error_of(r->str) : STORE_ERR_NONE;

	if (r == NULL)
		call_answer(c, STORE_UNAVAILABLE, NULL, STORE_ERR_NO_ANSWER,
		    "disconnected");
	else if (e == STORE_ERR_NOSCRIPT && c->script >= 0) {
		if (call_noscript(s, c) == 0)
			return;		/* hiredis holds c again */
	} else if (e != STORE_ERR_NONE) {
		/* A master demoted under us: find the master again. */
		if (e == STORE_ERR_READONLY)
			store_drop_soon(s, "READONLY");
		call_answer(c, e == STORE_ERR_OTHER || e == STORE_ERR_NOSCRIPT ?
		    STORE_ERROR : STORE_UNAVAILABLE, r, e, r->str);
	} else if (c->durable) {
		/* Held for WAIT's answer, which frees c. */
		if (!c->answered && (c->held = reply_dup(r)) == NULL)
			call_answer(c, STORE_ERROR, NULL, STORE_ERR_OTHER,
			    "out of memory");
	} else
		call_answer(c, STORE_OK, r, STORE_ERR_NONE, NULL);
	if (c->durable)
		call_unlink(c);		/* WAIT's answer frees it */
	else
		call_free(c);
}

/*
 * WAIT answered for the durable call c: c's reply counts only when as
 * many replicas as asked have it, so a failover cannot lose what was
 * acknowledged. (A durable call that meets NOSCRIPT is answered 503
 * rather than run again: the scripts load at once, the client retries.)
 */
static void
call_waited(const struct store_result *res, void *arg)
{
	struct call *c = arg;
	long want = c->s->wait_replicas;

	c->s->waits--;
	if (res->status == STORE_OK && res->reply->type ==
	    REDIS_REPLY_INTEGER && c->s->watch)
		c->s->watch->waited(c->s, res->reply->integer);
	if (!c->answered && c->held && res->status == STORE_OK &&
	    res->reply->type == REDIS_REPLY_INTEGER &&
	    res->reply->integer >= want)
		call_answer(c, STORE_OK, c->held, STORE_ERR_NONE, NULL);
	else if (!c->answered)
		call_answer(c, STORE_UNAVAILABLE, NULL, STORE_ERR_NO_ANSWER,
		    "replicas did not confirm in time");
	call_free(c);
}

static int
call_send_wait(struct store *s, struct call *c)
{
	char n[24], ms[24];
	const char *argv[] = { "WAIT", n, ms };
	struct call *w;

	snprintf(n, sizeof n, "%ld", s->wait_replicas);
	snprintf(ms, sizeof ms, "%d", STORE_WAIT_MS);
	if ((w = call_new(s, 3, argv, NULL, call_waited, c)) == NULL)
		return -1;
	if (call_send(s, w) == -1) {
		call_free(w);
		return -1;
	}
	s->waits++;
	return 0;
}

/* Queue a command whatever the ready state (for loading scripts). */
int
store_send(struct store *s, int script, int argc, const char *const *argv,
    const size_t *lens, store_cb *cb, void *arg, int durable)
{
	struct call *c;

	if (s->ac == NULL || !s->connected)
		return -1;
	if ((c = call_new(s, argc, argv, lens, cb, arg)) == NULL)
		return -1;
	c->script = script;
	c->durable = durable;
	if (call_send(s, c) == -1) {
		call_free(c);
		return -1;
	}
	return 0;
}

int
store_command(struct store *s, int argc, const char *const *argv,
    const size_t *lens, store_cb *cb, void *arg)
{
	if (!s->ready)
		return -1;
	return store_send(s, -1, argc, argv, lens, cb, arg, 0);
}

int
store_eval(struct store *s, enum lua_script_id id, int nkeys, int argc,
    const char *const *argv, const size_t *lens, store_cb *cb, void *arg)
{
	return store_eval_flags(s, id, nkeys, argc, argv, lens, cb, arg, 0);
}

int
store_eval_flags(struct store *s, enum lua_script_id id, int nkeys,
    int argc, const char *const *argv, const size_t *lens, store_cb *cb,
    void *arg, int flags)
{
	const char *full[argc + 3];
	size_t flens[argc + 3];
	char nk[16];

	if (!s->ready)
		return -1;
	snprintf(nk, sizeof nk, "%d", nkeys);
	full[0] = "EVALSHA", full[1] = s->sha[id], full[2] = nk;
	flens[0] = 7, flens[1] = strlen(s->sha[id]), flens[2] = strlen(nk);
	for (int i = 0; i < argc; i++) {
		full[i + 3] = argv[i];
		flens[i + 3] = lens ? lens[i] : strlen(argv[i]);
	}
	return store_send(s, id, argc + 3, full, flens, cb, arg,
	    (flags & STORE_DURABLE) && s->wait_replicas > 0);
}

struct script_load {
	struct store *s;
	int id;
};

static void
store_loaded(const struct store_result *res, void *arg)
{
	struct script_load *l = arg;
	struct store *s = l->s;
	int id = l->id;

	free(l);
	if (res->status != STORE_OK || res->reply->type != REDIS_REPLY_STRING ||
	    res->reply->len != 40) {
		log_error("event=script_load_failed script=%s error=\"%s\"",
		    script_info(id)->name, res->error ? res->error : "bad reply");
		return;
	}
	memcpy(s->sha[id], res->reply->str, 40);
	s->sha[id][40] = '\0';
	if (--s->loading == 0 && s->connected && !s->ready)
		store_become_ready(s);
}

void
store_load_scripts(struct store *s)
{
	s->loading = LUA_NSCRIPTS;
	for (int i = 0; i < LUA_NSCRIPTS; i++) {
		const char *argv[] = { "SCRIPT", "LOAD", lua_script_body[i] };
		struct script_load *l = malloc(sizeof *l);

		if (l == NULL)
			continue;
		l->s = s, l->id = i;
		if (store_send(s, -1, 3, argv, NULL, store_loaded, l, 0) == -1)
			free(l);
	}
}
