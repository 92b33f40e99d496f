/*
 * http.c: evhttp with explicit limits (evhttp has none by default), the
 * route table's verdicts turned into JSON errors, and reply helpers.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "api.h"
#include "conf.h"
#include "http.h"
#include "log.h"
#include "reply.h"

#define HTTP_MAX_HEADERS 8192
#define HTTP_MAX_BODY 65536	/* hard cap; conf->max_body is the real one */
#define HTTP_TIMEOUT_S 30

#define HTTP_ACCEPT_PAUSE_MS 250	/* after accept fails (EMFILE...) */

struct http {
	struct app *app;
	struct evhttp *evh;
	struct evhttp_bound_socket *bs;
	struct event *resume;
};

static api_handler *const handlers[] = {
	[ROUTE_HEALTHZ] = api_healthz,
	[ROUTE_READYZ] = api_readyz,
	[ROUTE_QUEUE] = api_summary,
	[ROUTE_TOKENS] = api_join,
	[ROUTE_TOKEN] = api_token,
	[ROUTE_EVENTS] = api_events,
	[ROUTE_CHECK] = api_check,
};

static const char *
http_reason(int code)
{
	switch (code) {
	case 200: return "OK";
	case 201: return "Created";
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

static void
http_send(struct evhttp_request *req, int code, const char *body)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct evbuffer *buf = NULL;

	evhttp_add_header(out, "Cache-Control", "no-store");
	if (body) {
		evhttp_add_header(out, "Content-Type", "application/json");
		if ((buf = evbuffer_new()) != NULL) {
			evbuffer_add(buf, body, strlen(body));
			evbuffer_add(buf, "\n", 1);
		}
	}
	log_debug("event=request method=%d uri=\"%.80s\" status=%d",
	    (int)evhttp_request_get_command(req), evhttp_request_get_uri(req),
	    code);
	evhttp_send_reply(req, code, http_reason(code), buf);
	if (buf)
		evbuffer_free(buf);
}

void
http_send_json(struct evhttp_request *req, int code, json_t *body)
{
	char *s = body ? reply_dump(body) : NULL;

	json_decref(body);
	if (s == NULL) {
		http_send(req, 500, "{\"error\":{\"code\":\"internal\","
		    "\"message\":\"out of memory\"}}");
		return;
	}
	http_send(req, code, s);
	free(s);
}

void
http_send_error(struct evhttp_request *req, int code, const char *ecode,
    const char *fmt, ...)
{
	char msg[512], *body;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	body = reply_error_body(ecode, msg);
	http_send(req, body ? code : 500, body ? body :
	    "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}");
	free(body);
}

void
http_send_unavailable(struct evhttp_request *req)
{
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Retry-After", "1");
	http_send_error(req, 503, "store_unavailable",
	    "the queue store is unreachable; try again shortly");
}

void
http_send_empty(struct evhttp_request *req, int code)
{
	http_send(req, code, NULL);
}

static int
http_method(enum evhttp_cmd_type cmd)
{
	switch (cmd) {
	case EVHTTP_REQ_GET: return RM_GET;
	case EVHTTP_REQ_POST: return RM_POST;
	case EVHTTP_REQ_PUT: return RM_PUT;
	case EVHTTP_REQ_DELETE: return RM_DELETE;
	case EVHTTP_REQ_HEAD: return RM_HEAD;
	case EVHTTP_REQ_OPTIONS: return RM_OPTIONS;
	default: return RM_OTHER;
	}
}

/* Two Content-Lengths that disagree, or one beside Transfer-Encoding. */
static int
http_bad_framing(struct evhttp_request *req)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *first = NULL;
	int te = 0;

	for (struct evkeyval *h = in->tqh_first; h; h = h->next.tqe_next) {
		if (strcasecmp(h->key, "Transfer-Encoding") == 0)
			te = 1;
		if (strcasecmp(h->key, "Content-Length") != 0)
			continue;
		if (first && strcmp(first, h->value) != 0)
			return 1;
		first = h->value;
	}
	return te && first;
}

