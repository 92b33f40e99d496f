/*
 * join_batch.c: see join_batch.h. A batch holds at most QSTORE_JOIN_MAX
 * joins, so one script run stays short however many joins one pass
 * brings; a full batch is sent at once. At most JOINS_PENDING_MAX batches
 * (queues) wait at a time, so finding a join's batch stays cheap however
 * many queues a pass names (joins of made-up queue names too): past that,
 * the waiting batches are sent at once, and new ones start. At most
 * JOINS_INFLIGHT_MAX batches that are not full are in Redis at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "join_batch.h"
#include "keys.h"
#include "log.h"
#include "qstore.h"
#include "text.h"
#include "validate.h"

#define JOINS_PENDING_MAX 64
/*
 * Batches in Redis at once, unless full: the joins that come while they
 * run wait for one to be answered and then go together, so under load a
 * batch grows with the load and Redis pays its fixed cost (configuration,
 * clock, counters: nine calls) less often; a lone join still goes at the
 * end of its pass. Two keep Redis busy while the daemon answers the last.
 */
#define JOINS_INFLIGHT_MAX 2

struct batch {
	char queue[CONF_QUEUE_ID_MAX + 1];
	int n;
	char tokens[QSTORE_JOIN_MAX][VALID_TOKEN_LEN + 1];
	const char *token_at[QSTORE_JOIN_MAX];	/* into tokens */
	char *users[QSTORE_JOIN_MAX];		/* copies, NULL for none */
	struct use_copy {
		char kind[17];
		char id[KEYS_USED_ID_MAX + 1];
		struct qs_use u;		/* into the two above */
	} uses[QSTORE_JOIN_MAX];
	const struct qs_use *use_at[QSTORE_JOIN_MAX];	/* NULL for none */
	int nuses;
	join_batch_cb *cb[QSTORE_JOIN_MAX];
	void *arg[QSTORE_JOIN_MAX];
	struct batch *next;
	struct join_batch *owner;
};

struct join_batch {
	struct qstore *qs;
	struct event *flush;
	struct batch *pending;	/* waiting for the end of the pass */
	int npending;
	int inflight;		/* sent, not yet answered */
	/*
	 * One answered batch kept for the next: a batch is a few kB, and
	 * malloc tidies its small free chunks on each such request.
	 */
	struct batch *spare;
};

/* An empty batch for queue (not yet pending), or NULL. */
static struct batch *
batch_new(struct join_batch *j, const char *queue)
{
	struct batch *b = j->spare;

	if (b != NULL)
		j->spare = NULL;
	else if ((b = malloc(sizeof *b)) == NULL)
		return NULL;
	text_copy(b->queue, sizeof b->queue, queue);
	b->n = 0;
	b->nuses = 0;
	b->next = NULL;
	b->owner = j;
	return b;
}

/* Done with b: its user copies go, and b is kept as the spare or freed. */
static void
batch_free(struct batch *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->users[i]);
	if (b->owner->spare == NULL)
		b->owner->spare = b;
	else
		free(b);
}

/* Answer every join of b with r, and free b. */
static void
batch_fail(struct batch *b, enum result r)
{
	for (int i = 0; i < b->n; i++)
		b->cb[i](r, NULL, b->arg[i]);
	batch_free(b);
}

/* Each join's answer: the batch's head, with that join's token part. */
static void
batch_done(enum result r, const struct standing *head,
    const struct qs_joined *each, int n, void *arg)
{
	struct batch *b = arg;
	struct standing s;

	/* Batches held back for this one go once the loop is back. */
	if (--b->owner->inflight < JOINS_INFLIGHT_MAX && b->owner->pending)
		event_active(b->owner->flush, 0, 0);
	if (r != RESULT_OK || n != b->n) {
		batch_fail(b, r != RESULT_OK ? r : RESULT_ERROR);
		return;
	}
	s = *head;
	for (int i = 0; i < n; i++) {
		text_copy(s.token, sizeof s.token, each[i].token);
		s.active = each[i].active, s.prequeue = each[i].prequeue;
		s.n = each[i].n, s.waiting = each[i].waiting;
		b->cb[i](each[i].r, &s, b->arg[i]);
	}
	batch_free(b);
}

