/*
 * qstore_draw.h: the queue store's calls of a scheduled queue's draw
 * (draw_*.lua; doc/design.md, "The draw"), like qstore.h's: -1 without a
 * callback when the store is not ready, else the callback runs once;
 * what it is given is borrowed for the call.
 */
#ifndef WR_QSTORE_DRAW_H
#define WR_QSTORE_DRAW_H

#include <stddef.h>

#include "qstore.h"

/* draw_step.lua's answers. */
enum qs_draw_kind { QS_DRAW_BUSY, QS_DRAW_IDLE, QS_DRAW_HASH, QS_DRAW_MORE,
	QS_DRAW_SUM, QS_DRAW_BYTES, QS_DRAW_DRAWN };

struct qs_draw_step {
	enum qs_draw_kind kind;
	const char *seed, *beacon;	/* HASH: hex */
	size_t n;			/* HASH: entrants read, 0: all were */
	const char **tokens;		/* HASH: the n read */
	const char *last;		/* HASH: the last one's score */
	long long base;		/* HASH, MORE: the last place's score */
	const char *bytes;	/* BYTES, MORE: a piece of the order */
	size_t len;
	long long index;		/* MORE: the piece's, -1: none added;
					 * SUM: how many pieces */
	long long entrants, started_ms, now_ms;	/* DRAWN */
};

/* GET /v1/queues/{q}/draw (draw_show.lua). */
struct qs_draw_view {
	const char *state;		/* committed, drawing, drawn */
	const char *commit, *seed, *beacon, *beacon_round, *order_sha256;
	long long opens_at, entrants, drawn_at, ms;
};

/*
 * A step, by the instance owner holding the lock for lock_ms: op "go";
 * "read" (operand: the last score read; chunk entrants at most come
 * back); "place" (members: the n entrants, ticket .. token, in the drawn
 * order); "placed" (every one was handed over); "piece" (operand: a
 * piece's index) or "summed" (operand: the order's hash).
 */
struct qs_draw_op {
	const char *owner;
	long lock_ms;
	int chunk;
	const char *op;
	const char *operand;		/* "" for "go" */
	const char *const *members;
	size_t n;
};
typedef void qs_draw_step_cb(enum result r, const struct qs_draw_step *d,
    void *arg);
int qstore_draw_step(struct qstore *qs, const char *queue,
    const struct qs_draw_op *op, qs_draw_step_cb *cb, void *arg);

typedef void qs_draw_view_cb(enum result r, const struct qs_draw_view *v,
    void *arg);
int qstore_draw_show(struct qstore *qs, const char *queue,
    qs_draw_view_cb *cb, void *arg);

/* The seed and commitment of a schedule, kept when one is already set;
 * RESULT_NO_DRAW when the queue has no schedule. */
int qstore_draw_commit(struct qstore *qs, const char *queue,
    const char *seed_hex, const char *commit_hex, qs_done_cb *cb, void *arg);
/* The announced beacon's value (hex), posted by admin (the trail). */
int qstore_draw_beacon(struct qstore *qs, const char *queue,
    const char *beacon_hex, const char *admin, qs_done_cb *cb, void *arg);

/* Tell every instance the draw is done (PUBLISH "drawn" on the
 * queue's events channel), so streams show places at once. */
int qstore_draw_announce(struct qstore *qs, const char *queue);

/* Piece i of the drawn order (LINDEX); len 0 past the end. */
typedef void qs_draw_bytes_cb(enum result r, const char *bytes, size_t len,
    void *arg);
int qstore_draw_order(struct qstore *qs, const char *queue, long long i,
    qs_draw_bytes_cb *cb, void *arg);

#endif
