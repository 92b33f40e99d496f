/*
 * qstore_report.h: the queue store's call for a queue's report
 * (report_read.lua): its minute rows as plain figures, for src/queue's
 * report.c. doc/design.md, "The report", says how the rows are kept.
 */
#ifndef WR_QSTORE_REPORT_H
#define WR_QSTORE_REPORT_H

#include <stddef.h>

#include "qstore.h"
#include "script.h"

/* A row's words: scripts.def's HISTORY_ROW, its buckets 16 + 16. */
#define REPORT_BUCKETS 16
#define REPORT_WORDS (HISTORY_ROW_BUCKETS + 2 * REPORT_BUCKETS)
#define REPORT_NONE (-1)	/* error_max_ms's "n": no error that minute */

struct report_row {
	long long v[REPORT_WORDS];	/* by HISTORY_ROW_*; buckets after */
	int has_error_max;
};

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

/*
 * report_read.lua for queue: the rows from from_s to to_s (unix s; -1:
 * report_ttl ago, and now). d is NULL unless r is RESULT_OK; it lives
 * while the callback runs.
 */
typedef void qs_report_cb(enum result r, const struct report_data *d,
    void *arg);
int qstore_report(struct qstore *qs, const char *queue, long long from_s,
    long long to_s, qs_report_cb *cb, void *arg);

#endif
