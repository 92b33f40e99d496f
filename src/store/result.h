/*
 * result.h: what became of a call to the queue store, and the one table
 * that says how the API and the waiting page answer each outcome: HTTP
 * status, error code, message, Retry-After and the page's state. Pure.
 */
#ifndef WR_RESULT_H
#define WR_RESULT_H

#include <stddef.h>

enum result {
	RESULT_OK,		/* done as asked */
	RESULT_NEW,		/* a join took a new place; a PUT created */
	RESULT_EXISTING,	/* a join found the user's place */
	RESULT_NO_QUEUE,	/* no such queue */
	RESULT_GONE,		/* the token left, expired or never was */
	RESULT_CLOSED,		/* the queue takes no joins now */
	RESULT_FULL,		/* the line is at max_waiting */
	RESULT_USED,		/* the join's use key is used up (join.lua) */
	RESULT_INVITE_REQUIRED,	/* an invite-only queue, no invitation */
	RESULT_NOT_OPEN,	/* a join before the pre-queue opens */
	RESULT_DRAW_DONE,	/* the draw is done: its record is fixed */
	RESULT_DRAW_STARTED,	/* the opening passed: opens_at and
				 * beacon_round are fixed */
	RESULT_DRAW_ENTRANTS,	/* opens_at cleared with pre-queue entrants */
	RESULT_BAD_SCHEDULE,	/* closes_at before opens_at, or
				 * prequeue_from after it */
	RESULT_NO_DRAW,		/* the queue has no scheduled draw */
	RESULT_DRAW_PENDING,	/* no admission before the opening's draw */
	RESULT_NOT_DUE,		/* a beacon before the opening, or to a
				 * queue that announced none */
	RESULT_NOT_FAILING_OPEN,	/* DELETE fail-open when it is not on */
	RESULT_UNAVAILABLE,	/* Redis not reachable, not answering, busy */
	RESULT_ERROR		/* an error or a reply of the wrong shape */
};

struct result_answer {
	int status;		/* HTTP status of the API and the page */
	const char *code;	/* the API's error code; NULL for a success */
	const char *message;	/* printf format; %s is the queue's name */
	const char *retry_after;	/* NULL: no Retry-After */
	const char *page_state;	/* data-state of the waiting page */
};

/* The answer to r (never NULL). */
const struct result_answer *result_answer(enum result r);

/* a's message with queue in place of its %s, into buf; returns buf. */
char *result_message(const struct result_answer *a, const char *queue,
    char *buf, size_t size);

/* A script's result word (len bytes): "ok", "new", "no_queue"...;
 * RESULT_ERROR for a word no script says. */
enum result result_parse(const char *word, size_t len);

#endif
