/*
 * refusals.h: the joins this process refused at a guard, by reason and
 * queue, and the invitations its joins used, for the console's beat
 * (api_console_feed.c). Counters since the process started; the feed
 * makes rates of them. The table holds REFUSALS_QUEUES queues; later ones count in
 * the totals only. It also keeps the ETA this process last told a new
 * waiter of each queue.
 */
#ifndef WR_REFUSALS_H
#define WR_REFUSALS_H

#include <stddef.h>

#define REFUSALS_QUEUES 256

enum refusal_reason {
	REFUSED_WORK,		/* the proof of work: challenge_* */
	REFUSED_INVITATION,	/* invite_invalid, invite_required, _used */
	REFUSED_RATE,		/* join_rate_per_ip: rate_limited */
	REFUSED_ORIGIN,		/* forbidden_origin */
	REFUSED_NREASONS
};

struct refusals_queue {
	char name[65];			/* CONF_QUEUE_ID_MAX + 1 */
	unsigned long long refused[REFUSED_NREASONS];
	unsigned long long invites_used;
	long long eta_told;		/* the last new waiter's ETA, s; -1: none */
	long long eta_position;		/* its position then (1 = next) */
	long long eta_told_ms;		/* when (Redis's clock at its join) */
};

/* The reason an error code of a join names; -1 when it is no guard's. */
int refusals_reason_of(const char *code);
/* The reason's name in the report: "work", "invitation"... */
const char *refusals_reason_name(enum refusal_reason r);

/* A join of queue (NULL: in the totals only) refused with code (a
 * guard's or not). */
void refusals_count(const char *queue, const char *code);
/* A join of queue took its place with an invitation. */
void refusals_invite_used(const char *queue);

/* A new waiter of queue was told eta seconds at position, at_ms (Redis's
 * clock at its join: the report's join marks, room_beat.lua, carry the
 * last one: doc/design.md, "The report"). */
void refusals_eta_told(const char *queue, long long eta, long long position,
    long long at_ms);

/* The queues counted so far, and the totals over every queue. */
const struct refusals_queue *refusals_queues(size_t *n);
const struct refusals_queue *refusals_total(void);

#endif
