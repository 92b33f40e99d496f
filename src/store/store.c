/*
 * store.c: a Redis connection's life: connect (through Sentinel or
 * not), become ready, drop, retry with backoff, and a subscriber's
 * messages. Its calls are store_call.c's, which stands on it. What a new
 * connection is asked before it serves is in store_checks.c, which opens
 * the store (store_open) and is called back only through the on_connect
 * it gives.
 *
 * Invariants, from hiredis 0.14's async API:
 * - s->ac is NULL whenever hiredis may have freed the context: it frees it
 *   right after a failed connect callback and right after the disconnect
 *   callback, so both callbacks clear s->ac and never free it themselves.
 * - The disconnect callback never fires for a connection that never came
 *   up, so the connect watchdog frees such a context itself (from a timer,
 *   never from inside a hiredis callback).
 * - Freeing the context answers every call hiredis holds (store_call.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event_struct.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libevent.h>

#include "conf.h"
#include "log.h"
#include "sentinel.h"
#include "store.h"
#include "store_conn.h"

#define STORE_CONNECT_TIMEOUT_MS 2000
#define STORE_BACKOFF_MIN_MS 50
#define STORE_BACKOFF_MAX_MS 500

static void store_connect(struct store *s);

void
store_flush(struct store *s)
{
	if (s->ac != NULL && s->connected)
		redisAsyncHandleWrite(s->ac);
}

static void
store_schedule(struct store *s)
{
	struct timeval tv;
	int ms;

	if (s->closing)
		return;
	s->backoff_ms = s->backoff_ms == 0 ? STORE_BACKOFF_MIN_MS :
	    s->backoff_ms * 2;
	if (s->backoff_ms > STORE_BACKOFF_MAX_MS)
		s->backoff_ms = STORE_BACKOFF_MAX_MS;
	/* Jitter of up to a quarter, so instances do not reconnect in step. */
	ms = s->backoff_ms + (int)(random() % (s->backoff_ms / 4 + 1));
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(s->retry, &tv);
}

static void
store_lost(struct store *s)
{
	if (s->connected)
		s->reconnects++;
	s->ac = NULL;
	s->connected = 0;
	s->ready = 0;
	s->loading = 0;
	evtimer_del(s->watchdog);
	store_schedule(s);
}

/* The checks of a connection are done (or a subscription stands). */
void
store_become_ready(struct store *s)
{
	int first = !s->ever_ready;

	s->ready = 1;
	s->ever_ready = 1;
	s->backoff_ms = 0;
	log_info("event=store_ready role=%s addr=%s%s%d", s->pattern ?
	    "subscriber" : "commands", s->host, s->port ? ":" : "", s->port);
	if (s->watch)
		s->watch->connected(s);
	if (s->ready_cb)
		s->ready_cb(first, s->ready_arg);
}

/* Every reply of a subscriber connection: the confirmation, then messages. */
static void
store_on_pmessage(redisAsyncContext *ac, void *reply, void *priv)
{
	struct store *s = priv;
	redisReply *r = reply;

	if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->elements < 3 ||
	    r->element[0]->type != REDIS_REPLY_STRING)
		return;
	if (strcmp(r->element[0]->str, "psubscribe") == 0) {
		store_become_ready(s);
		return;
	}
	if (strcmp(r->element[0]->str, "pmessage") != 0 || r->elements != 4 ||
	    r->element[2]->type != REDIS_REPLY_STRING ||
	    r->element[3]->type != REDIS_REPLY_STRING)
		return;
	s->msg_cb(r->element[2]->str, r->element[3]->str, r->element[3]->len,
	    s->msg_arg);
}

void
store_subscribe(struct store *s)
{
	if (redisAsyncCommand(s->ac, store_on_pmessage, s, "PSUBSCRIBE %s",
	    s->pattern) != REDIS_OK)
		log_error("event=psubscribe_failed pattern=%s", s->pattern);
}

static void
store_on_connect(const redisAsyncContext *ac, int status)
{
	struct store *s = ac->data;

	if (status != REDIS_OK) {
		log_debug("event=redis_connect_failed error=\"%s\"", ac->errstr);
		store_lost(s);	/* hiredis frees ac when we return */
		return;
	}
	evtimer_del(s->watchdog);
	s->connected = 1;
	log_info("event=redis_connected role=%s addr=%s%s%d", s->pattern ?
	    "subscriber" : "commands", s->host, s->port ? ":" : "", s->port);
	s->on_connect(s);
}

static void
store_on_disconnect(const redisAsyncContext *ac, int status)
{
	struct store *s = ac->data;

	if (!s->closing)
		log_warn("event=redis_disconnected error=\"%s\"",
		    status == REDIS_OK ? "closed" : ac->errstr);
	store_lost(s);		/* hiredis frees ac when we return */
}

/* Drop the connection from the loop, not from inside a callback. */
void
store_drop_soon(struct store *s, const char *why)
{
	s->drop_why = why;
	event_active(s->drop_ev, 0, 0);
}

/* Free the context from outside any hiredis callback. */
void
store_drop(struct store *s, const char *why)
{
	redisAsyncContext *ac = s->ac;
	int was_connected = s->connected;

	if (ac == NULL)
		return;
	log_warn("event=redis_drop reason=\"%s\"", why);
	if (!was_connected) {
		s->ac = NULL;
		redisAsyncFree(ac);
		store_lost(s);
		return;
	}
	/* Calls the disconnect callback, which runs store_lost. */
	redisAsyncFree(ac);
}

