/*
 * check_report.c: a queue's report from its minute rows (report.c, and
 * the row's parser, report_row.c's report_row_parse): the minutes as
 * differences of rows across a minute's boundary, from a base, with the
 * live row last; the totals; the quantiles of the histograms; the CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qstore_reply.h"
#include "report.h"
#include "unit.h"

/* A row's words: t, 11 counters, 4 peaks, wait_max, error_max, then 32
 * buckets, the wait's first bucket w0 (and e7, error 0) holding n0. */
static void
row(struct report_row *r, long long t, long long joined, long long admitted,
    long long peak_waiting, long long w_max, long long w3)
{
	char text[1024];
	int n;

	n = snprintf(text, sizeof text, "%lld %lld %lld 1 0 0 0 0 0 0 0 0 "
	    "%lld 2 0 0 %lld n", t, joined, admitted, peak_waiting, w_max);
	for (int i = 0; i < 32; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, " %lld",
		    i == 3 ? w3 : 0);
	ck_assert_int_eq(report_row_parse(text, r), 0);
}

START_TEST(test_row_parse)
{
	struct report_row r;

	row(&r, 1795791780, 10, 4, 7, 3500, 4);
	ck_assert_int_eq(r.v[ROW_T], 1795791780);
	ck_assert_int_eq(r.v[ROW_JOINED], 10);
	ck_assert_int_eq(r.v[ROW_PEAK_WAITING], 7);
	ck_assert_int_eq(r.v[ROW_WAIT_MAX_MS], 3500);
	ck_assert_int_eq(r.has_error_max, 0);
	ck_assert_int_eq(r.v[ROW_BUCKETS + 3], 4);
	ck_assert_int_eq(report_row_parse("1 2 3", &r), -1);
	ck_assert_int_eq(report_row_parse("", &r), -1);
	ck_assert_int_eq(report_row_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
	    "15 16 17 x", &r), -1);
}
END_TEST

/* Two finished minutes across a boundary after a base, then the live
 * one: each minute is its row less the one before. */
START_TEST(test_minutes_across_boundary)
{
	struct report_row rows[2];
	struct report_data d;
	json_t *j, *m;

	memset(&d, 0, sizeof d);
	row(&d.base, 1795791720, 100, 50, 9, -1, 10);
	d.has_base = 1;
	row(&rows[0], 1795791780, 130, 60, 40, 5000, 15);
	row(&rows[1], 1795791840, 131, 70, 12, 9000, 25);
	d.rows = rows, d.n = 2;
	row(&d.live, 1795791900, 131, 72, 3, -1, 27);
	d.has_live = 1;
	d.from = 1795791780, d.to = 1795791959;
	j = report_json(&d, "sale");
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "step")), 60);
	m = json_object_get(j, "minutes");
	ck_assert_int_eq(json_array_size(m), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(m,
	    0), "joined")), 30);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(m,
	    1), "joined")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(m,
	    2), "admitted")), 2);
	ck_assert(json_is_false(json_object_get(json_array_get(m, 1), "live")));
	ck_assert(json_is_true(json_object_get(json_array_get(m, 2), "live")));
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j,
	    "totals"), "joined")), 31);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j,
	    "totals"), "admitted")), 22);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j,
	    "totals"), "peak_waiting")), 40);
	/* the histogram: 27 - 10 in bucket 3 (4 to 8 s), max 9 s */
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j,
	    "wait"), "count")), 17);
	ck_assert(json_real_value(json_object_get(json_object_get(j, "wait"),
	    "max")) == 9);
	/* all 17 in (4, 8], the longest 9 s: p99 read as 7.96 */
	ck_assert(json_real_value(json_object_get(json_object_get(j, "wait"),
	    "p99")) > 7.9);
	ck_assert(json_is_null(json_object_get(json_object_get(j,
	    "eta_error"), "p50")));
	json_decref(j);
}
END_TEST

/* Over REPORT_JSON_MINUTES minutes, the JSON shows steps of several
 * minutes, each its last row less the row before it, its peak the
 * highest: they still add up to the totals. */
START_TEST(test_long_report_in_steps)
{
	size_t n = 3000;
	struct report_row *rows = calloc(n, sizeof *rows);
	struct report_data d;
	long long joined = 0, peak = 0;
	json_t *j, *m, *e;
	size_t i;

	ck_assert_ptr_nonnull(rows);
	memset(&d, 0, sizeof d);
	for (i = 0; i < n; i++)
		row(&rows[i], 1795000020 + 60 * (long long)i, 7 * (long long)i,
		    0, (long long)(i % 100), -1, 0);
	d.rows = rows, d.n = n;
	j = report_json(&d, "long");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "step")), 180);
	m = json_object_get(j, "minutes");
	ck_assert_int_eq(json_array_size(m), 1000);
	json_array_foreach(m, i, e) {
		joined += json_integer_value(json_object_get(e, "joined"));
		if (json_integer_value(json_object_get(e, "peak_waiting")) > peak)
			peak = json_integer_value(json_object_get(e,
			    "peak_waiting"));
	}
	ck_assert_int_eq(joined, 7 * 2999);
	ck_assert_int_eq(joined, json_integer_value(json_object_get(
	    json_object_get(j, "totals"), "joined")));
	ck_assert_int_eq(peak, 99);
	/* the second step: minutes 3 to 5, 7 each */
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(m,
	    1), "joined")), 21);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(m,
	    1), "t")), 1795000020 + 180);
	json_decref(j);
	free(rows);
}
END_TEST

