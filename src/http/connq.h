/*
 * connq.h: the connections of one process as the request deadlines see
 * them, oldest first, the arithmetic of the descriptor reserve, and the
 * bytes conns.c watches (a head's end, an answer's status line). Pure:
 * times are milliseconds of a monotonic clock, given by the caller, so the
 * unit tests drive it without a socket (conns.c does the I/O).
 *
 * A connection is in one state at a time:
 *   CONNQ_IDLE  kept alive between requests: no byte of the next one yet
 *   CONNQ_HEAD  a request's head is coming, since accept, or since the
 *               first byte of the next request on a kept-alive connection
 *   CONNQ_BODY  the head is in, the body is coming
 *   CONNQ_BUSY  the request is whole: being answered, or a stream
 * IDLE, HEAD and BODY each have a list in the order connections entered
 * the state. Every connection of a list has the same timeout, so the first
 * of a list is always the first to expire, and the oldest connection
 * without a head is the older of the first of IDLE and of HEAD.
 */
#ifndef WR_CONNQ_H
#define WR_CONNQ_H

#include <stddef.h>
#include <sys/queue.h>

enum connq_state { CONNQ_IDLE, CONNQ_HEAD, CONNQ_BODY, CONNQ_BUSY };

struct connq_entry {
	TAILQ_ENTRY(connq_entry) link;	/* in its state's list, but BUSY */
	int state;			/* enum connq_state */
	long long since;		/* ms: when it entered the state */
	int eol;			/* the head's end so far: connq_scan */
};

TAILQ_HEAD(connq_list, connq_entry);

struct connq {
	struct connq_list lists[CONNQ_BUSY];	/* IDLE, HEAD, BODY */
	size_t count;				/* every entry, BUSY too */
};

void connq_init(struct connq *q);
/* A new connection, its head coming from now on. */
void connq_add(struct connq *q, struct connq_entry *e, long long now);
/* e enters state (again) at now: to the end of that state's list. */
void connq_set(struct connq *q, struct connq_entry *e, int state,
    long long now);
void connq_remove(struct connq *q, struct connq_entry *e);

/* The first of state's list when its timeout_ms is over at now; NULL. */
struct connq_entry *connq_expired(const struct connq *q, int state,
    long long timeout_ms, long long now);
/* Milliseconds until the first of state's list expires (0 if it has);
 * -1 when the list is empty. */
long long connq_due_in(const struct connq *q, int state,
    long long timeout_ms, long long now);
/* The oldest connection with no request head yet (IDLE or HEAD); NULL. */
struct connq_entry *connq_victim(const struct connq *q);

/*
 * The next len bytes of e's request head: 1 when they end it (an empty
 * line, "\n" or "\r\n", after a line end, as libevent reads lines), 0
 * when more must come. Entering HEAD starts the scan afresh.
 */
int connq_scan(struct connq_entry *e, const char *p, size_t len);

/*
 * The status of an answer that starts with the len bytes at line
 * ("HTTP/1.1 413 "..., 13 bytes are enough); -1 when they are not the
 * start of an HTTP/1.x status line.
 */
int connq_status(const char *line, size_t len);

/*
 * Descriptors that may be open before the oldest connections without a
 * head are closed: limit less reserve_pct percent of it (at least one
 * descriptor); limit itself when reserve_pct is 0 (no reserve).
 */
long connq_high_water(long limit, long reserve_pct);

#endif
