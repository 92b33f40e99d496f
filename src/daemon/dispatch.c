/*
 * dispatch.c: a request, as the server (http.c) read it, to its handler:
 * the port (admin_listen), the admin gate, CORS, the body's size and the client's address, and
 * what fails any of them, or the framing or the route, answered here as
 * a JSON error (http_reply.c). The handlers are the layer below; nothing
 * they call comes back here, and the server is reached again only to
 * count an answer.
 */
#include <strings.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "admins.h"
#include "api.h"
#include "app.h"
#include "clientaddr.h"
#include "conf.h"
#include "cors.h"
#include "dispatch.h"
#include "http.h"
#include "http_reply.h"
#include "log.h"

#define DISPATCH_CORS_MAX_AGE "600"

static api_handler *const handlers[] = {
#define ROUTE(id, pattern, methods, name, handler, kind) \
	[ROUTE_##id] = handler,
#include "routes.def"
#undef ROUTE
};

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

/*
 * The public API a page of another origin calls (cors_origins): joining
 * and following a place, and what comes before or after (routes.def's
 * RK_API).
 */
static int
dispatch_is_api(enum route_id id)
{
	return route_kind(id) == RK_API;
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
		http_send_error(app->api.http, req, 403, "forbidden_origin",
		    "pages of this origin may not call this API "
		    "(cors_origins)");
		return;
	}
	dispatch_cors_headers(app->conf, req, origin);
	evhttp_add_header(out, "Access-Control-Allow-Methods", m->allow);
	evhttp_add_header(out, "Access-Control-Allow-Headers",
	    "Content-Type, Last-Event-ID");
	evhttp_add_header(out, "Access-Control-Max-Age", DISPATCH_CORS_MAX_AGE);
	http_send_empty(app->api.http, req, 204);
}

/* How many Authorization headers the request carries. */
static int
dispatch_authorizations(struct evhttp_request *req)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	int n = 0;

	for (struct evkeyval *h = in->tqh_first; h; h = h->next.tqe_next)
		n += strcasecmp(h->key, "Authorization") == 0;
	return n;
}

/*
 * /v1/check reads one Authorization header at most: evhttp_find_header
 * would take the first of two, and a proxy in front may pass on or check
 * the other. Returns 1 when the request may go on, else answers 400.
 */
static int
dispatch_one_authorization(struct app *app, struct evhttp_request *req)
{
	if (dispatch_authorizations(req) <= 1)
		return 1;
	http_send_error(app->api.http, req, 400, "bad_request", "two "
	    "Authorization headers: send one");
	return 0;
}

static const char *
dispatch_method_name(struct evhttp_request *req)
{
	switch (evhttp_request_get_command(req)) {
	case EVHTTP_REQ_POST: return "POST";
	case EVHTTP_REQ_PUT: return "PUT";
	case EVHTTP_REQ_DELETE: return "DELETE";
	case EVHTTP_REQ_PATCH: return "PATCH";
	default: return "OTHER";
	}
}

/*
 * The admin gate: 404 when the admin API is off, 401 without an admin's
 * token or with two Authorization headers (whichever holds the token: a
 * proxy in front may have checked the other). Returns the
 * admin's name (app->admins') when the request may go on, else NULL; a
 * write is logged with the name.
 */
static const char *
dispatch_admin(struct app *app, struct evhttp_request *req)
{
	const char *h, *who = NULL;
	int n = dispatch_authorizations(req);

	if (app->admins == NULL) {
		http_send_error(app->api.http, req, 404, "not_found", "no such "
		    "path (the admin API is off: no admin_token_file is "
		    "configured)");
		return NULL;
	}
	h = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Authorization");
	if (n <= 1 && (who = admins_find(app->admins, h)) != NULL) {
		if (evhttp_request_get_command(req) != EVHTTP_REQ_GET &&
		    evhttp_request_get_command(req) != EVHTTP_REQ_HEAD)
			log_info("event=admin_write admin=%s method=%s "
			    "path=\"%.120s\"", who, dispatch_method_name(req),
			    http_path(req));
		return who;
	}
	log_info("event=admin_unauthorized path=\"%.80s\" reason=%s",
	    http_path(req), n > 1 ? "two_tokens" : h ? "wrong_token" :
	    "no_token");
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "WWW-Authenticate", "Bearer realm=\"waitroom admin\"");
	http_send_error(app->api.http, req, 401, "unauthorized", "the admin "
	    "API needs one 'Authorization: Bearer <admin token>' with a token "
	    "of admin_token_file");
	return NULL;
}

