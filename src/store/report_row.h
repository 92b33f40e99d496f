/*
 * report_row.h: one minute row of a queue's history as report_read.lua
 * answers it (scripts.def's HISTORY_ROW, then the buckets), parsed into
 * plain figures. Pure; for qstore_report.c and src/queue's report.c.
 */
#ifndef WR_REPORT_ROW_H
#define WR_REPORT_ROW_H

#include "script.h"

/* A row's words: scripts.def's HISTORY_ROW, its buckets 16 + 16. */
#define REPORT_BUCKETS 16
#define REPORT_WORDS (HISTORY_ROW_BUCKETS + 2 * REPORT_BUCKETS)
#define REPORT_NONE (-1)	/* error_max_ms's "n": no error that minute */

struct report_row {
	long long v[REPORT_WORDS];	/* by HISTORY_ROW_*; buckets after */
	int has_error_max;
};

/* A HISTORY_ROW's words (report_read.lua) into row; -1 when they are not
 * shaped as scripts.def says. */
int report_row_parse(const char *text, struct report_row *row);

#endif
