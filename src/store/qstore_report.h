/*
 * qstore_report.h: the queue store's call for a queue's report
 * (report_read.lua): its minute rows as plain figures, for src/model's
 * report.c. doc/design.md, "The report", says how the rows are kept.
 */
#ifndef WR_QSTORE_REPORT_H
#define WR_QSTORE_REPORT_H

#include <stddef.h>

#include "figures.h"
#include "qstore.h"

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
