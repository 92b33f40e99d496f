/*
 * streams.c: the streams of this process; see streams.h.
 *
 * Invariants:
 * - An open stream is in the token table, in its queue's list
 *   (stream_queue.first, so a queue's walk sees only its own) and in
 *   exactly one slot of the wheel (wheel.c); a closed one is in none.
 *   Closing is one function, stream_close.
 * - A rank batch in flight holds its streams (inflight = 1); a stream
 *   closed meanwhile is freed when the batch's answer comes back, never
 *   before, so a late Redis reply never touches freed memory.
 * - One struct streams per process (the close callback finds it through
 *   the_streams).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <event2/event.h>
#include <jansson.h>
#include <uuid/uuid.h>

#include "admission.h"
#include "clock.h"
#include "conf.h"
#include "connq.h"
#include "events.h"
#include "http_reply.h"
#include "ipcount.h"
#include "keys.h"
#include "line_cache.h"
#include "log.h"
#include "qstore.h"
#include "reply.h"
#include "sse.h"
#include "sse_frame.h"
#include "store.h"
#include "stream_table.h"
#include "text.h"
#include "streams.h"
#include "stream_one.h"
#include "validate.h"
#include "wheel.h"

struct rank_batch {
	struct streams *ss;
	uint16_t queue;
	int n;
	struct stream *st[STREAMS_BATCH];
};

static struct streams *the_streams;

/* ---- queues --------------------------------------------------------- */

static line_cache_read_cb streams_line_read;

static int
queue_find(struct streams *ss, const char *name, size_t len)
{
	struct stream_queue *q;

	for (size_t i = 0; i < ss->nqueues; i++)
		if (strlen(ss->queues[i].name) == len &&
		    memcmp(ss->queues[i].name, name, len) == 0)
			return (int)i;
	if (len > CONF_QUEUE_ID_MAX || ss->nqueues >= UINT16_MAX ||
	    (q = realloc(ss->queues, (ss->nqueues + 1) * sizeof *q)) == NULL)
		return -1;
	ss->queues = q;
	q = &ss->queues[ss->nqueues];
	memset(q, 0, sizeof *q);
	memcpy(q->name, name, len);
	if ((q->line = line_cache_new(streams_line_read, ss,
	    (int)ss->nqueues)) == NULL)
		return -1;
	return (int)ss->nqueues++;
}

static void
queue_learn(struct stream_queue *q, const struct standing *s)
{
	text_copy(q->redirect, sizeof q->redirect, s->redirect);
	q->waiting = s->waiting;
}

/* ---- one stream's close callback --------------------------------- */

/*
 * A stream is written to at least once per visit of its slot, every
 * push_interval (a status, or a keepalive once keepalive_interval has
 * passed in silence), so three of the longer of the two without a write
 * means the client stopped reading.
 */
static int
stream_timeout(const struct conf *c)
{
	long quiet = c->keepalive_interval > c->push_interval ?
	    c->keepalive_interval : c->push_interval;

	return (int)(quiet * 3);
}

static void
stream_on_close(struct evhttp_connection *evcon, void *arg)
{
	stream_close(the_streams, arg, "client gone", CLOSE_GONE);
}

/* ---- rank batches ------------------------------------------------- */

static void
rank_batch_apply(struct rank_batch *bt, const struct qs_ranks *rk)
{
	struct streams *ss = bt->ss;

	queue_learn(&ss->queues[bt->queue], &rk->s);
	for (int i = 0; i < bt->n; i++) {
		struct stream *st = bt->st[i];
		long long v = rk->values[i];

		if (st->closed)
			continue;
		line_cache_learn(ss->queues[bt->queue].line, st, rk->kinds[i],
		    rk->lines[i]);
		if (rk->kinds[i] == 'w' || rk->kinds[i] == 'p')
			stream_status(ss, st, &rk->s, rk->kinds[i], v, 0);
		else if (rk->kinds[i] == 'a')
			stream_entered(ss, st, v);
		else
			stream_gone(ss, st, "expired");
	}
}

