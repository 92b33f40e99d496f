/*
 * qstore_reply.h: the replies of the Lua scripts (src/store/lua), read into C
 * structs. The one place besides qstore.c and store.c that sees a
 * redisReply; pure, so unit tests build replies by hand. Each layout has
 * names: a new field in a script is a new name here, never a number at a
 * caller.
 */
#ifndef WR_QSTORE_REPLY_H
#define WR_QSTORE_REPLY_H

#include <stddef.h>

#include <hiredis/hiredis.h>

#include "qstore.h"
#include "qstore_held.h"

/* lua/lib.lua's facts(), field by field (check_qstore_reply counts it). */
enum facts_field {
	F_RESULT, F_TOKEN, F_STATUS, F_N, F_WAITING, F_NOW, F_TICK, F_RATE,
	F_MODE, F_STATE, F_BATCH, F_INTERVAL, F_MAX_ACTIVE, F_ACTIVE_TTL,
	F_REDIRECT, F_OPENS_AT, F_PREQUEUE_FROM, F_ENTRANTS, FACTS_FIELDS
};

/*
 * join.lua's head: read whole, the facts from the line's length on (index
 * F_WAITING of facts() is its first), then what the daemon may hold; or
 * short, when the batch was sent with held facts.
 */
enum join_head_field {
	JH_VER = FACTS_FIELDS - F_WAITING, JH_MAX_WAITING, JH_CLOSES_AT,
	JH_FIELDS
};
enum join_short_field { JS_WAITING, JS_NOW, JS_TICK, JS_STATE, JS_FIELDS };

/* ranks.lua: facts(), then one letter and one number per token. */
enum ranks_field { RANKS_KINDS = FACTS_FIELDS, RANKS_VALUES, RANKS_FIELDS };

/* tick.lua: numbers, then the line's speed and the version, as text. */
enum tick_field { TICK_EXPIRED, TICK_ABANDONED, TICK_ADMITTED, TICK_WAITING,
	TICK_FULL, TICK_POW_BITS, TICK_POW_TTL, TICK_DRAW, TICK_RATE, TICK_VER,
	TICK_FIELDS };

/*
 * The pass check's lookup, MGET of the token's revoked key and the
 * queue's dropped key: each nil, or set (the drop's time in ms).
 */
enum lookup_field { LOOKUP_REVOKED, LOOKUP_DROPPED, LOOKUP_FIELDS };

/* admin_show.lua: one entry per queue. */
enum show_field { SHOW_CONFIG, SHOW_WAITING, SHOW_ACTIVE, SHOW_TOTALS,
	SHOW_LAST_MINUTE, SHOW_PREQUEUE, SHOW_DRAW_MS, SHOW_FIELDS };

/*
 * facts() whole (status.lua, summary.lua): *res from its result word, and
 * s when the reply had more than that ({ 'gone' } has not). -1 when r is
 * not shaped as lib.lua promises. Fields past the facts (ranks.lua's) are
 * not read.
 */
int qreply_standing(const redisReply *r, enum result *res,
    struct standing *s);

/*
 * join.lua's reply is a head, then one entry per join. The head is the
 * line's length before the batch, then the queue's part of the facts
 * (now_ms onward) and what the daemon may hold of them (JOIN_HEAD_FULL,
 * *hh filled); or the short head of a batch sent with held facts
 * (JOIN_HEAD_HELD: s has the line's length, now, the last tick and the
 * state, and qstore_held.h's held_fill completes it); or an empty array
 * when there is no queue (JOIN_HEAD_NO_QUEUE). An entry is the token's
 * part as one string of words split by single spaces: "result token
 * status n waiting", a result alone, or "new" alone: the join's own token
 * (which the caller sent) took the next place. Read the head into s once
 * (its waiting is the line's length), then each entry into the same s (an
 * entry sets only the token's part), with *line starting at the head's
 * waiting: a bare "new" is ranked *line, which it then counts. -1 when not
 * so shaped.
 */
enum join_head { JOIN_HEAD_NO_QUEUE, JOIN_HEAD_FULL, JOIN_HEAD_HELD };
int qreply_join_head(const redisReply *r, struct standing *s,
    struct held_head *hh);
int qreply_join_entry(const redisReply *r, const char *token,
    long long *line, enum result *res, struct standing *s);

/* ranks.lua: s, and the kinds ('w', 'a', 'g') and values of n tokens. */
int qreply_ranks(const redisReply *r, size_t n, struct standing *s,
    const char **kinds, long long *values);

int qreply_tick(const redisReply *r, struct tick_figures *t);

/* The pass check's lookup. */
int qreply_lookup(const redisReply *r, struct revoke_facts *f);
/* renew.lua's reply: RESULT_OK (rn filled), GONE, NO_QUEUE or ERROR. */
enum result qreply_renewal(const redisReply *r, struct renewal *rn);

/* A flat array of field, value pairs. */
int qreply_config(const redisReply *r, struct qconfig *c);

/* One entry of admin_show.lua's reply; f->exists is 0 for no queue. */
int qreply_figures(const redisReply *e, struct queue_figures *f);

/* The first element of an array reply, as a result ({ 'no_queue' }...). */
enum result qreply_first(const redisReply *r);

/* A string element, or NULL. */
const char *qreply_str(const redisReply *r, size_t i);

/* The draw's scripts (qstore_draw.h); tokens and scores of a HASH step
 * are allocated into *list (free it), the rest borrowed from r. */
struct qs_draw_step;
struct qs_draw_view;
int qreply_draw_step(const redisReply *r, struct qs_draw_step *d,
    const char ***list);
int qreply_draw_view(const redisReply *r, struct qs_draw_view *v);

#endif
