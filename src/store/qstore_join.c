/*
 * qstore_join.c: a batch of joins, one run of join.lua (see qstore.h's
 * qstore_join): the keys and arguments of each join by their names in
 * scripts.def, and the reply read whole, its head and every entry, before
 * the batch's callback runs.
 */
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "qstore.h"
#include "qstore_call.h"
#include "qstore_held.h"
#include "qstore_reply.h"
#include "script.h"
#include "store.h"
#include "text.h"
#include "validate.h"

/* A user key outlives any sane wait; join ignores it once its token left. */
#define USER_KEY_TTL 86400

/* A batch's tokens, its call's own: a bare "new" entry names none. */
typedef char join_token[VALID_TOKEN_LEN + 1];

/* The head of a batch's reply into head; -1 when misshaped. */
static int
join_head(struct qcall *c, const redisReply *rp, struct standing *head)
{
	struct held_head hh;

	switch (qreply_join_head(rp, head, &hh)) {
	case JOIN_HEAD_NO_QUEUE:
		return 0;
	case JOIN_HEAD_FULL:
		held_put(c->qs->held, c->queue, head, &hh);
		return 0;
	case JOIN_HEAD_HELD:
		return c->held ? held_fill(c->qs->held, c->queue, head) : -1;
	}
	return -1;
}

/* Every entry of the reply rp, in order, into each[]; -1 when one is
 * misshaped. */
static int
join_entries(const redisReply *rp, const join_token *tokens,
    const struct standing *head, struct qs_joined *each, size_t n)
{
	long long line = head->waiting;
	struct standing s;

	for (size_t i = 0; i < n; i++) {
		struct qs_joined *j = &each[i];

		if (qreply_join_entry(rp->element[JOIN_ENTRIES + i], tokens[i],
		    &line, &j->r, &s) == -1)
			return -1;
		text_copy(j->token, sizeof j->token, s.token);
		j->active = s.active, j->prequeue = s.prequeue;
		j->n = s.n, j->waiting = s.waiting;
	}
	return 0;
}

static void
read_joins(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_joined each[QSTORE_JOIN_MAX];
	struct standing head;

	memset(&head, 0, sizeof head);
	if (r == RESULT_OK && (rp->type != REDIS_REPLY_ARRAY ||
	    rp->elements != JOIN_ENTRIES + c->n ||
	    join_head(c, rp->element[JOIN_HEAD], &head) == -1 ||
	    join_entries(rp, c->extra, &head, each, c->n) == -1))
		r = qcall_misshaped(c);
	if (c->held)
		held_done(c->qs->held, c->queue);
	((qs_joins_cb *)c->cb)(r, &head, each, r == RESULT_OK ? (int)c->n : 0,
	    c->arg);
}

/* Join i's user key and its join number; -1 when the key does not fit. */
static int
join_user(struct script_call *sc, const char *prefix, const char *queue,
    int i, const char *user)
{
	char key[KEYS_USER_MAX];

	if (keys_user(key, sizeof key, prefix, queue, user) == -1)
		return -1;
	script_add(sc, JOIN_K_USERS, key);
	script_add_num(sc, JOIN_A_USER_JOINS, i + 1);
	return 0;
}

/* Join i's use key, with its kind, limit and expiry; -1 when not valid. */
static int
join_use(struct script_call *sc, const char *prefix, const char *queue,
    int i, const struct qs_use *u)
{
	char key[KEYS_USED_MAX];

	if (keys_used(key, prefix, queue, u->kind, u->id) == -1)
		return -1;
	script_add(sc, JOIN_K_USES, key);
	script_add_num(sc, JOIN_A_USE_JOINS, i + 1);
	script_add(sc, JOIN_A_USE_KINDS, u->kind);
	script_add_num(sc, JOIN_A_USE_LIMITS, u->limit);
	script_add_num(sc, JOIN_A_USE_EXPIRIES, u->expires_ms);
	return 0;
}

/* The batch's joins into sc (join.lua's header: KEYS and ARGV). */
static int
join_args(struct qstore *qs, struct script_call *sc, const char *queue,
    int n, const char *const *tokens, const char *const *users,
    const struct qs_use *const *uses)
{
	script_set_num(sc, JOIN_A_USER_TTL, USER_KEY_TTL);
	for (int i = 0; i < n; i++) {
		if (users[i] != NULL &&
		    join_user(sc, qs->prefix, queue, i, users[i]) == -1)
			return -1;
		if (uses != NULL && uses[i] != NULL &&
		    join_use(sc, qs->prefix, queue, i, uses[i]) == -1)
			return -1;
		script_add(sc, JOIN_A_TOKENS, tokens[i]);
	}
	return 0;
}

int
qstore_join(struct qstore *qs, const char *queue, int n,
    const char *const *tokens, const char *const *users,
    const struct qs_use *const *uses, qs_joins_cb *cb, void *arg)
{
	struct script_call *sc = NULL;
	struct held_send hs;
	struct qcall *c;
	join_token *own;

	if (n < 1 || n > QSTORE_JOIN_MAX || (c = qcall_new_extra(qs,
	    read_joins, cb, arg, "join", queue, (size_t)n * sizeof *own)) ==
	    NULL)
		return -1;
	own = c->extra;
	for (int i = 0; i < n; i++)
		text_copy(own[i], sizeof own[i], tokens[i]);
	c->n = (size_t)n;
	if ((sc = qcall_script(qs, LUA_JOIN, queue, JOIN_K_CONFIG, NULL)) ==
	    NULL || join_args(qs, sc, queue, n, tokens, users, uses) == -1) {
		script_call_free(sc);
		free(c);
		return -1;
	}
	held_send(qs->held, queue, &hs);
	c->held = hs.ver[0] != '\0';
	script_set(sc, JOIN_A_HELD_VER, c->held ? hs.ver : "0");
	script_set_num(sc, JOIN_A_HELD_MAX_WAITING, hs.max_waiting);
	script_set_num(sc, JOIN_A_HELD_CLOSES_AT, hs.closes_at_ms);
	if (qcall_eval_flags(qs, c, sc, STORE_DURABLE) == 0)
		return 0;
	if (hs.ver[0] != '\0')
		held_done(qs->held, queue);
	return -1;
}
