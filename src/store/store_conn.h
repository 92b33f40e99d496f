/*
 * store_conn.h: what store.c and store_checks.c share of a connection.
 * Not for callers of the store: they use store.h.
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
	struct call *calls;	/* every call hiredis still holds */
	char *pattern;		/* a subscriber: what it PSUBSCRIBEs */
	store_message_cb *msg_cb;
	void *msg_arg;
	struct sentinel *sen;	/* NULL: a fixed address */
	int readonly;		/* the Redis reached is not a master */
	struct event *drop_ev;	/* drops the connection from the loop */
	const char *drop_why;
	long wait_replicas;	/* durable calls wait for as many replicas */
};

/* Queue a command whatever the ready state (for loading scripts). */
int store_send(struct store *s, int script, int argc,
    const char *const *argv, const size_t *lens, store_cb *cb, void *arg,
    int durable);
/* Drop the connection from the loop, not from inside a callback. */
void store_drop_soon(struct store *s, const char *why);
/* A subscriber's PSUBSCRIBE of its pattern. */
void store_subscribe(struct store *s);

/* store_checks.c: ROLE first, then the rest (see there). */
void store_check_role(struct store *s);
void store_load_scripts(struct store *s);
void store_become_ready(struct store *s);

#endif
