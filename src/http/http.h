/*
 * http.h: the evhttp server: limits, routing, and the reply helpers every
 * endpoint uses. A request handler may keep its evhttp_request across a
 * Redis round trip and must answer it exactly once: libevent 2.1 detaches
 * (does not free) an unanswered request whose client went away, and frees
 * it when it is answered.
 */
#ifndef WR_HTTP_H
#define WR_HTTP_H

#include <stddef.h>

#include <event2/http.h>
#include <jansson.h>

#include "app.h"
#include "result.h"

struct http;

/* Serve on the listening socket fd (see listener.h), which it takes. */
struct http *http_new(struct app *app, int fd, char *err, size_t errlen);
void http_free(struct http *h);
/* Stop accepting connections (shutdown); those open are served on. */
void http_stop_accepting(struct http *h);
/* Connections open, streams included. */
size_t http_connections(const struct http *h);
/*
 * evhttp_connection_set_closecb, for a connection of the server: the
 * server hears every close first (conns.h), then passes it on to cb.
 */
void http_set_closecb(struct evhttp_connection *evcon,
    void (*cb)(struct evhttp_connection *, void *), void *arg);

/* Send body (stolen) as JSON with code. */
void http_send_json(struct evhttp_request *req, int code, json_t *body);
/* Send body, JSON text that this frees, with code; NULL answers 500. */
void http_send_text(struct evhttp_request *req, int code, char *body);
/*
 * evhttp_send_reply with the standard reason, written to the socket at
 * once when it takes it all. req may be gone afterwards.
 */
struct evbuffer;
void http_reply(struct evhttp_request *req, int code, struct evbuffer *body);
/*
 * req now waits for Redis, and is answered with http_reply (never as a
 * stream): keep reading its connection meanwhile (see http.c).
 */
void http_await(struct evhttp_request *req);
/* {"error":{"code":ecode,"message":...}} with status code. */
void http_send_error(struct evhttp_request *req, int code, const char *ecode,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The API's answer to r (result.h's table), naming queue. */
void http_send_result(struct evhttp_request *req, const char *queue,
    enum result r);
/* 503 store_unavailable with Retry-After. */
void http_send_unavailable(struct evhttp_request *req);
/* 400 bad_queue_id. */
void http_send_bad_queue(struct evhttp_request *req);
void http_send_empty(struct evhttp_request *req, int code);
/* A page, with the Content-Security-Policy and other headers of pages. */
void http_send_html(struct evhttp_request *req, int code, const char *body,
    size_t len);
/* A file of the page (script, style), cacheable for a while. */
void http_send_file(struct evhttp_request *req, const char *type,
    const char *body, size_t len);

/*
 * Count an answer with code in the metrics, with the route and arrival
 * http.c stamped on the request at dispatch, and drop the stamp. Every
 * answer does it once: http_send_* and http_send_html/file, a stream and
 * the draw's order when they send their heads, /metrics.
 */
void http_observe(struct evhttp_request *req, int code);

#endif
