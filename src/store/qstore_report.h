/*
 * qstore_report.h: the queue store's call for a queue's report
 * (report_read.lua): its minute rows as plain figures, for src/queue's
 * report.c. doc/design.md, "The report", says how the rows are kept.
 */
#ifndef WR_QSTORE_REPORT_H
#define WR_QSTORE_REPORT_H

#include <stddef.h>

#include "qstore.h"
#include "report_row.h"

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