static void
store_watchdog(evutil_socket_t fd, short what, void *arg)
{
	store_drop(arg, "connect timeout");
}

static void
store_drop_now(evutil_socket_t fd, short what, void *arg)
{
	struct store *s = arg;

	store_drop(s, s->drop_why ? s->drop_why : "dropped");
}

static void
store_retry(evutil_socket_t fd, short what, void *arg)
{
	store_connect(arg);
}

static void store_connect_addr(struct store *s);

/* What the sentinels say the master is; none: try again after backoff. */
static void
store_resolved(const char *host, int port, void *arg)
{
	struct store *s = arg;

	if (host == NULL) {
		log_warn("event=sentinel_no_master master=%s msg=\"no sentinel "
		    "answered with the master's address\"",
		    sentinel_master(s->sen));
		store_lost(s);
		return;
	}
	if (strcmp(host, s->host) != 0 || port != s->port)
		log_info("event=sentinel_master master=%s addr=%s:%d",
		    sentinel_master(s->sen), host, port);
	snprintf(s->host, sizeof s->host, "%s", host);
	s->port = port;
	store_connect_addr(s);
}

/* A failover announced: leave the old master now, ask again. */
static void
store_switched(void *arg)
{
	store_drop_soon(arg, "sentinel: the master moved");
}

static void
store_connect(struct store *s)
{
	if (s->sen == NULL)
		store_connect_addr(s);
	else if (sentinel_resolve(s->sen, store_resolved, s) == -1)
		store_schedule(s);
}

static void
store_connect_addr(struct store *s)
{
	struct timeval tv = { STORE_CONNECT_TIMEOUT_MS / 1000,
	    (STORE_CONNECT_TIMEOUT_MS % 1000) * 1000 };
	redisAsyncContext *ac;

	ac = s->port ? redisAsyncConnect(s->host, s->port) :
	    redisAsyncConnectUnix(s->host);
	if (ac == NULL || ac->err) {
		log_debug("event=redis_connect_failed error=\"%s\"",
		    ac ? ac->errstr : "out of memory");
		if (ac)
			redisAsyncFree(ac);
		store_lost(s);
		return;
	}
	ac->data = s;
	redisLibeventAttach(ac, s->base);
	redisAsyncSetConnectCallback(ac, store_on_connect);
	redisAsyncSetDisconnectCallback(ac, store_on_disconnect);
	s->ac = ac;
	evtimer_add(s->watchdog, &tv);
}

static int
store_parse_addr(struct store *s, const char *addr,
    const struct store_opts *o, char *err, size_t errlen)
{
	struct sentinel_spec sp;
	int port;

	if (sentinel_spec_is(addr)) {
		if (sentinel_spec_parse(addr, &sp) == -1) {
			snprintf(err, errlen, "redis address '%s' is not "
			    "sentinel://host:port,.../master", addr);
			return -1;
		}
		if ((s->sen = sentinel_new(s->base, &sp, o ?
		    o->sentinel_password : NULL)) == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		sentinel_watch(s->sen, store_switched, s);
		return 0;
	}

	if (conf_addr_split(addr, s->host, sizeof s->host, &port) == -1 ||
	    port == 0) {
		snprintf(err, errlen, "redis address '%s' is not host:port or "
		    "unix:/path", addr);
		return -1;
	}
	s->port = port < 0 ? 0 : port;	/* 0: s->host is a socket path */
	return 0;
}

struct store *
store_open(struct event_base *base, const char *addr,
    const struct store_opts *o, const char *pattern, store_message_cb *cb,
    void *arg, void (*on_connect)(struct store *), char *err, size_t errlen)
{
	struct store *s = calloc(1, sizeof *s);

	if (s == NULL || (pattern && (s->pattern = strdup(pattern)) == NULL)) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	s->base = base;
	s->msg_cb = cb;
	s->msg_arg = arg;
	s->on_connect = on_connect;
	s->wait_replicas = o ? o->wait_replicas : 0;
	if (store_parse_addr(s, addr, o, err, errlen) == -1) {
		store_free(s);
		return NULL;
	}
	s->retry = evtimer_new(base, store_retry, s);
	s->watchdog = evtimer_new(base, store_watchdog, s);
	s->drop_ev = event_new(base, -1, 0, store_drop_now, s);
	if (s->retry == NULL || s->watchdog == NULL || s->drop_ev == NULL) {
		snprintf(err, errlen, "out of memory");
		store_free(s);
		return NULL;
	}
	store_connect(s);
	return s;
}

int
store_idle(const struct store *s)
{
	return s->calls == NULL;
}

int
store_is_readonly(const struct store *s)
{
	return s->readonly;
}

void
store_free(struct store *s)
{
	if (s == NULL)
		return;
	s->closing = 1;
	sentinel_free(s->sen);
	if (s->ac) {
		redisAsyncContext *ac = s->ac;

		s->ac = NULL;
		redisAsyncFree(ac);	/* answers every call with NULL */
	}
	if (s->calls && s->end_calls)
		s->end_calls(s, "closing");
	if (s->retry)
		event_free(s->retry);
	if (s->watchdog)
		event_free(s->watchdog);
	if (s->drop_ev)
		event_free(s->drop_ev);
	if (s->watch)
		s->watch->closing(s);
	free(s->pattern);
	free(s);
}


int
store_is_ready(const struct store *s)
{
	return s->ready;
}

void
store_on_ready(struct store *s, store_ready_cb *cb, void *arg)
{
	s->ready_cb = cb;
	s->ready_arg = arg;
}

unsigned long
store_reconnects(const struct store *s)
{
	return s->reconnects;
}
