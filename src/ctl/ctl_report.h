/*
 * ctl_report.h: waitroomctl report's text, from GET
 * /v1/admin/queues/{q}/report (doc/api.md, "The report"). Pure: no I/O
 * but f.
 */
#ifndef WR_CTL_REPORT_H
#define WR_CTL_REPORT_H

#include <stdio.h>

#include <jansson.h>

/* The report: its range (UTC), totals, the histograms' quantiles, the
 * draw, then a line per minute. */
void ctl_report_print(FILE *f, json_t *report);

#endif
