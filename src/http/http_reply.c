/*
 * http_reply.c: writing a request's answer: the status line's reason, the
 * Date, the body and its headers, JSON errors from a store's result, pages
 * with their Content-Security-Policy, and http_await, which keeps reading
 * a connection while its request waits for Redis. http.c takes requests
 * in; this file sends their answers out, counted in the metrics of the
 * server the caller passes (http_observe), and calls nothing above it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>

#include "decimal.h"
#include "http.h"
#include "http_reply.h"
#include "httpdate.h"
#include "log.h"
#include "reply.h"
#include "result.h"

/*
 * The page's script and style come from this server only; nothing inline,
 * nothing from elsewhere, no framing, and forms post only here.
 */
#define HTTP_PAGE_CSP "default-src 'none'; script-src 'self'; " \
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; " \
	"worker-src 'self'; form-action 'self'; base-uri 'none'; " \
	"frame-ancestors 'none'"

/* The console's: as the page's, but it has no worker and posts no form. */
#define HTTP_CONSOLE_CSP "default-src 'none'; script-src 'self'; " \
	"style-src 'self'; connect-src 'self'; img-src 'self' data:; " \
	"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

static const char *
http_reason(int code)
{
	switch (code) {
	case 200: return "OK";
	case 201: return "Created";
	case 303: return "See Other";
	case 204: return "No Content";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 413: return "Payload Too Large";
	case 429: return "Too Many Requests";
	case 503: return "Service Unavailable";
	default: return code < 500 ? "Error" : "Internal Server Error";
	}
}

/*
 * Input a connection may buffer while its request waits for Redis (see
 * http_await): room for a pipelined request's head, then reading pauses.
 */
#define HTTP_AWAIT_INPUT_MAX 16384

/*
 * evhttp stops reading a connection once it has a request's head, which
 * takes the socket out of epoll, and puts it back when the answer goes
 * out: two epoll_ctl calls per request. While the request waits for Redis,
 * keep reading instead, into the input buffer with no read callback (as
 * evhttp itself does while it writes), up to a bound: evhttp parses what
 * came once the answer is out, and a client that hangs up meanwhile is
 * noticed (evhttp then parts the request from its connection, and the
 * answer only frees it). http_reply undoes the bound.
 */
void
http_await(struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	bufferevent_event_cb eventcb;
	bufferevent_data_cb writecb;
	struct bufferevent *bev;
	void *arg;

	if (evcon == NULL)
		return;
	bev = evhttp_connection_get_bufferevent(evcon);
	bufferevent_getcb(bev, NULL, &writecb, &eventcb, &arg);
	bufferevent_setcb(bev, NULL, writecb, eventcb, arg);
	bufferevent_setwatermark(bev, EV_READ, 0, HTTP_AWAIT_INPUT_MAX);
	bufferevent_enable(bev, EV_READ);
}

/*
 * evhttp writes a Date header on every answer, formatting the clock anew
 * through snprintf each time; one text serves a whole second here.
 */
static void
http_add_date(struct evhttp_request *req)
{
	static char date[HTTPDATE_LEN + 1];
	static time_t date_at = -1;
	time_t now = time(NULL);

	if (now != date_at) {
		if (httpdate_format(date, now) == -1)
			return;		/* evhttp writes its own */
		date_at = now;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req), "Date",
	    date);
}

/*
 * evhttp_send_reply, then write the answer at once rather than wait for the
 * loop to report the socket writable: for an answer that fits the socket's
 * buffer, that saves two epoll_ctl calls and a pass of the loop. Once all
 * of it is out, the bufferevent's write callback (evhttp's "sent") runs as
 * it would have; a short or failed write leaves the rest to evhttp. After
 * this, req may be gone.
 *
 * A HEAD request gets the head alone, with the body's length: evhttp
 * would send the body too, which its client never reads, so the next
 * answer on the connection would start inside it.
 */
void
http_reply(struct evhttp_request *req, int code, struct evbuffer *body)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
	struct bufferevent *bev = NULL;
	char length[DECIMAL_MAX + 1];
	struct evbuffer *out;

	if (body != NULL &&
	    evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		if (evhttp_find_header(headers, "Content-Length") == NULL)
			evhttp_add_header(headers, "Content-Length",
			    decimal_str(length,
			    (long long)evbuffer_get_length(body)));
		body = NULL;
	}
	if (evcon != NULL) {
		bev = evhttp_connection_get_bufferevent(evcon);
		bufferevent_setwatermark(bev, EV_READ, 0, 0);
	}
	http_add_date(req);
	evhttp_send_reply(req, code, http_reason(code), body);
	if (bev == NULL)
		return;
	out = bufferevent_get_output(bev);
	if (evbuffer_write(out, bufferevent_getfd(bev)) > 0 &&
	    evbuffer_get_length(out) == 0)
		bufferevent_trigger(bev, EV_WRITE, 0);
}

