/*
 * dispatch.c: a request, from the server (http.c) to its handler: framing
 * a proxy could read otherwise, the route table, the admin gate, CORS, the
 * body's size and the client's address, and what fails any of them
 * answered here as a JSON error (http_reply.c). The handlers are the
 * layer below; nothing they call comes back here.
 */
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>

#include "api.h"
#include "auth.h"
#include "clientaddr.h"
#include "conf.h"
#include "cors.h"
#include "dispatch.h"
#include "http.h"
#include "http_reply.h"
#include "log.h"
#include "validate.h"

#define DISPATCH_CORS_MAX_AGE "600"

static api_handler *const handlers[] = {
#define ROUTE(id, pattern, methods, name, handler) [ROUTE_##id] = handler,
#include "routes.def"
#undef ROUTE
};

static int
dispatch_method(enum evhttp_cmd_type cmd)
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
dispatch_is_11(const struct evhttp_request *req)
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
dispatch_bad_framing(struct evhttp_request *req)
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
	if (hosts > 1 || (hosts == 0 && dispatch_is_11(req)))
		return "an HTTP/1.1 request needs exactly one Host header";
	return NULL;
}

static void
dispatch_route_error(struct http *h, struct evhttp_request *req,
    enum route_result rr, const struct route_match *m)
{
	switch (rr) {
	case ROUTE_BAD_METHOD:
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", m->allow);
		http_send_error(h, req, 405, "method_not_allowed",
		    "this path allows %s", m->allow);
		break;
	case ROUTE_BAD_QUEUE:
		http_send_bad_queue(h, req);
		break;
	case ROUTE_BAD_TOKEN:
		http_send_error(h, req, 400, "bad_token", "a token is a "
		    "lower-case version 4 UUID");
		break;
	default:
		http_send_error(h, req, 404, "not_found", "no such path");
	}
}

static int
dispatch_is_api(enum route_id id)
{
	return id == ROUTE_QUEUE || id == ROUTE_TOKENS || id == ROUTE_TOKEN ||
	    id == ROUTE_EVENTS;
}

/* May a page of origin call this API (cors_origins)? */
static int
dispatch_origin_allowed(const struct conf *c, const char *origin)
{
	return cors_any(c->cors_origins) ||
	    cors_allowed(c->cors_origins, origin);
}

/* The CORS answer headers for an allowed origin; never an echo of any. */
static void
dispatch_cors_headers(const struct conf *c, struct evhttp_request *req,
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
dispatch_cors(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *origin)
{
	if (origin != NULL && dispatch_is_api(m->id))
		dispatch_cors_headers(app->conf, req, origin);
}

/* OPTIONS from a browser before a cross-origin call. */
static void
dispatch_preflight(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *origin)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	if (!dispatch_origin_allowed(app->conf, origin)) {
		evhttp_add_header(out, "Vary", "Origin");
		http_send_error(app->http, req, 403, "forbidden_origin",
		    "pages of this origin may not call this API "
		    "(cors_origins)");
		return;
	}
	dispatch_cors_headers(app->conf, req, origin);
	evhttp_add_header(out, "Access-Control-Allow-Methods", m->allow);
	evhttp_add_header(out, "Access-Control-Allow-Headers",
	    "Content-Type, Last-Event-ID");
	evhttp_add_header(out, "Access-Control-Max-Age", DISPATCH_CORS_MAX_AGE);
	http_send_empty(app->http, req, 204);
}

/*
 * The admin gate: 404 when the admin API is off, 401 without the token.
 * Returns 1 when the request may go on.
 */
static int
dispatch_admin_ok(struct app *app, struct evhttp_request *req)
{
	const char *h;

	if (app->admin_token == NULL) {
		http_send_error(app->http, req, 404, "not_found", "no such "
		    "path (the admin API is off: no admin_token_file is "
		    "configured)");
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
	http_send_error(app->http, req, 401, "unauthorized", "the admin API "
	    "needs 'Authorization: Bearer <admin token>' with the token of "
	    "admin_token_file");
	return 0;
}

/*
 * The client's address, once for every handler: the peer, or behind
 * trusted_proxies the nearest untrusted hop of X-Forwarded-For.
 */
static void
dispatch_client(struct app *app, struct evhttp_request *req,
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

/*
 * What may be refused before the route is known: a request line that
 * could not be read, and framing. 1 after answering 400.
 */
static int
dispatch_unframed(struct http *h, struct evhttp_request *req,
    const char *path, long long start_us)
{
	const char *bad = NULL;

	if (path != NULL && (bad = dispatch_bad_framing(req)) == NULL)
		return 0;
	http_stamp(h, req, ROUTE_NONE, start_us);
	/* What follows on the connection cannot be trusted. */
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Connection", "close");
	http_send_error(h, req, 400, "bad_request", "%s", path ? bad :
	    "malformed request line");
	return 1;
}

void
dispatch_request(struct app *app, struct evhttp_request *req,
    long long start_us)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	struct http *h = app->http;
	char client[CLIENTADDR_MAX];
	struct route_match m;
	enum route_result rr;
	const char *origin;
	size_t body;

	if (dispatch_unframed(h, req, path, start_us))
		return;
	rr = route_match(dispatch_method(evhttp_request_get_command(req)), path,
	    &m);
	http_stamp(h, req, m.id, start_us);
	if (route_is_admin(path) && !dispatch_admin_ok(app, req))
		return;
	origin = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Origin");
	if (rr == ROUTE_BAD_METHOD && m.method == RM_OPTIONS && origin &&
	    dispatch_is_api(m.id)) {
		dispatch_preflight(app, req, &m, origin);
		return;
	}
	if (rr != ROUTE_OK) {
		dispatch_route_error(h, req, rr, &m);
		return;
	}
	dispatch_cors(app, req, &m, origin);
	body = evbuffer_get_length(evhttp_request_get_input_buffer(req));
	if (body > (size_t)app->conf->max_body) {
		http_send_error(h, req, 413, "body_too_large", "a request body "
		    "may hold at most %ld bytes", app->conf->max_body);
		return;
	}
	if (m.id >= sizeof handlers / sizeof handlers[0] ||
	    handlers[m.id] == NULL) {
		http_send_error(h, req, 404, "not_found", "no such path");
		return;
	}
	dispatch_client(app, req, client);
	handlers[m.id](app, req, &m, client);
}
