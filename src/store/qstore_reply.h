/*
 * qstore_reply.h: the replies of the Lua scripts (src/store/lua), read into C
 * structs, every field by its name in scripts.def (script.h's FACTS_NOW_MS,
 * TICK_ADMITTED...): a new field in a script is a line there and a name
 * here, never a number. Besides store.c, the queue store's files are the
 * ones that see a redisReply; this one is pure, so unit tests build
 * replies by hand.
 */
#ifndef WR_QSTORE_REPLY_H
#define WR_QSTORE_REPLY_H

#include <stddef.h>

#include <hiredis/hiredis.h>

#include "qstore_held.h"
#include "figures.h"
#include "renewals.h"
#include "result.h"
#include "revoke.h"
#include "standing.h"
#include "script.h"

/*
 * facts() whole (status.lua, summary.lua): *res from its result word, and
 * s when the reply had more than that ({ 'gone' } has not). -1 when r is
 * not shaped as lib.lua promises. Fields past the facts (ranks.lua's) are
 * not read.
 */
int qreply_standing(const redisReply *r, enum result *res,
    struct standing *s);

/* summary.lua's reply (shape SUMMARY): as qreply_standing, and
 * s->fail_open_until. */
int qreply_summary(const redisReply *r, enum result *res,
    struct standing *s);

/*
 * join.lua's reply is a head, then one entry per join (shape JOIN). The
 * head is JOIN_HEAD (JOIN_HEAD_FULL, *hh filled), or JOIN_SHORT, the head
 * of a batch sent with held facts (JOIN_HEAD_HELD: s has the line's
 * length, now, the last tick and the state, and qstore_held.h's held_fill
 * completes it), or an empty array when there is no queue
 * (JOIN_HEAD_NO_QUEUE). An entry is JOIN_ENTRY: "result token status n
 * waiting", a result alone, or "new" alone: the join's own token (which
 * the caller sent) took the next place. Read the head into s once (its
 * waiting is the line's length), then each entry into the same s (an
 * entry sets only the token's part), with *line starting at the head's
 * waiting: a bare "new" is ranked *line, which it then counts. -1 when not
 * so shaped.
 */
enum join_head { JOIN_HEAD_NO_QUEUE, JOIN_HEAD_FULL, JOIN_HEAD_HELD };
int qreply_join_head(const redisReply *r, struct standing *s,
    struct held_head *hh);
int qreply_join_entry(const redisReply *r, const char *token,
    long long *line, enum result *res, struct standing *s);

/* ranks.lua: s, and the kinds ('w', 'p', 'a', 'g'), values and lines of n
 * tokens. */
int qreply_ranks(const redisReply *r, size_t n, struct standing *s,
    const char **kinds, long long *values, long long *lines);

int qreply_tick(const redisReply *r, struct tick_figures *t);

/* The pass check's lookup (shape LOOKUP): the token's revoked key and
 * the queue's dropped key, each nil, or set (the drop's time in ms). */
int qreply_lookup(const redisReply *r, struct revoke_facts *f);
/* renew.lua's reply: RESULT_OK (rn filled), GONE, NO_QUEUE or ERROR. */
enum result qreply_renewal(const redisReply *r, struct renewal *rn);

/* A flat array of field, value pairs. */
int qreply_config(const redisReply *r, struct qconfig *c);

/* One entry of admin_show.lua's reply; f->exists is 0 for no queue. */
int qreply_figures(const redisReply *e, struct queue_figures *f);

/* The first element of an array reply, as a result ({ 'no_queue' }...). */
enum result qreply_first(const redisReply *r);

/* Field i of an array reply: a string, or NULL. */
const char *qreply_str(const redisReply *r, size_t i);
/* Field i: an integer, or a string holding a decimal number; -1 if not. */
int qreply_num(const redisReply *r, size_t i, long long *out);

/* The number named field of Redis's INFO text r (a bulk string), as
 * "field:value" on a line of its own; -1 when there is none. */
int qreply_info(const redisReply *r, const char *field, long long *out);

/*
 * room_read.lua's reply for n queues into rr (zeroed by the caller), its
 * reports copied; a queue's entry not shaped as promised reads as no such
 * queue. -1 when the reply is not a room's. qreply_room_free releases rr
 * (also after -1).
 */
int qreply_room(const redisReply *r, size_t n, struct room_read *rr);
void qreply_room_free(struct room_read *rr);
/* One queue's samples of room_history.lua's reply into s (zeroed by the
 * caller; s->samples malloc'd, also after -1); a sample that is not one
 * is skipped. -1 when r is not a list. */
int qreply_series(const redisReply *r, struct room_series *s);

#endif
