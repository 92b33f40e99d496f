/*
 * report.c: a queue's report from its minute rows; see report.h.
 *
 * A row holds the stats hash's cumulative counters and histogram buckets
 * as they stood at the end of its minute (room_beat.lua writes it in the
 * first second of the next; the live row is the minute in progress), so a
 * minute's figures are its row less the row before (the base for the
 * first), and the totals the last row less the base. Peaks and maxima are
 * the minute's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A minute's counters: their JSON and CSV names, by HISTORY_ROW field. */
static const struct {
	int field;
	const char *name;
} counters[] = {
	{ ROW_JOINED, "joined" },
	{ ROW_ADMITTED, "admitted" },
	{ ROW_ABANDONED, "abandoned" },
	{ ROW_LEFT, "left" },
	{ ROW_EXPIRED, "expired" },
	{ ROW_REMOVED, "kicked" },
	{ ROW_NOSHOWS, "noshows" },
	{ ROW_REFUSED_WORK, "refused_work" },
	{ ROW_REFUSED_INVITE, "refused_invitation" },
	{ ROW_REFUSED_RATE, "refused_rate" },
	{ ROW_REFUSED_ORIGIN, "refused_origin" },
};
#define NCOUNTERS (sizeof counters / sizeof counters[0])

static const struct {
	int field;
	const char *name;
} peaks[] = {
	{ ROW_PEAK_WAITING, "peak_waiting" },
	{ ROW_PEAK_ACTIVE, "peak_active" },
	{ ROW_PEAK_STREAMS, "peak_streams" },
	{ ROW_PEAK_PREQUEUE, "peak_prequeue" },
};
#define NPEAKS (sizeof peaks / sizeof peaks[0])

static const double wait_le[REPORT_BUCKETS - 1] = { 1, 2, 4, 8, 16, 32, 64,
	128, 256, 512, 1024, 2048, 4096, 8192, 16384 };
static const double error_le[REPORT_BUCKETS - 1] = { -4096, -1024, -256,
	-64, -16, -4, -1, 0, 1, 4, 16, 64, 256, 1024, 4096 };

double
report_bound(enum report_hist h, int i)
{
	const double *le = h == REPORT_WAIT ? wait_le : error_le;

	return i < REPORT_BUCKETS - 1 ? le[i] : le[REPORT_BUCKETS - 2];
}

int
report_quantile(enum report_hist h, const long long *counts, double q,
    double *out)
{
	long long total = 0, below = 0;
	double rank, lo;

	*out = 0;
	for (int i = 0; i < REPORT_BUCKETS; i++)
		total += counts[i];
	if (total <= 0)
		return -1;
	rank = q * (double)total;
	for (int i = 0; i < REPORT_BUCKETS; i++) {
		if (counts[i] > 0 && (double)(below + counts[i]) >= rank) {
			if (i == REPORT_BUCKETS - 1 ||
			    (i == 0 && h == REPORT_ERROR)) {
				*out = report_bound(h, i);
				return 0;
			}
			lo = i == 0 ? 0 : report_bound(h, i - 1);
			*out = lo + (report_bound(h, i) - lo) *
			    (rank - (double)below) / (double)counts[i];
			return 0;
		}
		below += counts[i];
	}
	*out = report_bound(h, REPORT_BUCKETS - 1);
	return 0;
}

/*
 * The live row counts when it says something: a queue with no history
 * (no row, nothing counted nor seen this minute) has no minute at all.
 */
static int
live_counts(const struct report_data *d)
{
	if (!d->has_live)
		return 0;
	if (d->n > 0 || d->has_base)
		return 1;
	for (int i = ROW_T + 1; i < REPORT_WORDS; i++)
		if (i != ROW_WAIT_MAX_MS &&
		    i != ROW_ERROR_MAX_MS && d->live.v[i] != 0)
			return 1;
	return 0;
}

/* The rows in order, live last; NULL past the end. */
static const struct report_row *
row_at(const struct report_data *d, size_t i)
{
	if (i < d->n)
		return &d->rows[i];
	return i == d->n && live_counts(d) ? &d->live : NULL;
}

static const struct report_row *
last_row(const struct report_data *d)
{
	if (live_counts(d))
		return &d->live;
	return d->n > 0 ? &d->rows[d->n - 1] : NULL;
}

/* Histogram h's buckets over the report: the last row's less the base's. */
static void
hist_counts(const struct report_data *d, enum report_hist h,
    long long *counts)
{
	const struct report_row *last = last_row(d);
	int at = ROW_BUCKETS + (h == REPORT_WAIT ? 0 : REPORT_BUCKETS);

	for (int i = 0; i < REPORT_BUCKETS; i++)
		counts[i] = last ? last->v[at + i] -
		    (d->has_base ? d->base.v[at + i] : 0) : 0;
}

static json_t *
number_or_null(int ok, double v)
{
	return ok == 0 ? json_real(v) : json_null();
}