/* What a load balancer or Prometheus asks of either port. */
static int
dispatch_is_probe(const struct http_in *in)
{
	return (in->rr == ROUTE_OK || in->rr == ROUTE_BAD_METHOD) &&
	    route_kind(in->m.id) == RK_PROBE;
}

/*
 * The console (/admin) is served on admin_listen only, while the admin
 * API is on: never on the public port, even without admin_listen, so a
 * visitor's address never shows an operator's page. Returns 1 when the
 * request may go on, else answers the 404 of an unknown path.
 */
static int
dispatch_console_ok(struct app *app, struct evhttp_request *req,
    const struct http_in *in)
{
	if (in->admin_port && app->admins != NULL)
		return 1;
	http_send_error(app->api.http, req, 404, "not_found", "no such path%s",
	    in->admin_port ? " (the admin API is off: no admin_token_file is "
	    "configured)" : "");
	return 0;
}

/*
 * With admin_listen set, the admin API and the console are served on that
 * port and only there; that port serves nothing else but /healthz,
 * /readyz and /metrics. Elsewhere the answer is the 404 of an unknown
 * path. Returns 1 when the request may go on.
 */
static int
dispatch_port_ok(struct app *app, struct evhttp_request *req,
    const struct http_in *in)
{
	int admin = route_is_admin(in->path);

	if (route_is_console(in->path))
		return dispatch_console_ok(app, req, in);
	if (app->conf->admin_listen == NULL ||
	    (in->admin_port ? admin || dispatch_is_probe(in) : !admin))
		return 1;
	if (in->admin_port)
		http_send_error(app->api.http, req, 404, "not_found", "no such "
		    "path on admin_listen, which serves the admin API, "
		    "the console (/admin), /healthz, /readyz and /metrics");
	else
		http_send_error(app->api.http, req, 404, "not_found", "no such "
		    "path");
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

/* A request line that could not be read, or framing: 400, and close. */
static void
dispatch_unframed(struct http *h, struct evhttp_request *req,
    const char *bad)
{
	/* What follows on the connection cannot be trusted. */
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Connection", "close");
	http_send_error(h, req, 400, "bad_request", "%s", bad);
}

void
dispatch_request(void *arg, struct evhttp_request *req,
    const struct http_in *in)
{
	struct app *app = arg;
	const struct route_match *m = &in->m;
	struct route_match am;
	struct http *h = app->api.http;
	char client[CLIENTADDR_MAX];
	const char *origin;
	size_t body;

	if (in->bad != NULL) {
		dispatch_unframed(h, req, in->bad);
		return;
	}
	if (!dispatch_port_ok(app, req, in))
		return;
	/* An admin route's handler learns who calls it (the trail). */
	if (route_is_admin(in->path)) {
		am = in->m;
		if ((am.admin = dispatch_admin(app, req)) == NULL)
			return;
		m = &am;
	}
	origin = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Origin");
	if (in->rr == ROUTE_BAD_METHOD && m->method == RM_OPTIONS && origin &&
	    dispatch_is_api(m->id)) {
		dispatch_preflight(app, req, m, origin);
		return;
	}
	if (in->rr != ROUTE_OK) {
		dispatch_route_error(h, req, in->rr, m);
		return;
	}
	dispatch_cors(app, req, m, origin);
	body = evbuffer_get_length(evhttp_request_get_input_buffer(req));
	if (body > (size_t)app->conf->max_body) {
		http_send_error(h, req, 413, "body_too_large", "a request body "
		    "may hold at most %ld bytes", app->conf->max_body);
		return;
	}
	if (m->id >= sizeof handlers / sizeof handlers[0] ||
	    handlers[m->id] == NULL) {
		http_send_error(h, req, 404, "not_found", "no such path");
		return;
	}
	if (m->id == ROUTE_CHECK && !dispatch_one_authorization(app, req))
		return;
	dispatch_client(app, req, client);
	handlers[m->id](&app->api, req, m, client);
}
