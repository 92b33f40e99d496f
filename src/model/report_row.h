/*
 * report_row.h: one minute row of a queue's history as report_read.lua
 * answers it (scripts.def's HISTORY_ROW, then the buckets), parsed into
 * plain figures. Pure; for qstore_report.c and report.c.
 */
#ifndef WR_REPORT_ROW_H
#define WR_REPORT_ROW_H

/* A row's words (report_words.def: scripts.def's HISTORY_ROW), from 0;
 * ROW_BUCKETS is where the buckets start, 16 + 16. */
enum report_word {
#define WORD(NAME, name) ROW_##NAME,
#include "report_words.def"
#undef WORD
	ROW_BUCKETS
};

#define REPORT_BUCKETS 16
#define REPORT_WORDS (ROW_BUCKETS + 2 * REPORT_BUCKETS)
#define REPORT_NONE (-1)	/* error_max_ms's "n": no error that minute */

struct report_row {
	long long v[REPORT_WORDS];	/* by ROW_*; buckets after */
	int has_error_max;
};

/* A HISTORY_ROW's words (report_read.lua) into row; -1 when they are not
 * shaped as scripts.def says. */
int report_row_parse(const char *text, struct report_row *row);

#endif
