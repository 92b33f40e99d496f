/*
 * qstore_types.h: the plain figures a queue store call hands its caller
 * (qstore.h) and the reply readers fill (qstore_reply.h): a queue's
 * configuration hash, its figures, a tick's work. No functions, so both
 * sides include it without including each other.
 */
#ifndef WR_QSTORE_TYPES_H
#define WR_QSTORE_TYPES_H

#include <stddef.h>

#define SHOW_NTOTALS 6		/* joined .. removed */

/* A queue's configuration hash as pairs, borrowed from a reply. */
#define QCONFIG_MAX 64
struct qconfig {
	size_t n;
	const char *key[QCONFIG_MAX];
	const char *value[QCONFIG_MAX];
	size_t len[QCONFIG_MAX];
};

/* A schedule out of order, as admin_put.lua found it (bad_schedule). */
struct qschedule_fault {
	const char *field;	/* "prequeue_from" or "closes_at" */
	long long value;	/* its value, unix seconds */
	long long opens_at;	/* what it was checked against */
};

/* What config_init.lua did with a file's queue. */
#define QSEEDED_KEPT_MAX 2
struct qseeded {
	int written;		/* the hash was written from the file */
	const char *why;	/* the hash kept some of its values: the draw's
				 * result word; "" when it kept none */
	const char *kept[QSEEDED_KEPT_MAX];	/* which keys */
	size_t nkept;
};

/* A queue's configuration and live figures (admin API, /metrics). */
struct queue_figures {
	int exists;
	struct qconfig config;
	long long waiting;
	long long active;
	long long totals[SHOW_NTOTALS];
	long long last_minute;		/* admitted in the last minute */
	long long prequeue;		/* entrants awaiting the draw */
	long long draw_ms;		/* the draw took; 0: none yet */
};

/* A tick's work. */
struct tick_figures {
	long long expired, abandoned, admitted, waiting;
	long long full_ms;	/* Redis refused writes at this time; 0: no */
	int pow_bits;		/* the work a join needs now; -1: off */
	long long pow_ttl;	/* seconds a challenge stays valid */
	int draw;		/* enum qs_tick_draw */
	double rate;		/* how fast the line moves, places a second */
	char ver[24];		/* the configuration's version it read */
};
/* What a scheduled queue's tick asks for. */
enum qs_tick_draw { TICK_DRAW_NONE, TICK_DRAW_DUE, TICK_DRAW_NO_SEED };

#endif
