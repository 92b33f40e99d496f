/*
 * http.c: the evhttp server with explicit limits (evhttp has none by
 * default): it accepts, keeps its connections (conns.c), reads each
 * request's framing and route, and stamps it with its route and arrival
 * until its answer is counted (http_observe). What is done with a request
 * is dispatch.c's business, which http_new is given; http_reply.c writes
 * the answers. Everything here is reached through the struct http a
 * caller holds: the one exception is the listener's error callback (see
 * listening).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <event2/util.h>

#include "clock.h"
#include "conf.h"
#include "conns.h"
#include "http.h"
#include "log.h"
#include "metrics.h"
#include "stamps.h"
#include "validate.h"

#define HTTP_MAX_HEADERS 8192
#define HTTP_TIMEOUT_S 30

#define HTTP_ACCEPT_PAUSE_MS 250	/* after accept fails (EMFILE...) */

/* One evhttp per port: the request callback knows which port it came on. */
struct http {
	struct http_setup set;
	struct evhttp *evh;		/* listen */
	struct evhttp *admin_evh;	/* admin_listen; NULL: not set */
	struct evhttp_bound_socket *bs, *admin_bs;
	struct event *resume;
	struct conns *conns;	/* deadlines, caps, the descriptor reserve */
	struct stamps *stamps;	/* route and arrival, until the answer */
};

/*
 * The server whose listener this process runs: evhttp gives the listener
 * its own argument, so the listener's error callback (and nothing else)
 * finds the server here.
 */
static struct http *listening;

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
http_stamp(struct http *h, struct evhttp_request *req, int route,
    long long start_us)
{
	if (stamps_put(h->stamps, req, route, start_us) == -1)
		log_warn("event=stamp_failed error=\"out of memory\"");
}

const char *
http_path(struct evhttp_request *req)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;

	return path ? path : "-";
}

void
http_observe(struct http *h, struct evhttp_request *req, int code)
{
	long long start;
	int route;

	if (h != NULL && stamps_take(h->stamps, req, &route, &start) == 0)
		metrics_http(route, code, (double)(clock_mono_us() - start) /
		    1e6);
}

/*
 * Every request evhttp has read whole: its connection hears it, its
 * framing and route are read and stamped, and dispatch takes it on.
 */
static void
http_take(struct http *h, struct evhttp_request *req, int admin_port)
{
	long long start_us = clock_mono_us();
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	struct http_in in;

	conns_request(h->conns, req);
	in.admin_port = admin_port;
	in.path = uri ? evhttp_uri_get_path(uri) : NULL;
	in.bad = in.path ? http_bad_framing(req) : "malformed request line";
	in.rr = in.bad ? ROUTE_NOT_FOUND : route_match(http_method(
	    evhttp_request_get_command(req)), in.path, &in.m);
	http_stamp(h, req, in.bad ? ROUTE_NONE : in.m.id, start_us);
	h->set.dispatch(h->set.arg, req, &in);
}

static void
http_request(struct evhttp_request *req, void *arg)
{
	http_take(arg, req, 0);
}

static void
http_admin_request(struct evhttp_request *req, void *arg)
{
	http_take(arg, req, 1);
}

/* After a pause: both listeners accept again (enabling one twice is no harm). */
static void
http_resume(evutil_socket_t fd, short what, void *arg)
{
	struct http *h = arg;

	if (h->bs)
		evconnlistener_enable(evhttp_bound_socket_get_listener(h->bs));
	if (h->admin_bs)
		evconnlistener_enable(evhttp_bound_socket_get_listener(
		    h->admin_bs));
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
	struct http *h = listening;
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
http_set_closecb(struct http *h, struct evhttp_connection *evcon,
    void (*cb)(struct evhttp_connection *, void *), void *arg)
{
	if (h)
		conns_set_closecb(h->conns, evcon, cb, arg);
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
	if (h->bs != NULL)
		evhttp_del_accept_socket(h->evh, h->bs);
	if (h->admin_bs != NULL)
		evhttp_del_accept_socket(h->admin_evh, h->admin_bs);
	h->bs = h->admin_bs = NULL;
}

/*
 * evhttp refuses a head or body over its limits by itself: conns.c puts
 * its answer as JSON, and sets max_body on each connection it watches
 * before each request (a reload's applies); this one is for the others.
 */
static void
http_limits(struct evhttp *evh, long max_body)
{
	evhttp_set_max_headers_size(evh, HTTP_MAX_HEADERS);
	evhttp_set_max_body_size(evh, max_body);
	evhttp_set_timeout(evh, HTTP_TIMEOUT_S);
	/* Every method reaches dispatch.c, which answers 405 in JSON. */
	evhttp_set_allowed_methods(evh, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
	    EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
	    EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
	    EVHTTP_REQ_PATCH);
	evhttp_set_default_content_type(evh, "application/json");
}

/*
 * Serve evh on fd (which it takes), each request to cb; *bs gets the
 * bound socket. -1 with a message in err.
 */
static int
http_serve_on(struct http *h, struct evhttp *evh, int fd,
    void (*cb)(struct evhttp_request *, void *),
    struct evhttp_bound_socket **bs, const char *addr, char *err,
    size_t errlen)
{
	http_limits(evh, (*h->set.conf)->max_body);
	evhttp_set_gencb(evh, cb, h);
	if ((*bs = evhttp_accept_socket_with_handle(evh, fd)) == NULL) {
		snprintf(err, errlen, "cannot serve on %s", addr);
		close(fd);
		return -1;
	}
	evconnlistener_set_error_cb(evhttp_bound_socket_get_listener(*bs),
	    http_accept_error);
	return 0;
}

/* admin_listen's evhttp on afd, watched by the same conns. */
static int
http_admin_new(struct http *h, int afd, char *err, size_t errlen)
{
	if ((h->admin_evh = evhttp_new(h->set.base)) == NULL) {
		snprintf(err, errlen, "out of memory");
		close(afd);
		return -1;
	}
	conns_watch_also(h->conns, h->admin_evh);
	return http_serve_on(h, h->admin_evh, afd, http_admin_request,
	    &h->admin_bs, (*h->set.conf)->admin_listen, err, errlen);
}

struct http *
http_new(const struct http_setup *set, int fd, int afd, char *err,
    size_t errlen)
{
	struct http *h = calloc(1, sizeof *h);

	if (h == NULL || (h->set = *set, h->evh = evhttp_new(set->base)) ==
	    NULL || (h->resume = evtimer_new(set->base, http_resume, h)) ==
	    NULL || (h->conns = conns_new(set->base, set->conf, set->trusted,
	    h->evh)) == NULL ||
	    (h->stamps = stamps_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		goto fail;
	}
	if (http_serve_on(h, h->evh, fd, http_request, &h->bs,
	    (*set->conf)->listen, err, errlen) == -1) {
		fd = -1;
		goto fail;
	}
	listening = h;
	if (afd == -1 || http_admin_new(h, afd, err, errlen) == 0)
		return h;
	afd = -1;
fail:
	if (afd != -1)
		close(afd);
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
	if (h->admin_evh)
		evhttp_free(h->admin_evh);
	conns_free(h->conns);	/* after evhttp_free closed them */
	if (h->stamps && stamps_count(h->stamps) > 0)
		log_info("event=unanswered requests=%lu",
		    stamps_count(h->stamps));	/* evhttp_free freed them */
	stamps_free(h->stamps);
	if (h->resume)
		event_free(h->resume);
	if (listening == h)
		listening = NULL;
	free(h);
}
