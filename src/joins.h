/*
 * joins.h: joins gathered into batches. The joins of one queue that arrive
 * in one pass of the loop go to Redis together, as one run of join.lua at
 * the end of that pass: one round trip and one script start for all of
 * them, each still answered on its own, in the order they came.
 */
#ifndef WR_JOINS_H
#define WR_JOINS_H

#include "app.h"

struct api_call;
struct joins;

struct joins *joins_new(struct app *app);
/* Answers 503 to every join not yet sent. */
void joins_free(struct joins *j);

/*
 * Queue the join c (c->queue, and c->token already drawn) for this pass's
 * batch, with user's key (user NULL: none). Takes c: it is answered later,
 * by c->done with its own entry of the batch's reply, or with 503 or 500.
 */
void joins_add(struct joins *j, struct api_call *c, const char *user);

#endif
