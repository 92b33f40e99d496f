/*
 * store_conn.h: what store.c, store_call.c and store_checks.c share of
 * a connection. Not for callers of the store: they use store.h.
 * store_checks.c stands on store.c: it opens the connection, and store.c
 * calls it back only through on_connect. store_call.c (the calls) stands
 * on store.c too, which reaches it only through end_calls.
 */
#ifndef WR_STORE_CONN_H
#define WR_STORE_CONN_H

#include <hiredis/async.h>

#include "conf.h"
#include "script.h"
#include "store.h"

struct call;
struct sentinel;

struct store {
	struct event_base *base;
	char host[CONF_ADDR_MAX];
	int port;		/* 0: host is a unix socket path */
	redisAsyncContext *ac;
	int connected;
	int loading;		/* SCRIPT LOADs still unanswered */
	int ready;
	int ever_ready;
	int closing;
	char sha[LUA_NSCRIPTS][41];
	struct event *retry;
	struct event *watchdog;
	int backoff_ms;
	unsigned long reconnects;
	store_ready_cb *ready_cb;
	void *ready_arg;
	void (*on_connect)(struct store *s);	/* each connect: the checks */
	struct call *calls;	/* every call hiredis still holds */
	/* store_call.c's, set with the first call: answers and frees those
	 * left at store_free (freeing the context answers them already). */
	void (*end_calls)(struct store *s, const char *why);
	char *pattern;		/* a subscriber: what it PSUBSCRIBEs */
	store_message_cb *msg_cb;
	void *msg_arg;
	struct sentinel *sen;	/* NULL: a fixed address */
	int readonly;		/* the Redis reached is not a master */
	struct event *drop_ev;	/* drops the connection from the loop */
	const char *drop_why;
	long wait_replicas;	/* durable calls wait for as many replicas */
	const struct store_watch *watch;	/* NULL: none attached */
	int replicas;		/* store_replicas.c: what the last WAIT said */
	int waits;		/* WAITs in flight */
	struct event *probe;	/* a WAIT while short; NULL: not watched */
};

/*
 * A connection to addr, a subscriber when pattern is not NULL (store.h's
 * store_new, store_new_subscriber), that runs on_connect each time it
 * connects: it sends what must come first, and calls store_become_ready
 * (or store_subscribe) when the connection may serve.
 */
struct store *store_open(struct event_base *base, const char *addr,
    const struct store_opts *o, const char *pattern, store_message_cb *cb,
    void *arg, void (*on_connect)(struct store *), char *err, size_t errlen);
/* The connection serves now: say so, and call the store's ready_cb. */
void store_become_ready(struct store *s);
/* store_call.c: SCRIPT LOAD every script; the connection is ready once
 * all are in. */
void store_load_scripts(struct store *s);
/* store_call.c: queue a command whatever the ready state (for loading
 * scripts and the checks). */
int store_send(struct store *s, int script, int argc,
    const char *const *argv, const size_t *lens, store_cb *cb, void *arg,
    int durable);
/* Drop the connection from the loop, not from inside a callback. */
void store_drop_soon(struct store *s, const char *why);
/* Drop it now: free the context, from outside any hiredis callback. */
void store_drop(struct store *s, const char *why);
/* A subscriber's PSUBSCRIBE of its pattern. */
void store_subscribe(struct store *s);

/*
 * A helper that follows the connection (store_replicas.c), attached by
 * whoever opened the store: store.c calls it only through these, as it
 * runs its checks only through on_connect.
 */
struct store_watch {
	void (*connected)(struct store *s);	/* a connection is ready */
	void (*waited)(struct store *s, long long have);	/* a WAIT's count */
	void (*closing)(struct store *s);	/* store_free */
};

/*
 * store_replicas.c: whether WAIT meets wait_replicas, attached to a
 * commands store after store_open (nothing to watch when wait_replicas is
 * 0). -1 out of memory.
 */
int store_replicas_attach(struct store *s);

/* store_checks.c: ROLE first, then the rest (see there). */
void store_check_role(struct store *s);

#endif