static void
rank_batch_done(enum result r, const struct qs_ranks *rk, void *arg)
{
	struct rank_batch *bt = arg;
	uint32_t now = sse_now();

	/* Streams closed while the batch was out, or by applying it, are
	 * ours to free here: inflight kept stream_close from doing it. */
	if (r == RESULT_OK)
		rank_batch_apply(bt, rk);
	for (int i = 0; i < bt->n; i++) {
		struct stream *st = bt->st[i];

		if (r == RESULT_NO_QUEUE && !st->closed)
			stream_gone(bt->ss, st, "queue dropped");
		st->inflight = 0;
		if (st->closed)
			free(st);
		else if (r != RESULT_OK)
			stream_keepalive(bt->ss, st, now);
	}
	free(bt);
}

static void
rank_batch_send(struct rank_batch *bt)
{
	struct streams *ss = bt->ss;
	const char *argv[STREAMS_BATCH];
	char tokens[STREAMS_BATCH][VALID_TOKEN_LEN + 1];

	for (int i = 0; i < bt->n; i++) {
		uuid_unparse_lower(bt->st[i]->token, tokens[i]);
		argv[i] = tokens[i];
		bt->st[i]->inflight = 1;
	}
	if (qstore_ranks(ss->set.qstore, ss->queues[bt->queue].name, bt->n,
	    argv, rank_batch_done, bt) == -1) {
		struct qs_ranks none = { .kinds = "" };

		rank_batch_done(RESULT_UNAVAILABLE, &none, bt);
	}
}

/* ---- the timer ------------------------------------------------------ */

static struct rank_batch *
rank_batch_for(struct streams *ss, struct rank_batch **open, size_t nopen,
    uint16_t queue)
{
	for (size_t i = 0; i < nopen; i++)
		if (open[i] && open[i]->queue == queue)
			return open[i];
	return NULL;
}

/* A status for st from its queue's line as last read, if that can say
 * where it stands at now_ms (1); else 0: Redis is asked in a batch. */
static int
stream_from_view(struct streams *ss, struct stream *st, long long now_ms)
{
	const struct standing *s;
	long long v;
	char kind = line_cache_rank(ss->queues[st->queue].line, st,
	    streams_conf(ss)->push_interval * 1000, now_ms, &v, &s);

	if (kind == 0)
		return 0;
	stream_status(ss, st, s, kind, v, 0);
	return 1;
}

/* list, grown to hold more (*cap updated); NULL (list freed) when out
 * of memory. */
static struct stream **
grow(struct stream **list, size_t *cap)
{
	size_t more = *cap ? *cap * 2 : 64;
	struct stream **l = realloc(list, more * sizeof *l);

	if (l == NULL)
		free(list);
	else
		*cap = more;
	return l;
}

/*
 * Queue q's line was read again: its streams that have left their part
 * of it (admitted, their message lost; left; kicked) are asked of Redis
 * now, not at their next push, so none waits a push_interval more.
 */
static void
streams_line_read(void *arg, int q)
{
	struct streams *ss = arg;
	const struct line_view *v = &ss->queues[q].line->view;
	struct stream **left = NULL;
	size_t n = 0, cap = 0;

	/* gathered first: a batch that fails at once may close streams */
	for (struct stream *st = ss->queues[q].first; st; st = st->qnext) {
		if (st->inflight || !line_view_left(v, st->line, st->pre))
			continue;
		if (n == cap && (left = grow(left, &cap)) == NULL)
			return;
		left[n++] = st;
	}
	for (size_t i = 0; i < n; i += STREAMS_BATCH) {
		struct rank_batch *bt = calloc(1, sizeof *bt);

		if (bt == NULL)
			break;
		bt->ss = ss, bt->queue = (uint16_t)q;
		while (bt->n < STREAMS_BATCH && i + (size_t)bt->n < n)
			bt->st[bt->n] = left[i + (size_t)bt->n], bt->n++;
		rank_batch_send(bt);
	}
	free(left);
}

/* Group the slot's streams (of queue only, unless -1) into one batch
 * per queue and send them; those the line as read can place need none.
 * The clock is read once for the whole slot. */
