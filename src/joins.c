/*
 * joins.c: see joins.h. A batch holds at most JOINS_BATCH_MAX joins, so
 * one script run stays short however many joins one pass brings; a full
 * batch is sent at once. At most JOINS_PENDING_MAX batches (queues) wait
 * at a time, so finding a join's batch stays cheap however many queues a
 * pass names (joins of made-up queue names too): past that, the waiting
 * batches are sent at once, and new ones start. At most
 * JOINS_INFLIGHT_MAX batches that are not full are in Redis at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "api.h"
#include "conf.h"
#include "decimal.h"
#include "facts.h"
#include "http.h"
#include "joins.h"
#include "keys.h"
#include "log.h"
#include "store.h"
#include "text.h"

#define JOINS_BATCH_MAX 64
#define JOINS_PENDING_MAX 64
/*
 * Batches in Redis at once, unless full: the joins that come while they
 * run wait for one to be answered and then go together, so under load a
 * batch grows with the load and Redis pays its fixed cost (configuration,
 * clock, counters: nine calls) less often; a lone join still goes at the
 * end of its pass. Two keep Redis busy while the daemon answers the last.
 */
#define JOINS_INFLIGHT_MAX 2
/* A user key outlives any sane wait; join ignores it once its token left. */
#define USER_KEY_TTL "86400"

struct join_batch {
	char queue[CONF_QUEUE_ID_MAX + 1];
	int n;
	struct api_call *calls[JOINS_BATCH_MAX];
	joins_cb *joined[JOINS_BATCH_MAX];
	char *users[JOINS_BATCH_MAX];	/* user keys, NULL for none */
	struct join_batch *next;
	struct joins *owner;
};

struct joins {
	struct app *app;
	struct event *flush;
	struct join_batch *pending;	/* waiting for the end of the pass */
	int npending;
	int inflight;			/* sent, not yet answered */
	/*
	 * One answered batch kept for the next: a batch is over 1 kB, and
	 * malloc tidies its small free chunks on each such request.
	 */
	struct join_batch *spare;
};

/* An empty batch for queue (not yet pending), or NULL. */
static struct join_batch *
batch_new(struct joins *j, const char *queue)
{
	struct join_batch *b = j->spare;

	if (b != NULL)
		j->spare = NULL;
	else if ((b = malloc(sizeof *b)) == NULL)
		return NULL;
	text_copy(b->queue, sizeof b->queue, queue);
	b->n = 0;
	b->next = NULL;
	b->owner = j;
	return b;
}

/* Done with b: keep it as the spare, or free it. */
static void
batch_free(struct join_batch *b)
{
	if (b->owner->spare == NULL)
		b->owner->spare = b;
	else
		free(b);
}

/* Answer every join of b with res, and free b. */
static void
batch_answer(struct join_batch *b, const struct store_result *res)
{
	for (int i = 0; i < b->n; i++) {
		free(b->users[i]);
		api_call_answer(b->calls[i], res);
	}
	batch_free(b);
}

static void
batch_done(const struct store_result *res, void *arg)
{
	struct join_batch *b = arg;
	const redisReply *r = res->reply;
	struct store_result bad = { STORE_ERROR, NULL, NULL };
	struct facts f;
	long long line;

	/* Batches held back for this one go once the loop is back. */
	if (--b->owner->inflight < JOINS_INFLIGHT_MAX && b->owner->pending)
		event_active(b->owner->flush, 0, 0);
	if (res->status != STORE_OK) {
		batch_answer(b, res);
		return;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != (size_t)b->n + 1 ||
	    facts_parse_head(r->element[0], &f) == -1) {
		bad.error = "join.lua answered a batch of the wrong shape";
		batch_answer(b, &bad);
		return;
	}
	line = f.waiting;
	for (int i = 0; i < b->n; i++) {
		if (facts_parse_entry(r->element[i + 1], b->calls[i]->token,
		    &line, &f) == -1)
			f.result[0] = '\0';	/* answered as unexpected */
		b->joined[i](b->calls[i], &f);
		free(b->calls[i]);
	}
	batch_free(b);
}

/*
 * KEYS: the queue's, then the user keys given; ARGV: the user key's
 * lifetime, how many joins gave a user and which (1-based), then the
 * joins' tokens. The user keys are copied by the store, so they go now.
 */
