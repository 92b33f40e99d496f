/*
 * figures.h: the plain figures the store fills and the model reads: a
 * queue's configuration hash, its figures, a tick's work, the console's
 * room, a report's rows. No functions: the store (qstore.h, qstore_reply.h)
 * fills them and src/model makes answers of them, and neither includes the
 * other.
 */
#ifndef WR_FIGURES_H
#define WR_FIGURES_H

#include <stddef.h>

#include "eta.h"
#include "report_row.h"

#define SHOW_NTOTALS 7		/* joined .. removed, noshows */
#define SHOW_NWAIT 17		/* admin_show's wait: w0..w15, w_sum */

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
	long long wait[SHOW_NWAIT];	/* times in line: 16 buckets, sum ms */
	long long eta_new;		/* last told a new waiter, s; -1: none */
};

/* A tick's work. */
#define NOTICE_CHARS_MAX 280	/* a queue's notice, in code points */
#define NOTICE_BYTES_MAX (NOTICE_CHARS_MAX * 4)

struct tick_figures {
	long long expired, abandoned, admitted, waiting;
	long long full_ms;	/* Redis refused writes at this time; 0: no */
	int pow_bits;		/* the work a join needs now; -1: off */
	long long pow_ttl;	/* seconds a challenge stays valid */
	int draw;		/* enum qs_tick_draw */
	double rate;		/* how fast the line moves, places a second */
	char ver[24];		/* the configuration's version it read */
	char notice[NOTICE_BYTES_MAX + 1];	/* "": none */
	long long fail_open_until;	/* unix s; 0: not failing open */
	long long noshows;	/* sessions this tick found never used */
	long long draw_in;	/* ms until the opening, if before the next
				 * tick and its draw can start then; -1 */
};
/* What a scheduled queue's tick asks for. */
enum qs_tick_draw { TICK_DRAW_NONE, TICK_DRAW_DUE, TICK_DRAW_NO_SEED };

/* The console's figures (qstore_room.h, qstore_reply.h, room.h). */

#define ROOM_WAITS_MAX 256	/* admission runs tick.lua keeps */

/* A process's last report, as it wrote it, and when (Redis ms). */
struct room_instance {
	char *report;		/* JSON text */
	long long seen_ms;
};

/* One admission run's time in line (tick.lua's K_waits). */
struct room_wait {
	long long at_ms;	/* when it ran */
	long long first_ms;	/* the first admitted waited */
	long long last_ms;	/* the last admitted waited */
	long long count;	/* admitted in the run */
};

/* A queue's configuration as the scripts read it (defaults applied). */
struct room_conf {
	char mode[16];
	char state[16];		/* closes_at applied */
	long long batch, interval, max_active, active_ttl;
	long long opens_at, closes_at;	/* unix s; 0: none */
	int held;		/* a scheduled opening's draw holds the line */
};

struct room_queue {
	struct queue_figures f;	/* f.exists 0: no such queue */
	struct room_conf c;
	struct queue_facts eta;	/* what the ETA of a visitor joining now
				 * reads: c's, the sessions inside, their
				 * ends, the band... */
	double rate;		/* how fast the line moves, places a second */
	long long last_tick_ms;
	size_t nwaits;
	struct room_wait waits[ROOM_WAITS_MAX];	/* newest first */
};

struct room_read {
	long long now_ms;	/* Redis TIME */
	size_t ninstances;
	struct room_instance *instances;
	long long used_memory, maxmemory;
	char role[16];
	size_t nqueues;
	struct room_queue *queues;	/* as the names asked for */
};

/* One second's sample of a queue (room_beat.lua). */
struct room_sample {
	long long t, joined, admitted, waiting, active;
};

struct room_series {
	size_t n;
	struct room_sample *samples;	/* oldest first */
};

/* A queue's report (report_read.lua): its minute rows and its draw. */
/* A drawn queue's record (draw_show.lua's, once drawn); strings owned. */
struct report_draw {
	char *seed, *commit, *beacon, *order_sha256;
	long long entrants, drawn_at, ms;
};

struct report_data {
	long long now_ms, from, to;	/* from, to: unix s, as taken */
	int has_base, has_live;
	struct report_row base, live;
	struct report_row *rows;	/* oldest first */
	size_t n;
	int drawn;
	struct report_draw draw;
};

#endif
