/*
 * sse.c: one stream's HTTP side. Ownership, from libevent 2.1's rules:
 * while the answer is open, a client that goes away makes evhttp detach
 * the request from its connection and call our close callback; the
 * request is then ours to release with evhttp_send_reply_end. When we end
 * a stream ourselves we first clear the close callback, so it runs only
 * for the client going away, and never after we let go.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>

#include "clock.h"
#include "http.h"
#include "sse.h"
#include "sse_frame.h"

#define SSE_SNDBUF 8192		/* kernel buffer per stream: events are small */

uint32_t
sse_now(void)
{
	return (uint32_t)(clock_mono_ms() / 1000);
}

static struct bufferevent *
sse_bev(const struct stream *st)
{
	struct evhttp_connection *evcon;

	if (st->req == NULL ||
	    (evcon = evhttp_request_get_connection(st->req)) == NULL)
		return NULL;
	return evhttp_connection_get_bufferevent(evcon);
}

void
sse_open(struct stream *st, struct http *h, struct evhttp_request *req,
    long retry_ms, int timeout_s,
    void (*closecb)(struct evhttp_connection *, void *))
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct bufferevent *bev;
	int sndbuf = SSE_SNDBUF;
	char retry[32];

	st->req = req;
	evhttp_add_header(out, "Content-Type", "text/event-stream");
	evhttp_add_header(out, "Cache-Control", "no-cache");
	evhttp_add_header(out, "X-Accel-Buffering", "no");
	http_observe(h, req, 200);
	evhttp_send_reply_start(req, 200, "OK");
	evhttp_connection_set_timeout(evcon, timeout_s);
	http_set_closecb(h, evcon, closecb, st);
	if ((bev = sse_bev(st)) != NULL)
		setsockopt(bufferevent_getfd(bev), SOL_SOCKET, SO_SNDBUF,
		    &sndbuf, sizeof sndbuf);
	sse_raw(st, retry, sse_frame_retry(retry, sizeof retry, retry_ms),
	    (size_t)-1);
}

void
sse_set_timeout(struct stream *st, int timeout_s)
{
	evhttp_connection_set_timeout(evhttp_request_get_connection(st->req),
	    timeout_s);
}

size_t
sse_unsent(const struct stream *st)
{
	struct bufferevent *bev = sse_bev(st);

	return bev ? evbuffer_get_length(bufferevent_get_output(bev)) : 0;
}

int
sse_raw(struct stream *st, const char *buf, size_t len, size_t cap)
{
	struct evbuffer *b;

	if (st->req == NULL || len == 0)
		return 0;
	if (sse_unsent(st) + len > cap)
		return -1;
	if ((b = evbuffer_new()) == NULL)
		return 0;
	evbuffer_add(b, buf, len);
	evhttp_send_reply_chunk(st->req, b);
	evbuffer_free(b);
	st->last_write = sse_now();
	return 0;
}

int
sse_event(struct stream *st, const char *event, const char *data, size_t cap)
{
	size_t len;
	char *frame = sse_frame_event(st->id + 1, event, data, &len);
	int rc;

	if (frame == NULL)
		return 0;
	if ((rc = sse_raw(st, frame, len, cap)) == 0)
		st->id++;
	free(frame);
	return rc;
}

static void
sse_forget(struct stream *st, struct http *h)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(st->req);

	if (evcon)
		http_set_closecb(h, evcon, NULL, NULL);
}

void
sse_end(struct stream *st, struct http *h)
{
	if (st->req == NULL)
		return;
	sse_forget(st, h);
	evhttp_send_reply_end(st->req);
	st->req = NULL;
}

void
sse_abort(struct stream *st, struct http *h)
{
	struct evhttp_connection *evcon;

	if (st->req == NULL)
		return;
	sse_forget(st, h);
	/* Frees the request with the connection. */
	if ((evcon = evhttp_request_get_connection(st->req)) != NULL)
		evhttp_connection_free(evcon);
	else
		evhttp_send_reply_end(st->req);
	st->req = NULL;
}

void
sse_gone(struct stream *st)
{
	if (st->req == NULL)
		return;
	/* Detached by evhttp: ending it releases it. Attached (the server is
	 * being freed): evhttp frees it right after this callback. */
	if (evhttp_request_get_connection(st->req) == NULL)
		evhttp_send_reply_end(st->req);
	st->req = NULL;
}
