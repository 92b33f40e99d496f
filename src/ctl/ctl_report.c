/*
 * ctl_report.c: waitroomctl report's text; see ctl_report.h. A figure the
 * server left out or sent as null prints as "-".
 */
#include <string.h>
#include <time.h>

#include "ctl_report.h"

/* The minutes' columns: a heading and the minute's field. */
static const struct {
	const char *head, *key;
} cols[] = {
	{ "JOINED", "joined" }, { "ADMITTED", "admitted" },
	{ "ABANDONED", "abandoned" }, { "LEFT", "left" },
	{ "EXPIRED", "expired" }, { "KICKED", "kicked" },
	{ "NOSHOWS", "noshows" }, { "REFUSED", NULL },
	{ "WAITING", "peak_waiting" }, { "ACTIVE", "peak_active" },
	{ "STREAMS", "peak_streams" },
};
#define NCOLS (sizeof cols / sizeof cols[0])

static const char *const refused[] = { "refused_work",
    "refused_invitation", "refused_rate", "refused_origin" };

static long long
num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* Unix seconds as RFC 3339 in UTC, to the minute or the second. */
static void
utc(long long t, int seconds, char *out, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL || strftime(out, size, seconds ?
	    "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%dT%H:%MZ", &tm) == 0)
		snprintf(out, size, "?");
}

/* A number of seconds, or "-" for null, after sep. */
static void
secs(FILE *f, const char *sep, const char *name, json_t *v)
{
	if (json_is_number(v))
		fprintf(f, "%s%s %.1f", sep, name, json_number_value(v));
	else
		fprintf(f, "%s%s -", sep, name);
}

static void
histogram(FILE *f, const char *title, json_t *h)
{
	fprintf(f, "%s:", title);
	secs(f, " ", "p50", json_object_get(h, "p50"));
	secs(f, ", ", "p90", json_object_get(h, "p90"));
	secs(f, ", ", "p99", json_object_get(h, "p99"));
	secs(f, ", ", "max", json_object_get(h, "max"));
	fprintf(f, " (%lld counted)\n", num(h, "count"));
}

static long long
refusals(json_t *o)
{
	long long n = 0;

	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		n += num(o, refused[i]);
	return n;
}

static void
totals(FILE *f, json_t *t)
{
	fprintf(f, "joined %lld, admitted %lld, abandoned %lld, left %lld, "
	    "expired %lld, kicked %lld, no-shows %lld\n", num(t, "joined"),
	    num(t, "admitted"), num(t, "abandoned"), num(t, "left"),
	    num(t, "expired"), num(t, "kicked"), num(t, "noshows"));
	fprintf(f, "refused: work %lld, invitation %lld, rate %lld, origin "
	    "%lld\n", num(t, refused[0]), num(t, refused[1]),
	    num(t, refused[2]), num(t, refused[3]));
	fprintf(f, "peaks: waiting %lld, active %lld, streams %lld, "
	    "pre-queue %lld\n", num(t, "peak_waiting"), num(t, "peak_active"),
	    num(t, "peak_streams"), num(t, "peak_prequeue"));
}

static void
minutes(FILE *f, json_t *ms)
{
	char t[32];
	json_t *m;
	size_t i;

	if (json_array_size(ms) == 0) {
		fprintf(f, "no minute in this range\n");
		return;
	}
	fprintf(f, "%-17s", "MINUTE (UTC)");
	for (size_t c = 0; c < NCOLS; c++)
		fprintf(f, "  %s", cols[c].head);
	fprintf(f, "  WAIT_MAX\n");
	json_array_foreach(ms, i, m) {
		utc(num(m, "t"), 0, t, sizeof t);
		fprintf(f, "%-17s", t);
		for (size_t c = 0; c < NCOLS; c++)
			fprintf(f, "  %*lld", (int)strlen(cols[c].head),
			    cols[c].key ? num(m, cols[c].key) : refusals(m));
		if (json_is_number(json_object_get(m, "wait_max")))
			fprintf(f, "  %8.1f", json_number_value(
			    json_object_get(m, "wait_max")));
		else
			fprintf(f, "  %8s", "-");
		fprintf(f, "%s\n", json_is_true(json_object_get(m, "live")) ?
		    "  (so far)" : "");
	}
}

void
ctl_report_print(FILE *f, json_t *r)
{
	json_t *d = json_object_get(r, "draw");
	char from[32], to[32];

	utc(num(r, "from"), 1, from, sizeof from);
	utc(num(r, "to"), 1, to, sizeof to);
	fprintf(f, "report of %s, %s to %s\n", json_string_value(
	    json_object_get(r, "queue")) ? json_string_value(json_object_get(r,
	    "queue")) : "?", from, to);
	totals(f, json_object_get(r, "totals"));
	histogram(f, "time in line (s)", json_object_get(r, "wait"));
	histogram(f, "ETA error (s, told - waited)", json_object_get(r,
	    "eta_error"));
	if (json_is_object(d))
		fprintf(f, "draw: %lld entrants, order_sha256 %s\n",
		    num(d, "entrants"), json_string_value(json_object_get(d,
		    "order_sha256")) ? json_string_value(json_object_get(d,
		    "order_sha256")) : "?");
	fputc('\n', f);
	minutes(f, json_object_get(r, "minutes"));
}
