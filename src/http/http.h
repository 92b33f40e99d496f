/*
 * http.h: the evhttp server: its limits, its connections, and the stamp
 * of each request from its dispatch to its answer, for the request
 * metrics. A request handler may keep its evhttp_request across a Redis
 * round trip and must answer it exactly once (http_reply.h): libevent 2.1
 * detaches (does not free) an unanswered request whose client went away,
 * and frees it when it is answered.
 *
 * The server is passed down: every function here takes it (NULL: there is
 * none, as after http_free), and the server calls up only the dispatch
 * callback it was given, with the request's framing and route read.
 */
#ifndef WR_HTTP_H
#define WR_HTTP_H

#include <stddef.h>

#include <event2/http.h>

#include "route.h"

struct conf;
struct netlist;

struct http;

/* A request as the server read it, before anything is done with it. */
struct http_in {
	const char *path;	/* NULL: no request line to speak of */
	const char *bad;	/* what is wrong with its framing; NULL: none */
	int admin_port;		/* 1: it came on admin_listen */
	enum route_result rr;	/* route_match's verdict, unless bad */
	struct route_match m;
};

/* What the server does with each request it has read (dispatch.h). */
typedef void http_dispatch_cb(void *arg, struct evhttp_request *req,
    const struct http_in *in);

/* What the server reads, given at construction. */
struct http_setup {
	struct event_base *base;
	struct conf *const *conf;	/* in force: a reload replaces *conf */
	const struct netlist *trusted;	/* trusted_proxies; NULL: none */
	http_dispatch_cb *dispatch;	/* each request read, with arg */
	void *arg;
};

/*
 * Serve on the listening socket fd (see listener.h) and on afd, that of
 * admin_listen (-1: none); it takes both, also when it fails.
 */
struct http *http_new(const struct http_setup *set, int fd, int afd,
    char *err, size_t errlen);
void http_free(struct http *h);
/* Stop accepting connections (shutdown); those open are served on. */
void http_stop_accepting(struct http *h);
/* Connections open, streams included. */
size_t http_connections(const struct http *h);
/*
 * evhttp_connection_set_closecb, for a connection of the server: the
 * server hears every close first (conns.h), then passes it on to cb.
 */
void http_set_closecb(struct http *h, struct evhttp_connection *evcon,
    void (*cb)(struct evhttp_connection *, void *), void *arg);

/*
 * The request's path, without its query string, whose values (a token
 * sent there by mistake) logs must not show; "-" when there is none.
 */
const char *http_path(struct evhttp_request *req);

/*
 * Count an answer with code in the metrics, with the route and arrival
 * stamped on the request at dispatch, and drop the stamp. Every answer
 * does it once: http_send_* and http_send_html/file, a stream and the
 * draw's order when they send their heads, /metrics.
 */
void http_observe(struct http *h, struct evhttp_request *req, int code);

#endif
