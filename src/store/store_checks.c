/*
 * store_checks.c: what a new connection is asked before it serves. ROLE
 * first (only a master takes writes); then, on a command connection, the
 * eviction and durability settings (warnings only), and the store loads
 * every script (SCRIPT LOAD): the connection is ready once all are
 * loaded. A subscriber subscribes instead, and is ready once Redis
 * confirms.
 *
 * The sequence is driven from here: store_new opens a connection
 * (store.c) with store_check_role as what it runs on every connect, and
 * each step calls the store below; store.c never calls back up.
 */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "store.h"
#include "store_conn.h"

static void
store_policy(const struct store_result *res, void *arg)
{
	const redisReply *r = res->reply;

	if (res->status != STORE_OK || r->type != REDIS_REPLY_ARRAY ||
	    r->elements != 2 || r->element[1]->type != REDIS_REPLY_STRING)
		return;
	if (strcmp(r->element[1]->str, "noeviction") != 0)
		log_warn("event=redis_eviction policy=%s msg=\"Redis may evict "
		    "queue keys and lose places in line: set maxmemory-policy "
		    "noeviction\"", r->element[1]->str);
}

/* CONFIG GET appendonly save: a Redis that keeps nothing on disk. */
static void
store_durability(const struct store_result *res, void *arg)
{
	const redisReply *r = res->reply;
	static int said;
	const char *aof = NULL, *save = NULL;

	if (said || res->status != STORE_OK || r->type != REDIS_REPLY_ARRAY)
		return;
	for (size_t i = 0; i + 1 < r->elements; i += 2) {
		if (r->element[i]->type != REDIS_REPLY_STRING ||
		    r->element[i + 1]->type != REDIS_REPLY_STRING)
			return;
		if (strcmp(r->element[i]->str, "appendonly") == 0)
			aof = r->element[i + 1]->str;
		else if (strcmp(r->element[i]->str, "save") == 0)
			save = r->element[i + 1]->str;
	}
	if (aof && save && strcmp(aof, "no") == 0 && save[0] == '\0') {
		said = 1;
		log_warn("event=redis_not_durable msg=\"Redis keeps neither an "
		    "AOF nor RDB snapshots: a restart loses every place in line; "
		    "set appendonly yes\"");
	}
}

static void
store_check_policy(struct store *s)
{
	const char *argv[] = { "CONFIG", "GET", "maxmemory-policy" };
	const char *dur[] = { "CONFIG", "GET", "appendonly", "save" };

	store_send(s, -1, 3, argv, NULL, store_policy, NULL, 0);
	store_send(s, -1, 4, dur, NULL, store_durability, NULL, 0);
}

/*
 * ROLE, first thing on a connection: only a master takes our writes. A
 * replica (a failover moved the master, or the address names one) is
 * left, and asked again after the backoff; through Sentinel, the master
 * is asked for anew.
 */
static void
store_role(const struct store_result *res, void *arg)
{
	struct store *s = arg;
	const redisReply *r = res->reply;
	const char *role = "master";

	if (res->status != STORE_OK)
		return;		/* the connection is going: store_lost */
	if (r->type == REDIS_REPLY_ARRAY && r->elements > 0 &&
	    r->element[0]->type == REDIS_REPLY_STRING)
		role = r->element[0]->str;
	if (strcmp(role, "master") != 0) {
		if (!s->readonly)
			log_warn("event=store_readonly role=%s addr=%s:%d "
			    "msg=\"not a master: its writes are refused\"", role,
			    s->host, s->port);
		s->readonly = 1;
		store_drop_soon(s, "not a master");
		return;
	}
	s->readonly = 0;
	if (s->pattern) {
		store_subscribe(s);
		return;
	}
	store_check_policy(s);
	store_load_scripts(s);
}

void
store_check_role(struct store *s)
{
	const char *argv[] = { "ROLE" };

	if (store_send(s, -1, 1, argv, NULL, store_role, s, 0) == -1)
		store_drop_soon(s, "cannot send ROLE");
}

struct store *
store_new(struct event_base *base, const char *addr,
    const struct store_opts *o, char *err, size_t errlen)
{
	struct store *s = store_open(base, addr, o, NULL, NULL, NULL,
	    store_check_role, err, errlen);

	if (s != NULL && store_replicas_attach(s) == -1) {
		snprintf(err, errlen, "out of memory");
		store_free(s);
		return NULL;
	}
	return s;
}

struct store *
store_new_subscriber(struct event_base *base, const char *addr,
    const struct store_opts *o, const char *pattern, store_message_cb *cb,
    void *arg, char *err, size_t errlen)
{
	return store_open(base, addr, o, pattern, cb, arg, store_check_role,
	    err, errlen);
}
