/*
 * refusal.h: libevent's own answers, put as doc/api.md's JSON errors.
 *
 * evhttp answers some requests by itself, before dispatch sees them (a
 * head it cannot read, a body over max_body, an Expect it does not know),
 * with an HTML page; libevent 2.1 has no hook to shape it. conns.c
 * watches a connection's output while no request of it is ours, and
 * hands what evhttp wrote here.
 */
#ifndef WAITROOM_REFUSAL_H
#define WAITROOM_REFUSAL_H

#include <stddef.h>

struct evbuffer;

struct refusal {
	int status;		/* 400, 413 or 417 */
	char minor;		/* '0' or '1': the answer's HTTP/1.x */
	char *body;		/* the JSON error, owned */
};

/*
 * Bytes were added to out from offset from on. 0 when they begin an
 * answer to replace (r filled, r->body to be freed by refusal_put); -1
 * when they do not (no status line, a "100 Continue") or out of memory,
 * and evhttp's bytes go as they are.
 */
int refusal_read(struct evbuffer *out, size_t from, long max_body,
    struct refusal *r);

/*
 * Replace all of out with r's answer and freeze its end, so that the rest
 * of the page evhttp goes on to write is dropped; frees r->body. Call it
 * with the output's watch off.
 */
void refusal_put(struct evbuffer *out, struct refusal *r);

#endif
