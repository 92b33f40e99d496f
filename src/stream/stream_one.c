/*
 * stream_one.c: one stream of a process: its queue's index, its events,
 * its close; see stream_one.h.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uuid/uuid.h>

#include "admission.h"
#include "ipcount.h"
#include "log.h"
#include "metrics.h"
#include "pass.h"
#include "reply.h"
#include "sse_frame.h"
#include "stream_one.h"
#include "validate.h"

/* ---- one stream ----------------------------------------------------- */

void
stream_link(struct streams *ss, struct stream *st)
{
	struct stream_queue *q = &ss->queues[st->queue];

	st->qprev = NULL;
	st->qnext = q->first;
	if (q->first)
		q->first->qprev = st;
	q->first = st;
	q->streams++;
}

static void
stream_unlink(struct streams *ss, struct stream *st)
{
	struct stream_queue *q = &ss->queues[st->queue];

	if (st->qprev)
		st->qprev->qnext = st->qnext;
	else
		q->first = st->qnext;
	if (st->qnext)
		st->qnext->qprev = st->qprev;
	st->qprev = st->qnext = NULL;
	q->streams--;
}

/*
 * The one teardown of a stream, whatever ends it, with a reason that is
 * logged and counted; the free waits while a rank batch holds it (as
 * httpd's server_close and tmux's deferred free do).
 */
void
stream_close(struct streams *ss, struct stream *st, const char *reason,
    enum close_how how)
{
	char tok[VALID_TOKEN_LEN + 1], short_tok[9];

	if (st->closed)
		return;
	uuid_unparse_lower(st->token, tok);
	log_debug("event=stream_close queue=%s token=%s reason=\"%s\"",
	    ss->queues[st->queue].name, log_tok(tok, short_tok), reason);
	metrics_stream_close(reason);
	stream_table_remove(&ss->streams, st);
	wheel_remove(&ss->wheel, st);
	ipcount_release(ss->ips, st->ip);
	stream_unlink(ss, st);
	st->closed = 1;
	if (how == CLOSE_END)
		sse_end(st, ss->set.http);
	else if (how == CLOSE_ABORT)
		sse_abort(st, ss->set.http);
	else
		sse_gone(st);
	if (!st->inflight)
		free(st);
}

void
stream_slow(struct streams *ss, struct stream *st)
{
	log_info("event=slow_client queue=%s unsent=%zu",
	    ss->queues[st->queue].name, sse_unsent(st));
	stream_close(ss, st, "slow client", CLOSE_ABORT);
}

/*
 * Send event with the JSON text data (NULL when out of memory sends
 * nothing); 0, or -1 if st was closed.
 */
int
stream_send_text(struct streams *ss, struct stream *st, const char *event,
    const char *data)
{
	if (data && sse_event(st, event, data,
	    (size_t)streams_conf(ss)->stream_buffer) == -1) {
		stream_slow(ss, st);
		return -1;
	}
	return 0;
}

/* The same, and data (NULL: out of memory, nothing sent) is freed. */
int
stream_send(struct streams *ss, struct stream *st, const char *event,
    char *data)
{
	int rc = stream_send_text(ss, st, event, data);

	free(data);
	return rc;
}

void
stream_entered(struct streams *ss, struct stream *st, long long expiry_ms)
{
	struct stream_queue *q = &ss->queues[st->queue];
	struct token_status ts = { 0 };
	char tok[VALID_TOKEN_LEN + 1], pass[PASS_MAX];

	uuid_unparse_lower(st->token, tok);
	ts.queue = q->name, ts.token = tok, ts.active = 1;
	ts.waiting = q->waiting;
	ts.active_until = expiry_ms / 1000;
	ts.poll_after = standing_poll_after(streams_conf(ss)->push_interval, 0,
	    0, 1);
	ts.redirect = q->redirect[0] ? q->redirect : NULL;
	ts.notice = admission_notice(ss->set.admission, q->name, NULL);
	if (pass_attach(*ss->set.passkeys, &ts, (long long)time(NULL),
	    pass) == -1)
		log_error("event=pass_sign_failed queue=%s", ts.queue);
	if (stream_send(ss, st, "entered", reply_status_text(&ts)) == 0)
		stream_close(ss, st, "entered", CLOSE_END);
}

void
stream_gone(struct streams *ss, struct stream *st, const char *reason)
{
	char tok[VALID_TOKEN_LEN + 1];

	uuid_unparse_lower(st->token, tok);
	if (stream_send(ss, st, "gone",
	    reply_gone_body(ss->queues[st->queue].name, tok, reason)) == 0)
		stream_close(ss, st, "gone", CLOSE_END);
}

/*
 * The status of a waiting token at rank (kind 'w'), or of one awaiting
 * the draw among rank entrants (kind 'p'). Updates coalesce: while
 * earlier output is still unsent, only the newest status matters, so none
 * is queued behind it (unless force: the first one).
 */
void
stream_status(struct streams *ss, struct stream *st, const struct standing *s,
    char kind, long long rank, int force)
{
	struct token_status ts;
	char tok[VALID_TOKEN_LEN + 1];

	if (!force && sse_unsent(st) > 0) {
		if (++st->stalls >= STREAMS_STALLS)
			stream_slow(ss, st);
		return;
	}
	st->stalls = 0;
	uuid_unparse_lower(st->token, tok);
	if (kind == 'p')
		standing_prequeue(s, ss->queues[st->queue].name, tok, rank,
		    streams_conf(ss)->push_interval, &ts);
	else
		standing_waiting(s, ss->queues[st->queue].name, tok, rank,
		    streams_conf(ss)->push_interval, &ts);
	ts.notice = admission_notice(ss->set.admission, ts.queue, NULL);
	stream_send(ss, st, "status", reply_status_text(&ts));
}

void
stream_keepalive(struct streams *ss, struct stream *st, uint32_t now)
{
	if (now - st->last_write <
	    (uint32_t)streams_conf(ss)->keepalive_interval)
		return;
	if (sse_raw(st, SSE_KEEPALIVE, sizeof SSE_KEEPALIVE - 1,
	    (size_t)streams_conf(ss)->stream_buffer) == -1)
		stream_slow(ss, st);
}

