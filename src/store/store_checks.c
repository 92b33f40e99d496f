/*
 * store_checks.c: what a new connection is asked before it serves. ROLE
 * first (only a master takes writes); then, on a command connection, the
 * eviction and durability settings (warnings only) and every script
 * (SCRIPT LOAD): the connection is ready once all are loaded. A
 * subscriber subscribes instead, and is ready once Redis confirms.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store.h"
#include "store_conn.h"

void
store_become_ready(struct store *s)
{
	int first = !s->ever_ready;

	s->ready = 1;
	s->ever_ready = 1;
	s->backoff_ms = 0;
	log_info("event=store_ready role=%s addr=%s%s%d", s->pattern ?
	    "subscriber" : "commands", s->host, s->port ? ":" : "", s->port);
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
