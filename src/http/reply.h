/*
 * reply.h: the JSON bodies of API.md, built without I/O: errors and the
 * status object. http_reply.c sends them.
 */
#ifndef WR_REPLY_H
#define WR_REPLY_H

#include <jansson.h>

#include "standing.h"

/* {"error":{"code":..,"message":..}} as a malloc'd string. */
char *reply_error_body(const char *code, const char *message);
/*
 * The error for an answer libevent gives by itself, before a request is
 * dispatched (conns.c): *status 413, a body over max_body; 417, an Expect
 * it does not know; any other, a request it could not read, which is
 * answered 400 (*status is set so). malloc'd.
 */
char *reply_refusal_body(int *status, long max_body);
/* {"queue":..,"token":..,"reason":..}, the data of a `gone` event; malloc'd. */
char *reply_gone_body(const char *queue, const char *token,
    const char *reason);
/* The status object as compact, ASCII-only JSON text; malloc'd. */
char *reply_status_text(const struct token_status *st);
/* json_dumps with the flags every reply uses; malloc'd. */
char *reply_dump(const json_t *j);
/* The same, and j (stolen; may be NULL, as a failed json_pack's) is
 * released; NULL when j is NULL or out of memory. */
char *reply_dump_take(json_t *j);

#endif
