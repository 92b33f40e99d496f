/*
 * http_reply.h: a request's answer, written out: JSON and its errors,
 * pages and their files, each counted once in the metrics of the server
 * h that took the request in (http_observe; h may be NULL). req may be
 * gone after any of them.
 */
#ifndef WR_HTTP_REPLY_H
#define WR_HTTP_REPLY_H

#include <stddef.h>

#include <event2/http.h>
#include <jansson.h>

#include "http.h"
#include "result.h"

/* Send body (stolen) as JSON with code. */
void http_send_json(struct http *h, struct evhttp_request *req, int code,
    json_t *body);
/* Send body, JSON text that this frees, with code; NULL answers 500. */
void http_send_text(struct http *h, struct evhttp_request *req, int code,
    char *body);
/* {"error":{"code":ecode,"message":...}} with status code. */
void http_send_error(struct http *h, struct evhttp_request *req, int code,
    const char *ecode, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The API's answer to r (result.h's table), naming queue. */
void http_send_result(struct http *h, struct evhttp_request *req,
    const char *queue, enum result r);
/* 503 store_unavailable with Retry-After. */
void http_send_unavailable(struct http *h, struct evhttp_request *req);
/* 400 bad_queue_id. */
void http_send_bad_queue(struct http *h, struct evhttp_request *req);
void http_send_empty(struct http *h, struct evhttp_request *req, int code);
/* A page, with the Content-Security-Policy and other headers of pages. */
void http_send_html(struct http *h, struct evhttp_request *req, int code,
    const char *body, size_t len);
/*
 * The console's page or one of its files: its own policy (it calls only
 * this server, posts no form anywhere), never framed, never cached.
 */
void http_send_console(struct http *h, struct evhttp_request *req,
    const char *type, const char *body, size_t len);
/* A report as CSV (text/csv), 200, never cached. */
void http_send_csv(struct http *h, struct evhttp_request *req,
    const char *body, size_t len);
/* A file of the page (script, style), cacheable for a while. */
void http_send_file(struct http *h, struct evhttp_request *req,
    const char *type, const char *body, size_t len);

/*
 * evhttp_send_reply with the standard reason, written to the socket at
 * once when it takes it all; not counted (the caller did http_observe).
 */
struct evbuffer;
void http_reply(struct evhttp_request *req, int code, struct evbuffer *body);
/*
 * req now waits for Redis, and is answered with http_reply (never as a
 * stream): keep reading its connection meanwhile (see http_reply.c).
 */
void http_await(struct evhttp_request *req);

#endif
