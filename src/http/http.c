/*
 * http.c: evhttp with explicit limits (evhttp has none by default), the
 * client's address, dispatch by the route table, and its verdicts turned
 * into JSON errors; http_reply.c writes the answers.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "api.h"
#include "auth.h"
#include "conf.h"
#include "cors.h"
#include "clientaddr.h"
#include "conns.h"
#include "http.h"
#include "log.h"
#include "metrics.h"
#include "stamps.h"
#include "validate.h"

#define HTTP_MAX_HEADERS 8192
#define HTTP_MAX_BODY 65536	/* hard cap; conf->max_body is the real one */
#define HTTP_TIMEOUT_S 30

#define HTTP_ACCEPT_PAUSE_MS 250	/* after accept fails (EMFILE...) */

struct http {
	struct app *app;
	struct evhttp *evh;
	struct evhttp_bound_socket *bs;
	struct event *resume;
	struct conns *conns;	/* deadlines, caps, the descriptor reserve */
	struct stamps *stamps;	/* route and arrival, until the answer */
};

static api_handler *const handlers[] = {
#define ROUTE(id, pattern, methods, name, handler) [ROUTE_##id] = handler,
#include "routes.def"
#undef ROUTE
};

#define HTTP_CORS_MAX_AGE "600"

static long long
http_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * The process's server: the listener's error callback gets evhttp's
 * argument, not ours, and an answer has only its request.
 */
static struct http *the_http;

static void
http_stamp(struct evhttp_request *req, int route, long long start_us)
{
	if (the_http != NULL && stamps_put(the_http->stamps, req, route,
	    start_us) == -1)
		log_warn("event=stamp_failed error=\"out of memory\"");
}

void
http_observe(struct evhttp_request *req, int code)
{
	long long start;
	int route;

	if (the_http != NULL && stamps_take(the_http->stamps, req, &route,
	    &start) == 0)
		metrics_http(route, code, (double)(http_now_us() - start) /
		    1e6);
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

/* HTTP/1.1 or later: libevent 2.1 has no getter for the version. */
static int
http_is_11(const struct evhttp_request *req)
{
	return req->major > 1 || (req->major == 1 && req->minor >= 1);
}

/*
 * Framing that a proxy in front might read otherwise (request smuggling):
 * two Content-Lengths that disagree, one beside Transfer-Encoding, one
 * that is not all digits (libevent's strtoll reads "+2" as 2); and Host,
 * which HTTP/1.1 asks for exactly once (RFC 9112, 3.2). What is wrong, or
 * NULL.
 */
static const char *
http_bad_framing(struct evhttp_request *req)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *first = NULL;
	int te = 0, hosts = 0;

	for (struct evkeyval *h = in->tqh_first; h; h = h->next.tqe_next) {
		hosts += strcasecmp(h->key, "Host") == 0;
		te |= strcasecmp(h->key, "Transfer-Encoding") == 0;
		if (strcasecmp(h->key, "Content-Length") != 0)
			continue;
		if (!valid_content_length(h->value))
			return "Content-Length must be digits only";
		if (first && strcmp(first, h->value) != 0)
			return "two Content-Length headers disagree";
		first = h->value;
	}
	if (te && first)
		return "Content-Length beside Transfer-Encoding";
	if (hosts > 1 || (hosts == 0 && http_is_11(req)))
		return "an HTTP/1.1 request needs exactly one Host header";
	return NULL;
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
		http_send_bad_queue(req);
		break;
	case ROUTE_BAD_TOKEN:
		http_send_error(req, 400, "bad_token", "a token is a "
		    "lower-case version 4 UUID");
		break;
	default:
		http_send_error(req, 404, "not_found", "no such path");
	}
}

static int
http_is_api(enum route_id id)
{
	return id == ROUTE_QUEUE || id == ROUTE_TOKENS || id == ROUTE_TOKEN ||
	    id == ROUTE_EVENTS;
}

/* May a page of origin call this API (cors_origins)? */
static int
http_origin_allowed(const struct conf *c, const char *origin)
{
	return cors_any(c->cors_origins) ||
	    cors_allowed(c->cors_origins, origin);
}

/* The CORS answer headers for an allowed origin; never an echo of any. */
static void
http_cors_headers(const struct conf *c, struct evhttp_request *req,
    const char *origin)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	if (cors_any(c->cors_origins)) {
		evhttp_add_header(out, "Access-Control-Allow-Origin", "*");
		return;
	}
	evhttp_add_header(out, "Vary", "Origin");
	if (cors_allowed(c->cors_origins, origin))
		evhttp_add_header(out, "Access-Control-Allow-Origin", origin);
}

/*
 * CORS: allowed origins get their headers on the API. Whether a page of
 * another origin may join at all is api_join_origin's call.
 */
static void
http_cors(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *origin)
{
	if (origin != NULL && http_is_api(m->id))
		http_cors_headers(app->conf, req, origin);
}

/* OPTIONS from a browser before a cross-origin call. */
static void
http_preflight(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *origin)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	if (!http_origin_allowed(app->conf, origin)) {
		evhttp_add_header(out, "Vary", "Origin");
		http_send_error(req, 403, "forbidden_origin", "pages of this "
		    "origin may not call this API (cors_origins)");
		return;
	}
	http_cors_headers(app->conf, req, origin);
	evhttp_add_header(out, "Access-Control-Allow-Methods", m->allow);
	evhttp_add_header(out, "Access-Control-Allow-Headers",
	    "Content-Type, Last-Event-ID");
	evhttp_add_header(out, "Access-Control-Max-Age", HTTP_CORS_MAX_AGE);
	http_send_empty(req, 204);
}

