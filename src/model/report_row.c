/* report_row.c: a minute row's words into figures; see report_row.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_row.h"

int
report_row_parse(const char *text, struct report_row *row)
{
	const char *p = text;
	char *end;

	memset(row, 0, sizeof *row);
	row->has_error_max = 1;
	for (int i = 0; i < REPORT_WORDS; i++) {
		if (i > 0 && *p++ != ' ')
			return -1;
		if (i == ROW_ERROR_MAX_MS && *p == 'n') {
			row->has_error_max = 0;
			row->v[i] = REPORT_NONE;
			p++;
			continue;
		}
		errno = 0;
		row->v[i] = strtoll(p, &end, 10);
		if (end == p || errno != 0)
			return -1;
		p = end;
	}
	return *p == '\0' ? 0 : -1;
}
