/*
 * qstore.h: the queue store. Every call the daemon makes into Redis, with
 * the KEYS and ARGV each Lua script takes in the order its header (and
 * lua/lib.lua) states, and its reply read into C structs (qstore_reply.h).
 * Callers get typed callbacks and never see a redisReply; what a callback
 * is given is borrowed and valid only during the call.
 *
 * Each call returns -1 without calling back when the store is not ready
 * (the caller answers 503 or skips); else 0, and the callback runs exactly
 * once, later, from the loop, with RESULT_UNAVAILABLE when Redis did not
 * answer and RESULT_ERROR (logged here) when it answered an error or a
 * reply of the wrong shape.
 */
#ifndef WR_QSTORE_H
#define WR_QSTORE_H

#include <stddef.h>

#include "conf.h"
#include "figures.h"
#include "result.h"
#include "renewals.h"
#include "revoke.h"
#include "standing.h"
#include "validate.h"

struct store;
struct qstore;

/* Calls through s (borrowed) for the keys under prefix (copied). */
struct qstore *qstore_new(struct store *s, const char *prefix);
void qstore_free(struct qstore *qs);

/* Send what hiredis holds now (see store_flush). */
void qstore_flush(struct qstore *qs);

/*
 * Redis is full (maxmemory, noeviction): it refused a write for memory,
 * and no admission tick has found it taking writes since. The start of
 * such an episode is logged once (event=store_full, with Redis's used and
 * max memory); tick.lua holds back the abandonment sweep meanwhile and
 * for waiting_ttl after it, on every instance.
 */
int qstore_full(const struct qstore *qs);

/* A call that answers only its outcome (RESULT_OK, or what went wrong). */
typedef void qs_done_cb(enum result r, void *arg);

typedef void qs_standing_cb(enum result r, const struct standing *s,
    void *arg);

/* status.lua: where token stands (RESULT_OK, NO_QUEUE or GONE). */
int qstore_status(struct qstore *qs, const char *queue, const char *token,
    qs_standing_cb *cb, void *arg);
/* summary.lua: the queue's facts; s->n is its active sessions, and
 * s->fail_open_until what its hash says now. */
int qstore_summary(struct qstore *qs, const char *queue, qs_standing_cb *cb,
    void *arg);

/*
 * A join's use key (keys_used): the join is refused (RESULT_USED) when
 * limit joins carried it already; a join answered with a place counts one
 * use, and the count lives until expires_ms (unix ms). kind and id as
 * keys_valid_used takes them; join.lua is told the kind (an invitation's,
 * "invite", opens an invite-only queue), not left to read it in the key.
 */
struct qs_use {
	const char *kind;
	const char *id;
	long limit;
	long long expires_ms;
};

/*
 * One join's answer: its result (NEW, EXISTING, NO_QUEUE, CLOSED, FULL,
 * USED, INVITE_REQUIRED, NOT_OPEN, ERROR) and, with a place, the token's
 * part of its standing: the token, its status, n and the line's length.
 */
struct qs_joined {
	enum result r;
	char token[VALID_TOKEN_LEN + 1];
	int active, prequeue;
	long long n, waiting;
};

/* Joins in one run of join.lua: a run stays short however many come. */
#define QSTORE_JOIN_MAX 64

/*
 * join.lua for n joins (at most QSTORE_JOIN_MAX) of queue at once:
 * tokens[i] drawn by the caller, users[i] the user it names or NULL,
 * uses[i] its use key or NULL (uses itself may be NULL: none has one). cb
 * runs once for the batch; when r is RESULT_OK, head holds the queue's
 * facts every join shares and each[i] join i's answer, all read before cb
 * runs.
 */
typedef void qs_joins_cb(enum result r, const struct standing *head,
    const struct qs_joined *each, int n, void *arg);
int qstore_join(struct qstore *qs, const char *queue, int n,
    const char *const *tokens, const char *const *users,
    const struct qs_use *const *uses, qs_joins_cb *cb, void *arg);

/* ranks.lua: the standing of n streamed tokens at once. */
struct qs_ranks {
	struct standing s;	/* the queue's part */
	const char *kinds;	/* per token: 'w' waiting, 'a' active, 'g' gone */
	const long long *values;	/* 0-based rank, expiry ms, or 0 */
	const long long *lines;	/* its number in the line (line_view.h): the
				 * ticket, minus the drawn place, or 0 */
};
#define QSTORE_RANKS_MAX 1000
typedef void qs_ranks_cb(enum result r, const struct qs_ranks *rk, void *arg);
int qstore_ranks(struct qstore *qs, const char *queue, int n,
    const char *const *tokens, qs_ranks_cb *cb, void *arg);

/* tick.lua: one admission tick moving at most cap per kind. */
typedef void qs_tick_cb(enum result r, const struct tick_figures *t,
    void *arg);
int qstore_tick(struct qstore *qs, const char *queue, long cap,
    qs_tick_cb *cb, void *arg);

/* A list of names or tokens. */
typedef void qs_strings_cb(enum result r, const char *const *list, size_t n,
    void *arg);

/* The registry: every queue's name. */
int qstore_queues(struct qstore *qs, qs_strings_cb *cb, void *arg);

/* leave.lua: the visitor ends token's place or session and its pass is
 * revoked; was_active says which it was. */
typedef void qs_end_cb(enum result r, int was_active, void *arg);
int qstore_leave(struct qstore *qs, const char *queue, const char *token,
    qs_end_cb *cb, void *arg);