static double
quantile_cap(double q, long long max_ms)
{
	return q > (double)max_ms / 1000 ? (double)max_ms / 1000 : q;
}

/* { p50, p90, p99, max, count, buckets: [{ le, count }...] } of h. */
static json_t *
hist_json(const struct report_data *d, enum report_hist h)
{
	long long counts[REPORT_BUCKETS], total = 0, max = 0;
	int field = h == REPORT_WAIT ? ROW_WAIT_MAX_MS :
	    ROW_ERROR_MAX_MS, any = 0;
	json_t *j, *b = json_array();
	double p50, p90, p99;
	int k50, k90, k99;
	const struct report_row *r;

	hist_counts(d, h, counts);
	for (int i = 0; b && i < REPORT_BUCKETS; i++) {
		total += counts[i];
		json_array_append_new(b, json_pack("{s:o,s:I}", "le",
		    i < REPORT_BUCKETS - 1 ? json_real(report_bound(h, i)) :
		    json_string("+Inf"), "count", (json_int_t)counts[i]));
	}
	for (size_t i = 0; (r = row_at(d, i)) != NULL; i++) {
		int has = h == REPORT_WAIT ? r->v[field] >= 0 :
		    r->has_error_max;

		if (has && (!any || r->v[field] > max))
			max = r->v[field], any = 1;
	}
	k50 = report_quantile(h, counts, 0.50, &p50);
	k90 = report_quantile(h, counts, 0.90, &p90);
	k99 = report_quantile(h, counts, 0.99, &p99);
	/* read within a bucket, a quantile may pass the largest itself */
	if (any) {
		p50 = quantile_cap(p50, max);
		p90 = quantile_cap(p90, max);
		p99 = quantile_cap(p99, max);
	}
	j = json_pack("{s:o,s:o,s:o,s:o,s:I,s:o}", "p50", number_or_null(k50,
	    p50), "p90", number_or_null(k90, p90), "p99", number_or_null(k99,
	    p99), "max", any ? json_real((double)max / 1000) : json_null(),
	    "count", (json_int_t)total, "buckets", b ? b : json_null());
	return j;
}

/* Minute r's figure of counter k: r less prev (the base, or nothing). */
static long long
minute_count(const struct report_row *r, const struct report_row *prev,
    size_t k)
{
	int f = counters[k].field;

	return r->v[f] - (prev ? prev->v[f] : 0);
}

/*
 * A span of the minutes: one minute, or in a long report (over
 * REPORT_JSON_MINUTES) the minutes of one step: its counters are its last
 * row less the row before the span, its peaks and longest wait the
 * highest of its minutes.
 */
struct span {
	long long t;			/* its first minute's start */
	const struct report_row *last;
	long long peak[NPEAKS], wait_max;
	int live;
};

static void
span_add(struct span *sp, const struct report_row *r, int live)
{
	if (sp->last == NULL) {
		sp->t = r->v[ROW_T];
		memset(sp->peak, 0, sizeof sp->peak);
		sp->wait_max = -1;
	}
	sp->last = r;
	sp->live |= live;
	for (size_t k = 0; k < NPEAKS; k++)
		if (r->v[peaks[k].field] > sp->peak[k])
			sp->peak[k] = r->v[peaks[k].field];
	if (r->v[ROW_WAIT_MAX_MS] > sp->wait_max)
		sp->wait_max = r->v[ROW_WAIT_MAX_MS];
}

static json_t *
span_json(const struct span *sp, const struct report_row *prev)
{
	json_t *m = json_pack("{s:I}", "t", (json_int_t)sp->t);

	for (size_t k = 0; m && k < NCOUNTERS; k++)
		json_object_set_new(m, counters[k].name,
		    json_integer((json_int_t)minute_count(sp->last, prev, k)));
	for (size_t k = 0; m && k < NPEAKS; k++)
		json_object_set_new(m, peaks[k].name,
		    json_integer((json_int_t)sp->peak[k]));
	if (m) {
		json_object_set_new(m, "wait_max", sp->wait_max >= 0 ?
		    json_real((double)sp->wait_max / 1000) : json_null());
		json_object_set_new(m, "live", json_boolean(sp->live));
	}
	return m;
}

/* The step (s) of d's minutes in JSON: 60, or more for a long report,
 * so that it has REPORT_JSON_MINUTES entries at most. */
static long long
report_step(const struct report_data *d)
{
	const struct report_row *first = row_at(d, 0), *last = last_row(d);
	long long span, minutes;

	if (first == NULL)
		return 60;
	span = last->v[ROW_T] - first->v[ROW_T] + 60;
	minutes = (span + 59) / 60;
	return 60 * ((minutes + REPORT_JSON_MINUTES - 1) /
	    REPORT_JSON_MINUTES);
}

