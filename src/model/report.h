/*
 * report.h: a queue's report (doc/api.md, "The report"), pure: what its
 * minute rows (qstore_report.h) make: per-minute figures as differences
 * of consecutive rows, totals, and the histograms' quantiles. No I/O.
 */
#ifndef WR_REPORT_H
#define WR_REPORT_H

#include <jansson.h>

#include "figures.h"

enum report_hist { REPORT_WAIT, REPORT_ERROR };

/* Bucket i's upper bound (s) of histogram h; i = REPORT_BUCKETS - 1 is
 * the one above the last bound (+Inf). lib.lua's count_waits has the
 * same. */
double report_bound(enum report_hist h, int i);

/*
 * The q-quantile (0 < q < 1, s) of counts (REPORT_BUCKETS of them), as
 * Prometheus's histogram_quantile reads it: linear within the bucket,
 * the last finite bound for the bucket above it. 0 in *out and -1 when
 * the counts are all 0.
 */
int report_quantile(enum report_hist h, const long long *counts, double q,
    double *out);

/* A JSON report holds this many entries of minutes at most: a longer
 * range is shown in steps of several minutes (its "step", s). */
#define REPORT_JSON_MINUTES 1440

/* The report of queue as JSON (doc/api.md); a new reference, NULL when
 * out of memory. */
json_t *report_json(const struct report_data *d, const char *queue);

/* The same as CSV: a header line and a line per minute; malloc'd, NULL
 * when out of memory. */
char *report_csv(const struct report_data *d);

#endif