static void
streams_visit(struct streams *ss, int s, int only)
{
	struct rank_batch *open[16] = { NULL };
	size_t nopen = 0;
	struct stream *st, *next;
	long long now_ms = clock_mono_ms();

	for (st = ss->wheel.slots[s]; st; st = next) {
		struct rank_batch *bt;

		next = st->next;
		if (st->inflight || (only >= 0 && st->queue != only) ||
		    stream_from_view(ss, st, now_ms))
			continue;
		if ((bt = rank_batch_for(ss, open, nopen, st->queue)) == NULL) {
			if (nopen == 16) {	/* many queues: flush them */
				for (size_t i = 0; i < nopen; i++)
					rank_batch_send(open[i]);
				memset(open, 0, sizeof open);
				nopen = 0;
			}
			if ((bt = calloc(1, sizeof *bt)) == NULL)
				continue;
			bt->ss = ss, bt->queue = st->queue;
			open[nopen++] = bt;
		}
		bt->st[bt->n++] = st;
		if (bt->n == STREAMS_BATCH) {
			rank_batch_send(bt);
			for (size_t i = 0; i < nopen; i++)
				if (open[i] == bt)
					open[i] = open[--nopen];
		}
	}
	for (size_t i = 0; i < nopen; i++)
		rank_batch_send(open[i]);
}

/* `event: notice` to every open stream of queue q: {"queue","notice"}. */
static void
streams_notice_send(struct streams *ss, int q, const char *notice)
{
	char *data = reply_dump_take(json_pack("{s:s,s:s?}", "queue",
	    ss->queues[q].name, "notice", notice));
	struct stream *st, *next;

	/* One text for every stream of the queue, written once. */
	for (st = ss->queues[q].first; data && st; st = next) {
		next = st->qnext;
		stream_send_text(ss, st, "notice", data);
	}
	free(data);
}

/*
 * A queue's notice changed (its tick, on this instance, read it within a
 * period): its open streams hear it now, within a slot.
 */
static void
streams_notices(struct streams *ss)
{
	for (size_t q = 0; q < ss->nqueues; q++) {
		unsigned long serial;
		const char *notice = admission_notice(ss->set.admission,
		    ss->queues[q].name, &serial);

		if (serial == ss->queues[q].notice_serial)
			continue;
		ss->queues[q].notice_serial = serial;
		if (ss->queues[q].streams > 0)
			streams_notice_send(ss, (int)q, notice);
	}
}

static void
streams_tick(evutil_socket_t fd, short what, void *arg)
{
	struct streams *ss = arg;
	int s = wheel_turn(&ss->wheel);

	streams_notices(ss);
	for (size_t q = 0; q < ss->nqueues; q++)
		if (ss->queues[q].streams > 0 && store_is_ready(ss->set.store))
			line_cache_refresh(ss->queues[q].line, ss->set.qstore,
			    ss->queues[q].name);
	if (ss->wheel.slots[s] == NULL)
		return;
	if (!store_is_ready(ss->set.store)) {
		uint32_t now = sse_now();
		struct stream *st, *next;

		for (st = ss->wheel.slots[s]; st; st = next) {
			next = st->next;
			stream_keepalive(ss, st, now);
		}
		return;
	}
	streams_visit(ss, s, -1);
}

/* ---- promotions published by any instance ------------------------- */

/* Every stream of queue q: the admin API dropped the queue. */
static void
streams_dropped(struct streams *ss, int q)
{
	struct stream *st, *next;

	line_cache_forget(ss->queues[q].line);
	for (st = ss->queues[q].first; st; st = next) {
		next = st->qnext;
		stream_gone(ss, st, "queue dropped");
	}
}

/* Queue q's draw is done: every stream of it learns its place now. */
static void
streams_drawn(struct streams *ss, int q)
{
	line_cache_forget(ss->queues[q].line);	/* every place moved */
	if (!store_is_ready(ss->set.store))
		return;
	for (int s = 0; s < ss->wheel.nslots; s++)
		streams_visit(ss, s, q);
}