/* A quantile read within its bucket is never past the longest wait. */
START_TEST(test_quantile_capped)
{
	struct report_row rows[1];
	struct report_data d;
	json_t *j;

	memset(&d, 0, sizeof d);
	row(&rows[0], 1795791780, 5, 5, 4, 4500, 5);
	d.rows = rows, d.n = 1;
	j = report_json(&d, "sale");
	ck_assert(json_real_value(json_object_get(json_object_get(j, "wait"),
	    "p90")) == 4.5);
	ck_assert(json_real_value(json_object_get(json_object_get(j, "wait"),
	    "p50")) == 4.5);
	json_decref(j);
}
END_TEST

/* No base (the queue's first rows): the first row counts from zero. */
START_TEST(test_no_base)
{
	struct report_row rows[1];
	struct report_data d;
	json_t *j;

	memset(&d, 0, sizeof d);
	row(&rows[0], 1795791780, 5, 1, 4, 100, 0);
	d.rows = rows, d.n = 1;
	j = report_json(&d, "sale");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j,
	    "totals"), "joined")), 5);
	ck_assert_int_eq(json_array_size(json_object_get(j, "minutes")), 1);
	json_decref(j);
}
END_TEST

/* A queue with no history: an empty live row is no minute. */
START_TEST(test_nothing)
{
	struct report_data d;
	json_t *j;
	char *csv;

	memset(&d, 0, sizeof d);
	row(&d.live, 1795791900, 0, 0, 0, -1, 0);
	d.live.v[ROW_PEAK_ACTIVE] = 0;
	d.live.v[ROW_BUCKETS + 3] = 0;
	d.live.v[ROW_ABANDONED] = 0;
	d.has_live = 1;
	j = report_json(&d, "quiet");
	ck_assert_int_eq(json_array_size(json_object_get(j, "minutes")), 0);
	ck_assert(json_is_null(json_object_get(json_object_get(j, "wait"),
	    "p50")));
	json_decref(j);
	csv = report_csv(&d);
	ck_assert_ptr_nonnull(csv);
	ck_assert_ptr_null(strchr(csv, '\n') ? strchr(strchr(csv, '\n') + 1,
	    '\n') : NULL);
	free(csv);
}
END_TEST

START_TEST(test_quantiles)
{
	long long c[REPORT_BUCKETS] = { 0 };
	double q;

	ck_assert_int_eq(report_quantile(REPORT_WAIT, c, 0.5, &q), -1);
	/* 10 in (4, 8]: the median is half-way, 6 s */
	c[3] = 10;
	ck_assert_int_eq(report_quantile(REPORT_WAIT, c, 0.5, &q), 0);
	ck_assert(q == 6);
	/* 10 more in the first bucket, [0, 1]: the median is 1 */
	c[0] = 10;
	report_quantile(REPORT_WAIT, c, 0.5, &q);
	ck_assert(q == 1);
	/* all above 16384 s: the last bound */
	memset(c, 0, sizeof c);
	c[REPORT_BUCKETS - 1] = 3;
	report_quantile(REPORT_WAIT, c, 0.9, &q);
	ck_assert(q == 16384);
	/* errors: all in (-4, -1] */
	memset(c, 0, sizeof c);
	c[6] = 4;
	report_quantile(REPORT_ERROR, c, 0.5, &q);
	ck_assert(q == -2.5);
	ck_assert(report_bound(REPORT_ERROR, 7) == 0);
}
END_TEST

START_TEST(test_csv)
{
	struct report_row rows[2];
	struct report_data d;
	char *csv, *line2;

	memset(&d, 0, sizeof d);
	row(&rows[0], 1795791780, 3, 1, 4, -1, 0);
	row(&rows[1], 1795791840, 7, 2, 4, 2500, 0);
	d.rows = rows, d.n = 2;
	csv = report_csv(&d);
	ck_assert_ptr_nonnull(csv);
	ck_assert(strncmp(csv, "t,joined,admitted,abandoned,left,expired,"
	    "kicked,noshows,refused_work,refused_invitation,refused_rate,"
	    "refused_origin,peak_waiting,peak_active,peak_streams,"
	    "peak_prequeue,wait_max_ms,live\n", 185) == 0);
	line2 = strchr(strchr(csv, '\n') + 1, '\n') + 1;
	ck_assert_str_eq(line2, "1795791840,4,1,0,0,0,0,0,0,0,0,0,4,2,0,0,"
	    "2500,0\n");
	free(csv);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("queue");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, test_row_parse);
	tcase_add_test(tc, test_minutes_across_boundary);
	tcase_add_test(tc, test_no_base);
	tcase_add_test(tc, test_quantile_capped);
	tcase_add_test(tc, test_long_report_in_steps);
	tcase_add_test(tc, test_nothing);
	tcase_add_test(tc, test_quantiles);
	tcase_add_test(tc, test_csv);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