/* The minutes (or steps) of d as JSON. */
static json_t *
minutes_json(const struct report_data *d, long long step)
{
	const struct report_row *r, *prev = d->has_base ? &d->base : NULL;
	const struct report_row *first = row_at(d, 0);
	json_t *out = json_array();
	struct span sp = { 0, NULL, { 0 }, -1, 0 };
	long long group = 0;

	for (size_t i = 0; out && (r = row_at(d, i)) != NULL; i++) {
		long long g = (r->v[ROW_T] - first->v[ROW_T]) /
		    step;

		if (sp.last && g != group) {
			json_array_append_new(out, span_json(&sp, prev));
			prev = sp.last;
			sp.last = NULL, sp.live = 0;
		}
		group = g;
		span_add(&sp, r, i == d->n);
	}
	if (out && sp.last)
		json_array_append_new(out, span_json(&sp, prev));
	return out;
}

static json_t *
totals_json(const struct report_data *d)
{
	const struct report_row *last = last_row(d), *r;
	const struct report_row *base = d->has_base ? &d->base : NULL;
	json_t *t = json_object();

	for (size_t k = 0; t && k < NCOUNTERS; k++)
		json_object_set_new(t, counters[k].name, json_integer(last ?
		    (json_int_t)minute_count(last, base, k) : 0));
	for (size_t k = 0; t && k < NPEAKS; k++) {
		long long peak = 0;

		for (size_t i = 0; (r = row_at(d, i)) != NULL; i++)
			if (r->v[peaks[k].field] > peak)
				peak = r->v[peaks[k].field];
		json_object_set_new(t, peaks[k].name, json_integer(peak));
	}
	return t;
}

static json_t *
draw_json(const struct report_data *d)
{
	if (!d->drawn)
		return json_null();
	return json_pack("{s:s,s:s,s:s,s:I,s:I,s:s,s:f}", "seed", d->draw.seed,
	    "commit", d->draw.commit, "beacon", d->draw.beacon, "entrants",
	    (json_int_t)d->draw.entrants, "drawn_at",
	    (json_int_t)d->draw.drawn_at, "order_sha256", d->draw.order_sha256,
	    "seconds", (double)d->draw.ms / 1000);
}

json_t *
report_json(const struct report_data *d, const char *queue)
{
	long long step = report_step(d);
	json_t *minutes = minutes_json(d, step);

	if (minutes == NULL)
		return NULL;
	return json_pack("{s:s,s:I,s:I,s:I,s:o,s:o,s:o,s:o,s:o}", "queue",
	    queue, "from", (json_int_t)d->from, "to", (json_int_t)d->to,
	    "step", (json_int_t)step, "totals", totals_json(d), "minutes",
	    minutes, "wait", hist_json(d, REPORT_WAIT), "eta_error",
	    hist_json(d, REPORT_ERROR), "draw", draw_json(d));
}

/* A growing text: bad once out of memory. */
struct csv {
	char *buf;
	size_t len, cap;
	int bad;
};

static void
csv_put(struct csv *c, const char *s)
{
	size_t n = strlen(s);

	if (c->bad)
		return;
	if (c->len + n + 1 > c->cap) {
		size_t want = (c->cap ? c->cap * 2 : 4096) + n;
		char *nb = realloc(c->buf, want);

		if (nb == NULL) {
			c->bad = 1;
			return;
		}
		c->buf = nb, c->cap = want;
	}
	memcpy(c->buf + c->len, s, n + 1);
	c->len += n;
}

static void
csv_num(struct csv *c, long long v)
{
	char num[24];

	snprintf(num, sizeof num, ",%lld", v);
	csv_put(c, num);
}

char *
report_csv(const struct report_data *d)
{
	const struct report_row *r, *prev = d->has_base ? &d->base : NULL;
	struct csv c = { NULL, 0, 0, 0 };

	csv_put(&c, "t");
	for (size_t k = 0; k < NCOUNTERS; k++)
		csv_put(&c, ","), csv_put(&c, counters[k].name);
	for (size_t k = 0; k < NPEAKS; k++)
		csv_put(&c, ","), csv_put(&c, peaks[k].name);
	csv_put(&c, ",wait_max_ms,live\n");
	for (size_t i = 0; (r = row_at(d, i)) != NULL; i++) {
		char t[24];

		snprintf(t, sizeof t, "%lld", r->v[ROW_T]);
		csv_put(&c, t);
		for (size_t k = 0; k < NCOUNTERS; k++)
			csv_num(&c, minute_count(r, prev, k));
		for (size_t k = 0; k < NPEAKS; k++)
			csv_num(&c, r->v[peaks[k].field]);
		if (r->v[ROW_WAIT_MAX_MS] >= 0)
			csv_num(&c, r->v[ROW_WAIT_MAX_MS]);
		else
			csv_put(&c, ",");
		csv_put(&c, i == d->n ? ",1\n" : ",0\n");
		prev = r;
	}
	if (c.bad) {
		free(c.buf);
		return NULL;
	}
	return c.buf;
}