/* Every stream of token tok (text) in queue q hears of ev. */
static void
streams_token_event(struct streams *ss, int q, const char *tok,
    const struct queue_event *ev)
{
	unsigned char id[16];
	struct stream *st, *next;

	if (uuid_parse(tok, id) != 0)
		return;
	for (st = stream_table_chain(&ss->streams, id); st; st = next) {
		next = st->hnext;
		if (st->queue != q || memcmp(st->token, id, 16) != 0)
			continue;
		if (ev->kind == EVENT_ENTERED)
			stream_entered(ss, st, strtoll(ev->arg, NULL, 10));
		else
			stream_gone(ss, st, ev->arg);
	}
}

/* A message on <prefix>:{<queue>}:events (events.def). */
static void
streams_message(const char *channel, const char *msg, size_t len,
    void *arg)
{
	struct streams *ss = arg;
	struct queue_event ev;
	const char *queue;
	char tok[40];
	size_t qlen;
	int q, rc;

	if (keys_channel_queue(channel, &queue, &qlen) == -1 ||
	    (q = queue_find(ss, queue, qlen)) < 0 ||
	    event_parse(msg, len, &ev) == -1)
		return;
	switch (ev.kind) {
	case EVENT_DROPPED:
		streams_dropped(ss, q);
		return;
	case EVENT_DRAWN:
		streams_drawn(ss, q);
		return;
	case EVENT_ENTERED:
	case EVENT_GONE:
		while ((rc = event_token(&ev, tok, sizeof tok)) != 0)
			if (rc == 1)
				streams_token_event(ss, q, tok, &ev);
		return;
	case EVENT_KINDS:
		break;
	}
}

/* ---- the public side -------------------------------------------------- */

int
streams_reserve(struct streams *ss, const char *addr, struct ipslot **slot)
{
	int full;

	*slot = NULL;
	if (ss->streams.count + ss->reserved >= ss->max_streams)
		return 503;
	if ((*slot = ipcount_take(ss->ips, addr, ss->max_per_ip, &full)) ==
	    NULL)
		return full ? 429 : 503;
	ss->reserved++;
	return 0;
}

void
streams_unreserve(struct streams *ss, struct ipslot *slot)
{
	ss->reserved--;
	ipcount_release(ss->ips, slot);
}

void
streams_start(struct streams *ss, struct evhttp_request *req,
    const char *queue, const char *token, const struct standing *s,
    unsigned long last_id, struct ipslot *slot)
{
	struct stream *st = calloc(1, sizeof *st);
	const struct conf *c = streams_conf(ss);
	int q = queue_find(ss, queue, strlen(queue));

	ss->reserved--;
	if (st == NULL || q < 0 || uuid_parse(token, st->token) != 0) {
		free(st);
		ipcount_release(ss->ips, slot);
		http_send_error(ss->set.http, req, 503, "too_many_streams",
		    "this server cannot open another stream now");
		return;
	}
	queue_learn(&ss->queues[q], s);
	st->queue = (uint16_t)q, st->ip = slot, st->id = (uint32_t)last_id;
	sse_open(st, ss->set.http, req, c->push_interval * 1000, ss->timeout,
	    stream_on_close);
	stream_table_put(&ss->streams, st);
	wheel_put(&ss->wheel, st, wheel_pick(&ss->wheel));
	stream_link(ss, st);
	stream_status(ss, st, s, s->prequeue ? 'p' : 'w', s->n, 1);
}

void
streams_drain(struct streams *ss, long retry_ms)
{
	char retry[32];
	size_t n = sse_frame_retry(retry, sizeof retry, retry_ms);

	log_info("event=drain streams=%zu", ss->streams.count);
	for (size_t i = 0; i < ss->streams.size; i++) {
		while (ss->streams.bucket[i]) {
			struct stream *st = ss->streams.bucket[i];

			sse_raw(st, retry, n, (size_t)-1);
			stream_close(ss, st, "shutdown", CLOSE_END);
		}
	}
}

size_t
streams_count(const struct streams *ss)
{
	return ss->streams.count;
}

size_t
streams_max(const struct streams *ss)
{
	return ss->max_streams;
}

