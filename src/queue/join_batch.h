/*
 * join_batch.h: joins gathered into batches. The joins of one queue that
 * arrive in one pass of the loop go to Redis together, as one run of
 * join.lua at the end of that pass (or, while two batches are in Redis,
 * once one of them is answered): one round trip and one script start for
 * all of them, each still answered on its own, in the order they came.
 * It knows nothing of HTTP: a join is a queue, a token, a user and a
 * callback.
 */
#ifndef WR_JOIN_BATCH_H
#define WR_JOIN_BATCH_H

#include <event2/event.h>

#include "qstore.h"
#include "result.h"
#include "standing.h"

struct qstore;
struct join_batch;

/*
 * A join's outcome: RESULT_NEW or RESULT_EXISTING with its standing, or
 * NO_QUEUE, CLOSED, FULL, USED, UNAVAILABLE or ERROR (s then says
 * nothing).
 */
typedef void join_batch_cb(enum result r, const struct standing *s,
    void *arg);

struct join_batch *join_batch_new(struct event_base *base, struct qstore *qs);
/* Answers RESULT_UNAVAILABLE to every join not yet sent. */
void join_batch_free(struct join_batch *j);

/*
 * Queue a join of queue for this pass's batch: token (drawn by the
 * caller), user (NULL: none) and use (its use key, see qstore.h; NULL:
 * none) are copied. cb runs exactly once, later. -1 (cb will not run)
 * when out of memory or use's kind or id is not valid (keys_valid_used).
 */
int join_batch_add(struct join_batch *j, const char *queue,
    const char *token, const char *user, const struct qs_use *use,
    join_batch_cb *cb, void *arg);

#endif
