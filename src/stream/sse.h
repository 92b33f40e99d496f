/*
 * sse.h: one Server-Sent Events stream on an evhttp request: the answer's
 * headers, events, the cap on unsent output, and the two ways a stream
 * ends (cleanly, or dropped when the client will not read).
 *
 * A stream is one small struct; streams.c keeps them in a token table,
 * a time-sliced schedule and its queue's list, so a stream has no timer
 * or event of its own.
 */
#ifndef WR_SSE_H
#define WR_SSE_H

#include <stddef.h>
#include <stdint.h>

#include <event2/http.h>

struct http;
struct ipslot;

struct stream {
	struct evhttp_request *req;	/* NULL once the stream has ended */
	struct stream *hnext;		/* token table chain */
	struct stream *prev, *next;	/* schedule slot list */
	struct stream *qprev, *qnext;	/* its queue's list */
	struct ipslot *ip;		/* the client address's count */
	uint32_t id;			/* id of the last event sent */
	uint32_t last_write;		/* monotonic seconds */
	uint32_t marked;		/* monotonic s of its last seen mark */
	int64_t line;			/* its number in the line (a ticket;
					 * minus a drawn place); 0: not known
					 * (line_cache.h) */
	uint16_t queue;			/* the queue index of streams.c */
	uint16_t slot;			/* schedule slot */
	uint8_t inflight;		/* a status batch holds it */
	uint8_t stalls;			/* pushes skipped for unsent output */
	uint8_t closed;
	uint8_t pre;			/* it awaits the draw */
	unsigned char token[16];
};

/* Seconds of a monotonic clock. */
uint32_t sse_now(void);

/*
 * Answer 200 text/event-stream and send "retry: retry_ms", counted in the
 * metrics of h, the server that took req in. The connection gets
 * timeout_s (keepalives must come more often) and a small kernel send
 * buffer. closecb runs if the client goes away (h hears it first).
 */
void sse_open(struct stream *st, struct http *h, struct evhttp_request *req,
    long retry_ms, int timeout_s,
    void (*closecb)(struct evhttp_connection *, void *));
/* The connection's timeout again (the intervals changed at a reload). */
void sse_set_timeout(struct stream *st, int timeout_s);

/* Bytes written to the stream that the client has not taken yet. */
size_t sse_unsent(const struct stream *st);

/* Send one event (id is the next one); -1 when past cap unsent bytes. */
int sse_event(struct stream *st, const char *event, const char *data,
    size_t cap);
/* Send bytes as they are (a comment, a retry hint); -1 past cap. */
int sse_raw(struct stream *st, const char *buf, size_t len, size_t cap);

/* End the answer cleanly; the close callback will not run. */
void sse_end(struct stream *st, struct http *h);
/* Drop the connection at once (a client that does not read). */
void sse_abort(struct stream *st, struct http *h);
/* The client went away (from the close callback): release the request. */
void sse_gone(struct stream *st);

#endif