/* Has token's session been ended (its pass revoked), and when was queue
 * last dropped? One read of two keys. */
typedef void qs_lookup_cb(enum result r, const struct revoke_facts *f,
    void *arg);
int qstore_lookup(struct qstore *qs, const char *queue, const char *token,
    qs_lookup_cb *cb, void *arg);

/*
 * renew.lua: a pass was used. In a queue with renew = yes the session's
 * end slides to active_ttl from now (at most once every few seconds);
 * RESULT_OK with the end in force, RESULT_GONE when there is no session.
 */
typedef void qs_renew_cb(enum result r, const struct renewal *rn,
    void *arg);
int qstore_renew(struct qstore *qs, const char *queue, const char *token,
    qs_renew_cb *cb, void *arg);
/* admin_show.lua: figures of n queues, f[i] for names[i]. */
typedef void qs_figures_cb(enum result r, const struct queue_figures *f,
    size_t n, void *arg);
int qstore_show(struct qstore *qs, const char *const *names, size_t n,
    qs_figures_cb *cb, void *arg);

/*
 * admin_put.lua: change the given fields (npairs field/value pairs) of
 * queue, or create it whole from q (the given values over the defaults).
 * When the queue then has a schedule and no seed, seed and commit (hex)
 * are written in the same run. RESULT_NEW when created; config is the
 * hash afterwards; RESULT_BAD_SCHEDULE with fault, RESULT_DRAW_DONE,
 * RESULT_DRAW_STARTED, RESULT_DRAW_ENTRANTS: refused, nothing written.
 */
struct qs_put {
	const char *const *pairs;
	int npairs;
	const struct queue_conf *q;
	const char *seed, *commit;
	const char *admin;	/* who, for the trail (admins.c's name) */
};
typedef void qs_config_cb(enum result r, const struct qconfig *config,
    const struct qschedule_fault *fault, void *arg);
int qstore_put(struct qstore *qs, const char *queue, const struct qs_put *p,
    qs_config_cb *cb, void *arg);

/*
 * The admin API's writes record themselves on the trail (<prefix>:trail)
 * in the run that makes the change, with admin, the admin's name
 * (admins.c): a refused call records nothing.
 */

/* admin_state.lua: set state to, only from from (NULL: any); verb is
 * the trail's action (pause, resume, close, open). */
typedef void qs_state_cb(enum result r, const char *before,
    const char *after, void *arg);
struct qs_state {
	const char *to, *from, *verb, *admin;
};
int qstore_state(struct qstore *qs, const char *queue,
    const struct qs_state *st, qs_state_cb *cb, void *arg);
/* admin_notice.lua: set queue's notice to text ('': clear it); cb gets
 * the notice before and after ('' for none). */
int qstore_notice(struct qstore *qs, const char *queue, const char *text,
    const char *admin, qs_state_cb *cb, void *arg);
/*
 * admin_fail_open.lua: fail open for seconds from now (0: end it now);
 * cb gets the mode now, until when (unix s; 0 once ended) and the mode
 * it returns to ('' once ended).
 */
typedef void qs_fail_open_cb(enum result r, const char *mode,
    long long until, const char *previous, void *arg);
int qstore_fail_open(struct qstore *qs, const char *queue, long seconds,
    const char *admin, qs_fail_open_cb *cb, void *arg);

/* admin_promote.lua: admit the next count now; the admitted, in order. */
int qstore_promote(struct qstore *qs, const char *queue, long count,
    const char *admin, qs_strings_cb *cb, void *arg);

/* admin_drop.lua: the queue and every token in it. */
int qstore_drop(struct qstore *qs, const char *queue, const char *admin,
    qs_done_cb *cb, void *arg);

/* admin_kick.lua: an operator ends token's place or session, as
 * qstore_leave does; the trail names it by ticket (ticket.h), never by
 * the token. */
int qstore_kick(struct qstore *qs, const char *queue, const char *token,
    const char *ticket, const char *admin, qs_end_cb *cb, void *arg);

/* trail_read.lua: the trail's newest entries (limit at most), of queue
 * only (NULL: of every queue); each a JSON text, newest first. */
int qstore_trail(struct qstore *qs, const char *queue, long limit,
    qs_strings_cb *cb, void *arg);

/*
 * epoch.lua: the marker of Redis's data, written with fresh (a random
 * value) when there is none; created says it was written now.
 */
typedef void qs_epoch_cb(enum result r, const char *value, int created,
    void *arg);
int qstore_epoch(struct qstore *qs, const char *fresh, qs_epoch_cb *cb,
    void *arg);
/* The same for the challenges' HMAC key (keys_powkey). */
int qstore_powkey(struct qstore *qs, const char *fresh, qs_epoch_cb *cb,
    void *arg);

/*
 * config_init.lua: write q's configuration from the file; how is
 * "replace" (an edited section wins) or "missing" (only a hash Redis
 * lost). When the queue has a schedule and no seed, seed and commit (hex)
 * are written in the same run. cb (may be NULL) hears what was done; a
 * failure is logged too. -1 when the call could not be sent (cb is not
 * called).
 */
typedef void qs_seeded_cb(enum result r, const struct qseeded *s,
    void *arg);
int qstore_seed(struct qstore *qs, const struct queue_conf *q,
    const char *how, const char *seed, const char *commit, qs_seeded_cb *cb,
    void *arg);

#endif