int
streams_queue_at(const struct streams *ss, size_t i, const char **name,
    size_t *streams)
{
	if (i >= ss->nqueues)
		return -1;
	*name = ss->queues[i].name;
	*streams = ss->queues[i].streams;
	return 0;
}

unsigned long
streams_reconnects(const struct streams *ss)
{
	return store_reconnects(ss->sub);
}

/*
 * Streams allowed: the configured cap, else what the fd limit leaves
 * below the descriptor reserve (fd_reserve): past it, each new connection
 * would close another that has not sent its head yet, where a stream
 * too many should get 503 too_many_streams instead.
 */
static size_t
streams_cap(const struct conf *c)
{
	struct rlimit rl;
	long high;

	if (c->max_streams > 0)
		return (size_t)c->max_streams;
	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_cur < 128)
		return 64;
	high = connq_high_water(rl.rlim_cur > LONG_MAX ? LONG_MAX :
	    (long)rl.rlim_cur, c->fd_reserve);
	return high < 128 ? 64 : (size_t)high - 64;
}

/* max_streams and max_streams_per_ip from the configuration in force. */
static void
streams_set_limits(struct streams *ss)
{
	ss->max_streams = streams_cap(streams_conf(ss));
	ss->max_per_ip = (size_t)streams_conf(ss)->max_streams_per_ip;
}

void
streams_reload(struct streams *ss)
{
	const struct conf *c = streams_conf(ss);
	int n = (int)(c->push_interval * 1000 / STREAMS_SLOT_MS);

	streams_set_limits(ss);
	if (n != ss->wheel.nslots && wheel_resize(&ss->wheel, n) == -1)
		log_error("event=reload_failed error=\"out of memory\" "
		    "msg=\"push_interval stays %d ms\"",
		    ss->wheel.nslots * STREAMS_SLOT_MS);
	if (stream_timeout(c) == ss->timeout)
		return;
	ss->timeout = stream_timeout(c);
	for (int s = 0; s < ss->wheel.nslots; s++)
		for (struct stream *st = ss->wheel.slots[s]; st; st = st->next)
			sse_set_timeout(st, ss->timeout);
}

struct streams *
streams_new(const struct streams_setup *set, char *err, size_t errlen)
{
	struct streams *ss = calloc(1, sizeof *ss);
	const struct conf *c = *set->conf;
	struct timeval tv = { 0, STREAMS_SLOT_MS * 1000 };
	char pattern[KEYS_MAX];

	if (ss == NULL)
		goto oom;
	ss->set = *set;
	ss->timeout = stream_timeout(c);
	streams_set_limits(ss);
	ss->ips = ipcount_new();
	ss->timer = event_new(set->base, -1, EV_PERSIST, streams_tick, ss);
	if (stream_table_init(&ss->streams) == -1 || wheel_init(&ss->wheel,
	    (int)(c->push_interval * 1000 / STREAMS_SLOT_MS)) == -1 ||
	    !ss->ips || !ss->timer)
		goto oom;
	keys_events_pattern(pattern, c->key_prefix);
	if ((ss->sub = store_new_subscriber(set->base, c->redis,
	    set->store_opts, pattern,
	    streams_message, ss, err, errlen)) == NULL)
		goto fail;
	for (size_t i = 0; i < c->nqueues; i++)
		queue_find(ss, c->queues[i].name, strlen(c->queues[i].name));
	evtimer_add(ss->timer, &tv);
	the_streams = ss;
	return ss;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	streams_free(ss);
	return NULL;
}

void
streams_free(struct streams *ss)
{
	if (ss == NULL)
		return;
	for (size_t i = 0; i < ss->streams.size; i++)
		while (ss->streams.bucket[i])
			stream_close(ss, ss->streams.bucket[i], "shutdown",
			    CLOSE_END);
	store_free(ss->sub);
	if (ss->timer)
		event_free(ss->timer);
	ipcount_free(ss->ips);
	stream_table_free(&ss->streams);
	wheel_free(&ss->wheel);
	for (size_t q = 0; q < ss->nqueues; q++)
		line_cache_free(ss->queues[q].line);
	free(ss->queues);
	if (the_streams == ss)
		the_streams = NULL;
	free(ss);
}
