/*
 * joins.h: joins gathered into batches. The joins of one queue that arrive
 * in one pass of the loop go to Redis together, as one run of join.lua at
 * the end of that pass (or, while two batches are in Redis, once one of
 * them is answered): one round trip and one script start for all of them,
 * each still answered on its own, in the order they came.
 */
#ifndef WR_JOINS_H
#define WR_JOINS_H

#include "app.h"

struct api_call;
struct facts;
struct joins;

/*
 * What a join's answer is made from: f->result is "new" or "existing"
 * with the token's facts, else "no_queue", "closed", "full", or "" when
 * Redis answered something unexpected. The call is freed afterwards.
 */
typedef void joins_cb(struct api_call *c, const struct facts *f);

struct joins *joins_new(struct app *app);
/* Answers 503 to every join not yet sent. */
void joins_free(struct joins *j);

/*
 * Queue the join c (c->queue, and c->token already drawn) for this pass's
 * batch, with user's key (user NULL: none). Takes c: it is answered later,
 * by joined with its own entry of the batch's reply, or (when Redis did
 * not answer) as api_call_answer answers.
 */
void joins_add(struct joins *j, struct api_call *c, const char *user,
    joins_cb *joined);

#endif