/*
 * Answer with the len bytes at body, and a newline when nl. The length is
 * written here: evhttp would count it through snprintf. A HEAD request gets
 * the head alone (see http_reply), without copying the body first.
 */
static void
http_reply_body(struct evhttp_request *req, int code, const char *body,
    size_t len, int nl)
{
	struct evbuffer *buf = NULL;
	char length[DECIMAL_MAX + 1];

	if (evhttp_request_get_command(req) != EVHTTP_REQ_HEAD) {
		if ((buf = evbuffer_new()) == NULL) {
			http_reply(req, code, NULL);
			return;
		}
		evbuffer_add(buf, body, len);
		if (nl)
			evbuffer_add(buf, "\n", 1);
	}
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Length", decimal_str(length, (long long)len + (nl != 0)));
	http_reply(req, code, buf);
	if (buf)
		evbuffer_free(buf);
}

static void
http_send(struct http *h, struct evhttp_request *req, int code,
    const char *body)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	evhttp_add_header(out, "Cache-Control", "no-store");
	if (body)
		evhttp_add_header(out, "Content-Type", "application/json");
	log_debug("event=request method=%d path=\"%.80s\" status=%d",
	    (int)evhttp_request_get_command(req), http_path(req), code);
	http_observe(h, req, code);
	if (body)
		http_reply_body(req, code, body, strlen(body), 1);
	else
		http_reply(req, code, NULL);
}

void
http_send_text(struct http *h, struct evhttp_request *req, int code,
    char *body)
{
	if (body == NULL) {
		http_send(h, req, 500, "{\"error\":{\"code\":\"internal\","
		    "\"message\":\"out of memory\"}}");
		return;
	}
	http_send(h, req, code, body);
	free(body);
}

void
http_send_json(struct http *h, struct evhttp_request *req, int code,
    json_t *body)
{
	http_send_text(h, req, code, reply_dump_take(body));
}

void
http_send_error(struct http *h, struct evhttp_request *req, int code,
    const char *ecode, const char *fmt, ...)
{
	char msg[512], *body;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	body = reply_error_body(ecode, msg);
	http_send(h, req, body ? code : 500, body ? body :
	    "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}");
	free(body);
}

void
http_send_result(struct http *h, struct evhttp_request *req,
    const char *queue, enum result r)
{
	const struct result_answer *a = result_answer(r);
	char message[256];

	if (a->code == NULL) {
		http_send_empty(h, req, a->status);
		return;
	}
	if (a->retry_after)
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Retry-After", a->retry_after);
	http_send_error(h, req, a->status, a->code, "%s", result_message(a,
	    queue ? queue : "", message, sizeof message));
}

void
http_send_unavailable(struct http *h, struct evhttp_request *req)
{
	http_send_result(h, req, NULL, RESULT_UNAVAILABLE);
}

void
http_send_bad_queue(struct http *h, struct evhttp_request *req)
{
	http_send_error(h, req, 400, "bad_queue_id", "a queue id is 1 to 64 of "
	    "A-Z, a-z, 0-9, '_' and '-'");
}

void
http_send_empty(struct http *h, struct evhttp_request *req, int code)
{
	http_send(h, req, code, NULL);
}

static void
http_send_bytes(struct http *h, struct evhttp_request *req, int code,
    const char *type, const char *body, size_t len)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	evhttp_add_header(out, "Content-Type", type);
	evhttp_add_header(out, "X-Content-Type-Options", "nosniff");
	log_debug("event=request method=%d path=\"%.80s\" status=%d",
	    (int)evhttp_request_get_command(req), http_path(req), code);
	http_observe(h, req, code);
	http_reply_body(req, code, body, len, 0);
}

void
http_send_html(struct http *h, struct evhttp_request *req, int code,
    const char *body, size_t len)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	evhttp_add_header(out, "Cache-Control", "no-store");
	evhttp_add_header(out, "Content-Security-Policy", HTTP_PAGE_CSP);
	evhttp_add_header(out, "Referrer-Policy", "no-referrer");
	http_send_bytes(h, req, code, "text/html; charset=utf-8", body, len);
}

void
http_send_console(struct http *h, struct evhttp_request *req,
    const char *type, const char *body, size_t len)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	evhttp_add_header(out, "Cache-Control", "no-store");
	evhttp_add_header(out, "Content-Security-Policy", HTTP_CONSOLE_CSP);
	evhttp_add_header(out, "X-Frame-Options", "DENY");
	evhttp_add_header(out, "Referrer-Policy", "no-referrer");
	http_send_bytes(h, req, 200, type, body, len);
}

void
http_send_csv(struct http *h, struct evhttp_request *req, const char *body,
    size_t len)
{
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Cache-Control", "no-store");
	http_send_bytes(h, req, 200, "text/csv; charset=utf-8", body, len);
}

void
http_send_file(struct http *h, struct evhttp_request *req, const char *type,
    const char *body, size_t len)
{
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Cache-Control", "public, max-age=300");
	http_send_bytes(h, req, 200, type, body, len);
}