/*
 * The admin gate: 404 when the admin API is off, 401 without the token.
 * Returns 1 when the request may go on.
 */
static int
http_admin_ok(struct app *app, struct evhttp_request *req)
{
	const char *h;

	if (app->admin_token == NULL) {
		http_send_error(req, 404, "not_found", "no such path (the admin "
		    "API is off: no admin_token_file is configured)");
		return 0;
	}
	h = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Authorization");
	if (auth_check(h, app->admin_token))
		return 1;
	log_info("event=admin_unauthorized uri=\"%.80s\" reason=%s",
	    evhttp_request_get_uri(req), h ? "wrong_token" : "no_token");
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "WWW-Authenticate", "Bearer realm=\"waitroom admin\"");
	http_send_error(req, 401, "unauthorized", "the admin API needs "
	    "'Authorization: Bearer <admin token>' with the token of "
	    "admin_token_file");
	return 0;
}

/*
 * The client's address, once for every handler: the peer, or behind
 * trusted_proxies the nearest untrusted hop of X-Forwarded-For.
 */
static void
http_client(struct app *app, struct evhttp_request *req,
    char out[CLIENTADDR_MAX])
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	char *peer = NULL;
	ev_uint16_t port;

	if (evcon)
		evhttp_connection_get_peer(evcon, &peer, &port);
	clientaddr_pick(app->trusted, peer ? peer : "?", app->trusted ?
	    evhttp_find_header(evhttp_request_get_input_headers(req),
	    "X-Forwarded-For") : NULL, out);
}

static void
http_dispatch(struct evhttp_request *req, void *arg)
{
	struct app *app = arg;
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	char client[CLIENTADDR_MAX];
	struct route_match m;
	enum route_result rr;
	const char *origin, *bad = NULL;
	size_t body;
	long long start_us = http_now_us();

	conns_request(app->http->conns, req);
	if (path == NULL || (bad = http_bad_framing(req)) != NULL) {
		http_stamp(req, ROUTE_NONE, start_us);
		/* What follows on the connection cannot be trusted. */
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Connection", "close");
		http_send_error(req, 400, "bad_request", "%s", path ? bad :
		    "malformed request line");
		return;
	}
	rr = route_match(http_method(evhttp_request_get_command(req)), path,
	    &m);
	http_stamp(req, m.id, start_us);
	if (route_is_admin(path) && !http_admin_ok(app, req))
		return;
	origin = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Origin");
	if (rr == ROUTE_BAD_METHOD && m.method == RM_OPTIONS && origin &&
	    http_is_api(m.id)) {
		http_preflight(app, req, &m, origin);
		return;
	}
	if (rr != ROUTE_OK) {
		http_route_error(req, rr, &m, path);
		return;
	}
	http_cors(app, req, &m, origin);
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
	http_client(app, req, client);
	handlers[m.id](app, req, &m, client);
}

static void
http_resume(evutil_socket_t fd, short what, void *arg)
{
	struct http *h = arg;

	if (h->bs)
		evconnlistener_enable(evhttp_bound_socket_get_listener(h->bs));
}

/*
 * accept() failed, most likely out of descriptors. First the reserve:
 * close the oldest connections that have no request head yet, and go on
 * accepting. When there are none (or fd_reserve is 0), the last resort:
 * the listening socket stays readable, so pause it briefly rather than
 * spin on it.
 */
static void
http_accept_error(struct evconnlistener *l, void *arg)
{
	static time_t logged;
	struct http *h = the_http;
	struct timeval tv = { 0, HTTP_ACCEPT_PAUSE_MS * 1000 };
	const char *why = evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR());
	int shed = h ? conns_shed(h->conns) : 0;

	if (shed == 0 || time(NULL) != logged)
		log_warn("event=accept_failed error=\"%s\" shed=%d pause_ms=%d",
		    why, shed, shed ? 0 : HTTP_ACCEPT_PAUSE_MS);
	logged = time(NULL);
	if (shed > 0)
		return;
	evconnlistener_disable(l);
	if (h)
		evtimer_add(h->resume, &tv);
}

void
http_set_closecb(struct evhttp_connection *evcon,
    void (*cb)(struct evhttp_connection *, void *), void *arg)
{
	if (the_http)
		conns_set_closecb(the_http->conns, evcon, cb, arg);
	else
		evhttp_connection_set_closecb(evcon, cb, arg);
}

size_t
http_connections(const struct http *h)
{
	return h ? conns_count(h->conns) : 0;
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
	if ((h->conns = conns_new(app, h->evh)) == NULL ||
	    (h->stamps = stamps_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		goto fail;
	}
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
	conns_free(h->conns);	/* after evhttp_free closed them */
	if (h->stamps && stamps_count(h->stamps) > 0)
		log_info("event=unanswered requests=%lu",
		    stamps_count(h->stamps));	/* evhttp_free freed them */
	stamps_free(h->stamps);
	if (h->resume)
		event_free(h->resume);
	if (the_http == h)
		the_http = NULL;
	free(h);
}