static void
batch_send(struct join_batch *j, struct batch *b)
{
	log_debug("event=join_batch queue=%s joins=%d", b->queue, b->n);
	if (qstore_join(j->qs, b->queue, b->n, b->token_at,
	    (const char *const *)b->users, b->nuses ? b->use_at : NULL,
	    batch_done, b) == -1) {
		batch_fail(b, RESULT_UNAVAILABLE);
		return;
	}
	j->inflight++;
}

/* Send every waiting batch. */
static void
send_pending(struct join_batch *j)
{
	struct batch *b = j->pending, *next;

	j->pending = NULL;
	j->npending = 0;
	for (; b; b = next) {
		next = b->next;
		if (b->n > 0)
			batch_send(j, b);
		else
			batch_free(b);
	}
}

/*
 * The end of a pass, or a batch answered: send what gathered, unless
 * enough batches are in Redis already, and write it all to Redis.
 */
static void
joins_flush(evutil_socket_t fd, short what, void *arg)
{
	struct join_batch *j = arg;

	(void)fd, (void)what;
	if (j->inflight >= JOINS_INFLIGHT_MAX)
		return;
	send_pending(j);
	qstore_flush(j->qs);
}

struct join_batch *
join_batch_new(struct event_base *base, struct qstore *qs)
{
	struct join_batch *j = calloc(1, sizeof *j);

	if (j == NULL)
		return NULL;
	j->qs = qs;
	if ((j->flush = event_new(base, -1, 0, joins_flush, j)) == NULL) {
		free(j);
		return NULL;
	}
	return j;
}

void
join_batch_free(struct join_batch *j)
{
	struct batch *b, *next;

	if (j == NULL)
		return;
	for (b = j->pending; b; b = next) {
		next = b->next;
		batch_fail(b, RESULT_UNAVAILABLE);
	}
	free(j->spare);
	event_free(j->flush);
	free(j);
}

/* The pending batch of queue with room left; a new one when none. */
static struct batch *
batch_for(struct join_batch *j, const char *queue)
{
	struct batch *b;

	for (b = j->pending; b; b = b->next)
		if (b->n < QSTORE_JOIN_MAX && strcmp(b->queue, queue) == 0)
			return b;
	if (j->npending == JOINS_PENDING_MAX)
		send_pending(j);
	if ((b = batch_new(j, queue)) == NULL)
		return NULL;
	b->next = j->pending;
	j->pending = b;
	j->npending++;
	return b;
}

/* Take b out of the pending list and send it. */
static void
batch_send_now(struct join_batch *j, struct batch *b)
{
	struct batch **p;

	for (p = &j->pending; *p != b; p = &(*p)->next)
		;
	*p = b->next;
	j->npending--;
	batch_send(j, b);
}

/* use copied into b's join i, or none. */
static void
use_copy(struct batch *b, int i, const struct qs_use *use)
{
	struct use_copy *c = &b->uses[i];

	b->use_at[i] = NULL;
	if (use == NULL)
		return;
	text_copy(c->kind, sizeof c->kind, use->kind);
	text_copy(c->id, sizeof c->id, use->id);
	c->u.kind = c->kind, c->u.id = c->id;
	c->u.limit = use->limit, c->u.expires_ms = use->expires_ms;
	b->use_at[i] = &c->u;
	b->nuses++;
}

int
join_batch_add(struct join_batch *j, const char *queue, const char *token,
    const char *user, const struct qs_use *use, join_batch_cb *cb, void *arg)
{
	struct batch *b;
	char *copy = NULL;
	int i;

	if (use && !keys_valid_used(use->kind, use->id))
		return -1;
	if ((b = batch_for(j, queue)) == NULL ||
	    (user && (copy = strdup(user)) == NULL))
		return -1;
	i = b->n++;
	text_copy(b->tokens[i], sizeof b->tokens[i], token);
	b->token_at[i] = b->tokens[i];
	b->users[i] = copy;
	use_copy(b, i, use);
	b->cb[i] = cb;
	b->arg[i] = arg;
	if (b->n == QSTORE_JOIN_MAX)
		batch_send_now(j, b);
	event_active(j->flush, 0, 0);	/* at the end of the pass, if not yet */
	return 0;
}
