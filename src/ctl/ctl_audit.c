/*
 * ctl_audit.c: waitroomctl audit's table; see ctl_audit.h. A value the
 * server wrote as null (a key that was absent) prints as "(none)".
 */
#include <string.h>
#include <time.h>

#include "ctl_audit.h"

#define AUDIT_CELL 64		/* time, admin, queue, action */

static const char *const heads[] = { "TIME", "ADMIN", "QUEUE", "ACTION",
    "CHANGES" };

/* A scalar of an entry as text into out. */
static void
audit_value(json_t *v, char *out, size_t size)
{
	if (json_is_string(v))
		snprintf(out, size, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(out, size, "%lld", (long long)json_integer_value(v));
	else if (json_is_null(v) || v == NULL)
		snprintf(out, size, "(none)");
	else
		snprintf(out, size, "?");
}

/* "key: before -> after, ...; key: value, ..." of e into f. */
static void
audit_changes(FILE *f, json_t *e)
{
	char before[256], after[256];
	const char *key, *sep = "";
	json_t *v;

	json_object_foreach(json_object_get(e, "changes"), key, v) {
		audit_value(json_array_get(v, 0), before, sizeof before);
		audit_value(json_array_get(v, 1), after, sizeof after);
		fprintf(f, "%s%s: %s -> %s", sep, key, before, after);
		sep = ", ";
	}
	json_object_foreach(json_object_get(e, "detail"), key, v) {
		audit_value(v, after, sizeof after);
		fprintf(f, "%s%s: %s", sep, key, after);
		sep = ", ";
	}
}

/* The first four cells of e. */
static void
audit_cells(json_t *e, char cells[4][AUDIT_CELL])
{
	static const char *const keys[] = { "admin", "queue", "action" };
	time_t t = (time_t)(json_integer_value(json_object_get(e, "at")) /
	    1000);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(cells[0], AUDIT_CELL, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(cells[0], AUDIT_CELL, "?");
	for (int i = 0; i < 3; i++)
		audit_value(json_object_get(e, keys[i]), cells[1 + i],
		    AUDIT_CELL);
}

void
ctl_audit_print(FILE *f, json_t *entries)
{
	size_t n = json_array_size(entries), w[4];
	char cells[4][AUDIT_CELL];

	if (n == 0) {
		fprintf(f, "no admin writes recorded\n");
		return;
	}
	for (int c = 0; c < 4; c++)
		w[c] = strlen(heads[c]);
	for (size_t i = 0; i < n; i++) {
		audit_cells(json_array_get(entries, i), cells);
		for (int c = 0; c < 4; c++)
			if (strlen(cells[c]) > w[c])
				w[c] = strlen(cells[c]);
	}
	for (int c = 0; c < 4; c++)
		fprintf(f, "%-*s  ", (int)w[c], heads[c]);
	fprintf(f, "%s\n", heads[4]);
	for (size_t i = 0; i < n; i++) {
		audit_cells(json_array_get(entries, i), cells);
		for (int c = 0; c < 4; c++)
			fprintf(f, "%-*s  ", (int)w[c], cells[c]);
		audit_changes(f, json_array_get(entries, i));
		fputc('\n', f);
	}
}
