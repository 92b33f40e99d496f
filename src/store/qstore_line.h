/*
 * qstore_line.h: the queue store's call of line.lua, what one instance
 * needs to rank its own streams of a queue (src/stream/line_view.h).
 */
#ifndef WR_QSTORE_LINE_H
#define WR_QSTORE_LINE_H

#include <stddef.h>

#include "qstore.h"

/* One part of the line (line.lua): drawn places, pre-queue tickets, or
 * the other tickets. */
struct qs_line_part {
	long long low, high;	/* its lowest and highest number; 0: empty */
	long long count;	/* its members */
	int exact;		/* low..high less the bits set are its members */
};

/* line.lua's reply; the bytes are borrowed for the callback's length. */
struct qs_line {
	struct standing s;	/* the queue's part */
	struct qs_line_part d, p, t;
	long long line_from, places_from;	/* each bitmap's first byte */
	const unsigned char *line, *places;
	size_t line_len, places_len;
};

/* Marks sent at most per call. */
#define QSTORE_LINE_MARKS 1000

typedef void qs_line_cb(enum result r, const struct qs_line *ln, void *arg);

/*
 * Read queue's line up to ticket line_to and drawn place places_to (0:
 * none), and mark the n tokens in marks seen if they still wait; -1 (cb
 * not called) when it cannot be sent.
 */
int qstore_line(struct qstore *qs, const char *queue, long long line_to,
    long long places_to, size_t n, const char *const *marks,
    qs_line_cb *cb, void *arg);

#endif
