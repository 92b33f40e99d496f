/*
 * standing.h: where a token stands in its queue as one script run saw it
 * (the token's part and the queue's facts, lua/lib.lua's facts()), and the
 * status object of API.md that it makes. Pure: no I/O.
 */
#ifndef WR_STANDING_H
#define WR_STANDING_H

#include "eta.h"
#include "validate.h"

#define STANDING_REDIRECT_MAX 2049

struct standing {
	char token[VALID_TOKEN_LEN + 1];
	int active;		/* 0: waiting, 1: an active session */
	long long n;		/* waiting: 0-based rank; active: expiry ms;
				 * a queue summary: the active sessions */
	long long waiting;	/* the line's length */
	char redirect[STANDING_REDIRECT_MAX];
	struct queue_facts q;
	int prequeue;		/* 1: awaits the draw; n is the entrants */
	long long opens_at;	/* the queue's opening, unix s; 0: none */
	long long prequeue_from;	/* unix s; 0: any time before */
	long long entrants;	/* pre-queue entrants not yet drawn */
	long long fail_open_until;	/* a queue summary: unix s; 0: not
					 * failing open */
};

/* One waiter's or one session's view, as API.md's status object. */
struct token_status {
	const char *queue;
	const char *token;
	int active;			/* 0: waiting, 1: active */
	long long position;		/* waiting: 1 = next */
	long long waiting;		/* size of the whole line */
	long long eta_seconds;		/* waiting: -1 = null (no estimate) */
	long long eta_low, eta_high;	/* eta_range; with eta_seconds */
	long long active_until;		/* active: unix seconds */
	const char *redirect;		/* active: NULL when none */
	const char *pass;		/* active: NULL when passes are off */
	int prequeue;			/* 1: awaits the draw */
	long long opens_at;		/* prequeue: unix seconds */
	long long entrants;		/* prequeue: entrants so far */
	char ticket[33];		/* prequeue: the public id */
	const char *notice;		/* the queue's notice; NULL: none */
	long poll_after;		/* seconds until worth asking again */
};

/* The most poll_after ever says (doc/api.md, "Apps and clients without
 * streams"). */
#define STANDING_POLL_MAX 30

/*
 * poll_after's rule, owned here: seconds a client should wait before it
 * asks again, for a stream pushing every push seconds, a queue dropping
 * waiters unseen for waiting_ttl seconds (0: not a waiter), a wait of
 * wait_s seconds (-1: no estimate) and a position (1 = next). At least 1,
 * at most STANDING_POLL_MAX and, for a waiter, waiting_ttl / 2.
 */
long standing_poll_after(long push, long waiting_ttl, long long wait_s,
    long long position);

/* The status object's view of s; borrows from s and queue. push is the
 * streams' push_interval, which poll_after starts from. */
void standing_status(const struct standing *s, const char *queue, long push,
    struct token_status *st);

/*
 * The status of token waiting at the 0-based rank, with the queue's facts
 * of s: for a stream, whose batch shares one s among many tokens.
 */
void standing_waiting(const struct standing *s, const char *queue,
    const char *token, long long rank, long push, struct token_status *st);

/* The status of token awaiting the draw among entrants. */
void standing_prequeue(const struct standing *s, const char *queue,
    const char *token, long long entrants, long push,
    struct token_status *st);

#endif