static void
http_route_error(struct evhttp_request *req, enum route_result rr,
    const struct route_match *m, const char *path)
{
	switch (rr) {
	case ROUTE_BAD_METHOD:
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", m->allow);
		http_send_error(req, 405, "method_not_allowed",
		    "this path allows %s", m->allow);
		break;
	case ROUTE_BAD_QUEUE:
		http_send_error(req, 400, "bad_queue_id", "a queue id is 1 to "
		    "64 of A-Z, a-z, 0-9, '_' and '-'");
		break;
	case ROUTE_BAD_TOKEN:
		http_send_error(req, 400, "bad_token", "a token is a "
		    "lower-case version 4 UUID");
		break;
	default:
		http_send_error(req, 404, "not_found", "no such path");
	}
}

static void
http_dispatch(struct evhttp_request *req, void *arg)
{
	struct app *app = arg;
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	struct route_match m;
	enum route_result rr;
	size_t body;

	if (path == NULL || http_bad_framing(req)) {
		http_send_error(req, 400, "bad_request",
		    "malformed request line or framing headers");
		return;
	}
	rr = route_match(http_method(evhttp_request_get_command(req)), path,
	    &m);
	if (rr != ROUTE_OK) {
		http_route_error(req, rr, &m, path);
		return;
	}
	body = evbuffer_get_length(evhttp_request_get_input_buffer(req));
	if (body > (size_t)app->conf->max_body) {
		http_send_error(req, 413, "body_too_large", "a request body "
		    "may hold at most %ld bytes", app->conf->max_body);
		return;
	}
	if (m.id >= sizeof handlers / sizeof handlers[0] ||
	    handlers[m.id] == NULL) {
		http_send_error(req, 404, "not_found", "no such path");
		return;
	}
	handlers[m.id](app, req, &m);
}

/* The listener's error callback gets evhttp's argument, not ours. */
static struct http *the_http;

static void
http_resume(evutil_socket_t fd, short what, void *arg)
{
	struct http *h = arg;

	if (h->bs)
		evconnlistener_enable(evhttp_bound_socket_get_listener(h->bs));
}

/*
 * accept() failed, most likely out of descriptors: the listening socket
 * stays readable, so pause it briefly rather than spin on it.
 */
static void
http_accept_error(struct evconnlistener *l, void *arg)
{
	struct http *h = the_http;
	struct timeval tv = { 0, HTTP_ACCEPT_PAUSE_MS * 1000 };

	log_warn("event=accept_failed error=\"%s\" pause_ms=%d",
	    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()),
	    HTTP_ACCEPT_PAUSE_MS);
	evconnlistener_disable(l);
	if (h)
		evtimer_add(h->resume, &tv);
}

void
http_stop_accepting(struct http *h)
{
	if (h->bs == NULL)
		return;
	evhttp_del_accept_socket(h->evh, h->bs);
	h->bs = NULL;
}

static void
http_limits(struct evhttp *evh)
{
	evhttp_set_max_headers_size(evh, HTTP_MAX_HEADERS);
	evhttp_set_max_body_size(evh, HTTP_MAX_BODY);
	evhttp_set_timeout(evh, HTTP_TIMEOUT_S);
	/* Every method reaches http_dispatch, which answers 405 in JSON. */
	evhttp_set_allowed_methods(evh, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
	    EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
	    EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
	    EVHTTP_REQ_PATCH);
	evhttp_set_default_content_type(evh, "application/json");
}

struct http *
http_new(struct app *app, int fd, char *err, size_t errlen)
{
	struct http *h = calloc(1, sizeof *h);

	if (h == NULL || (h->evh = evhttp_new(app->base)) == NULL ||
	    (h->resume = evtimer_new(app->base, http_resume, h)) == NULL) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		goto fail;
	}
	h->app = app;
	http_limits(h->evh);
	evhttp_set_gencb(h->evh, http_dispatch, app);
	if ((h->bs = evhttp_accept_socket_with_handle(h->evh, fd)) == NULL) {
		snprintf(err, errlen, "cannot serve on %s", app->conf->listen);
		close(fd);
		goto fail;
	}
	the_http = h;
	evconnlistener_set_error_cb(evhttp_bound_socket_get_listener(h->bs),
	    http_accept_error);
	return h;
fail:
	http_free(h);
	return NULL;
}

void
http_free(struct http *h)
{
	if (h == NULL)
		return;
	if (h->evh)
		evhttp_free(h->evh);
	if (h->resume)
		event_free(h->resume);
	if (the_http == h)
		the_http = NULL;
	free(h);
}
