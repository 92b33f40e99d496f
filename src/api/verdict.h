/*
 * verdict.h: what a guard says of a request: go on, or the error it is to
 * be answered with. A guard never answers: it fills a verdict and
 * returns, and the handler that asked sends it (api_send_verdict), so a
 * handler reads top down, one guard after another, to one reply. Pure.
 *
 * A zeroed verdict (= { 0 }) lets the request go on; the first refusal
 * is the one that counts, as a handler stops at it.
 */
#ifndef WR_VERDICT_H
#define WR_VERDICT_H

#include <jansson.h>

#include "result.h"

#define VERDICT_MESSAGE_MAX 512

struct verdict {
	int status;		/* 0: go on; else the HTTP status */
	const char *code;	/* the API's error code; NULL: no body */
	const char *retry_after;	/* NULL: no Retry-After */
	json_t *more;		/* members after "message" in "error" */
	char retry[24];		/* retry_after's text, when made here */
	char message[VERDICT_MESSAGE_MAX];
};

/* Refuse with status and code, the message as printf makes it: -1. */
int verdict_refuse(struct verdict *v, int status, const char *code,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Refuse as result.h's table answers r, naming queue (NULL: ""): -1. */
int verdict_result(struct verdict *v, enum result r, const char *queue);
/* Say when to try again, in seconds (Retry-After). */
void verdict_retry_after(struct verdict *v, long seconds);
/* Add a member to the error object after the message (value stolen). */
void verdict_add(struct verdict *v, const char *name, json_t *value);

/*
 * The answer's body, {"error":{"code":...,"message":...,...}}, as the
 * compact ASCII text of every reply; malloc'd, NULL when out of memory
 * (or when the verdict has no code).
 */
char *verdict_body(const struct verdict *v);
/* Release what v holds; it lets the request go on again. */
void verdict_clear(struct verdict *v);

#endif