static void
batch_send(struct app *app, struct join_batch *b)
{
	const char *argv[API_QUEUE_KEYS + 2 + 3 * JOINS_BATCH_MAX];
	char num[JOINS_BATCH_MAX + 1][DECIMAL_MAX + 1];
	struct queue_keys k;
	int nkeys = API_QUEUE_KEYS, argc, nusers = 0;

	api_queue_argv(app, b->queue, &k, argv);
	for (int i = 0; i < b->n; i++)
		if (b->users[i])
			argv[nkeys++] = b->users[i];
	argc = nkeys;
	argv[argc++] = USER_KEY_TTL;
	argv[argc++] = decimal_str(num[0], nkeys - API_QUEUE_KEYS);
	for (int i = 0; i < b->n; i++)
		if (b->users[i]) {
			nusers++;
			argv[argc++] = decimal_str(num[nusers], i + 1);
		}
	for (int i = 0; i < b->n; i++)
		argv[argc++] = b->calls[i]->token;
	log_debug("event=join_batch queue=%s joins=%d", b->queue, b->n);
	if (store_eval(app->store, LUA_JOIN, nkeys, argc, argv, NULL,
	    batch_done, b) == -1) {
		struct store_result res = { STORE_UNAVAILABLE, NULL, NULL };

		batch_answer(b, &res);
		return;
	}
	b->owner->inflight++;
	for (int i = 0; i < b->n; i++) {
		free(b->users[i]);
		b->users[i] = NULL;
	}
}

/* Send every waiting batch. */
static void
send_pending(struct joins *j)
{
	struct join_batch *b = j->pending, *next;

	j->pending = NULL;
	j->npending = 0;
	for (; b; b = next) {
		next = b->next;
		if (b->n > 0)
			batch_send(j->app, b);
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
	struct joins *j = arg;

	(void)fd, (void)what;
	if (j->inflight >= JOINS_INFLIGHT_MAX)
		return;
	send_pending(j);
	store_flush(j->app->store);
}

struct joins *
joins_new(struct app *app)
{
	struct joins *j = calloc(1, sizeof *j);

	if (j == NULL)
		return NULL;
	j->app = app;
	if ((j->flush = event_new(app->base, -1, 0, joins_flush, j)) == NULL) {
		free(j);
		return NULL;
	}
	return j;
}

void
joins_free(struct joins *j)
{
	struct store_result res = { STORE_UNAVAILABLE, NULL, "shutting down" };
	struct join_batch *b, *next;

	if (j == NULL)
		return;
	for (b = j->pending; b; b = next) {
		next = b->next;
		batch_answer(b, &res);
	}
	free(j->spare);
	event_free(j->flush);
	free(j);
}

/* The pending batch of queue with room left; a new one when none. */
static struct join_batch *
batch_for(struct joins *j, const char *queue)
{
	struct join_batch *b;

	for (b = j->pending; b; b = b->next)
		if (b->n < JOINS_BATCH_MAX && strcmp(b->queue, queue) == 0)
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
batch_send_now(struct joins *j, struct join_batch *b)
{
	struct join_batch **p;

	for (p = &j->pending; *p != b; p = &(*p)->next)
		;
	*p = b->next;
	j->npending--;
	batch_send(j->app, b);
}

void
joins_add(struct joins *j, struct api_call *c, const char *user,
    joins_cb *joined)
{
	struct join_batch *b = batch_for(j, c->queue);
	const char *prefix = j->app->conf->key_prefix;
	char *key = NULL;

	if (b == NULL || (user && ((key = malloc(KEYS_USER_MAX)) == NULL ||
	    keys_user(key, KEYS_USER_MAX, prefix, c->queue, user) == -1))) {
		struct store_result res = { STORE_ERROR, NULL,
		    b ? "no room for the user key" : "out of memory" };

		free(key);
		api_call_answer(c, &res);
		return;
	}
	http_await(c->req);
	b->calls[b->n] = c;
	b->joined[b->n] = joined;
	b->users[b->n++] = key;
	if (b->n == JOINS_BATCH_MAX)
		batch_send_now(j, b);
	event_active(j->flush, 0, 0);	/* at the end of the pass, if not yet */
}
