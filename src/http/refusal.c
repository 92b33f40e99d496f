/*
 * refusal.c: libevent's own answers, put as JSON; see refusal.h.
 *
 * The answer's status line comes first, in one piece, and nothing of an
 * earlier answer is left in the output (evhttp reads no request before
 * the last answer is out), so the whole output is the refusal. evhttp
 * sends what is there and closes the connection, as its page asked (and
 * the rest of a body could not be told from a request).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>

#include "connq.h"
#include "httpdate.h"
#include "refusal.h"
#include "reply.h"

static const char *
refusal_reason(int status)
{
	switch (status) {
	case 413: return "Payload Too Large";
	case 417: return "Expectation Failed";
	default: return "Bad Request";
	}
}

int
refusal_read(struct evbuffer *out, size_t from, long max_body,
    struct refusal *r)
{
	char line[13];
	struct evbuffer_ptr p;
	ev_ssize_t n;

	if (evbuffer_ptr_set(out, &p, from, EVBUFFER_PTR_SET) == -1 ||
	    (n = evbuffer_copyout_from(out, &p, line, sizeof line)) < 0 ||
	    (r->status = connq_status(line, (size_t)n)) == -1 ||
	    r->status == 100)
		return -1;
	r->minor = line[7];
	if ((r->body = reply_refusal_body(&r->status, max_body)) == NULL)
		return -1;
	return 0;
}

void
refusal_put(struct evbuffer *out, struct refusal *r)
{
	char date[HTTPDATE_LEN + 1];

	if (httpdate_format(date, time(NULL)) == -1)
		date[0] = '\0';
	/* bufferevent_socket freezes the front but to write: drain it too. */
	evbuffer_unfreeze(out, 1);
	evbuffer_drain(out, evbuffer_get_length(out));
	evbuffer_freeze(out, 1);
	evbuffer_add_printf(out, "HTTP/1.%c %d %s\r\n"
	    "Content-Type: application/json\r\nContent-Length: %zu\r\n"
	    "Cache-Control: no-store\r\nConnection: close\r\n"
	    "Date: %s\r\n\r\n%s\n", r->minor, r->status,
	    refusal_reason(r->status), strlen(r->body) + 1, date, r->body);
	evbuffer_freeze(out, 0);
	free(r->body);
	r->body = NULL;
}
