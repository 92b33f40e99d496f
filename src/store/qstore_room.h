/*
 * qstore_room.h: the queue store's calls for the operator's console
 * (room_report.lua, room_read.lua, room_history.lua), and the plain
 * figures they fill for src/queue's room.c.
 */
#ifndef WR_QSTORE_ROOM_H
#define WR_QSTORE_ROOM_H

#include <stddef.h>

#include "qstore.h"

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

/* One second's sample of a queue (room_report.lua). */
struct room_sample {
	long long t, joined, admitted, waiting, active;
};

struct room_series {
	size_t n;
	struct room_sample *samples;	/* oldest first */
};

/*
 * room_report.lua: this process's report under id; the second's samples
 * of names' queues and their join marks, if nobody wrote them yet.
 */
int qstore_room_report(struct qstore *qs, const char *id, const char *report,
    const char *const *names, size_t n, qs_done_cb *cb, void *arg);

/* room_read.lua: the room, names' queues in order. */
typedef void qs_room_cb(enum result r, const struct room_read *rr,
    void *arg);
int qstore_room_read(struct qstore *qs, const char *const *names, size_t n,
    qs_room_cb *cb, void *arg);

/* room_history.lua: names' samples since from_s (unix s), in order. */
typedef void qs_series_cb(enum result r, const struct room_series *s,
    size_t n, void *arg);
int qstore_room_history(struct qstore *qs, const char *const *names,
    size_t n, long long from_s, qs_series_cb *cb, void *arg);

#endif
