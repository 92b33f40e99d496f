/* check_plan.c: seed 000's capacity figures and the parsing of their flags. */
#include <string.h>

#include "plan.h"
#include "unit.h"

/* Seed 000: 1,000 TPS, 300 s sessions, 6 calls, 15 % failures, 80 %. */
static struct plan_input
seed(void)
{
	struct plan_input in;

	plan_input_init(&in);
	in.tps = 1000;
	in.session = 300;
	in.calls = 6;
	in.failure_rate = 0.15;
	return in;
}

static int
has(const char *s, const char *part)
{
	return strstr(s, part) != NULL;
}

START_TEST(test_seed_example)
{
	struct plan_input in = seed();
	struct plan p;
	char err[PLAN_ERR_MAX];

	ck_assert_int_eq(plan_compute(&in, &p, err, sizeof err), 0);
	ck_assert_double_eq_tol(p.concurrent, 43478.26, 0.01);
	ck_assert_double_eq_tol(p.target, 34782.61, 0.01);
	ck_assert_double_eq(p.cycle, 375.0);
	ck_assert_double_eq_tol(p.tokens_per_cycle, 54347.83, 0.01);
	ck_assert_double_eq_tol(p.batch_exact, 1449.28, 0.01);
	ck_assert_int_eq(p.batch, 1449);
	ck_assert_int_eq(p.max_active, 34782);
	ck_assert_int_eq(p.rate_active, 43470);
}
END_TEST

/* The flags, percentages included, give the very same figures. */
START_TEST(test_seed_from_flags)
{
	struct plan_input a = seed(), b;
	struct plan pa, pb;

	plan_input_init(&b);
	ck_assert_int_eq(plan_set(&b, "tps", "1000", NULL, 0), 0);
	ck_assert_int_eq(plan_set(&b, "session", "300", NULL, 0), 0);
	ck_assert_int_eq(plan_set(&b, "calls", "6", NULL, 0), 0);
	ck_assert_int_eq(plan_set(&b, "failure-rate", "15%", NULL, 0), 0);
	ck_assert_int_eq(plan_set(&b, "utilisation", "80%", NULL, 0), 0);
	ck_assert_int_eq(plan_set(&b, "interval", "10", NULL, 0), 0);
	ck_assert_int_eq(plan_compute(&a, &pa, NULL, 0), 0);
	ck_assert_int_eq(plan_compute(&b, &pb, NULL, 0), 0);
	ck_assert_double_eq(pa.concurrent, pb.concurrent);
	ck_assert_double_eq(pa.target, pb.target);
	ck_assert_double_eq(pa.cycle, pb.cycle);
	ck_assert_double_eq(pa.tokens_per_cycle, pb.tokens_per_cycle);
	ck_assert_int_eq(pa.batch, pb.batch);
	ck_assert_int_eq(pa.max_active, pb.max_active);
}
END_TEST

START_TEST(test_full_utilisation)
{
	struct plan_input in = seed();
	struct plan p;

	in.utilisation = 1.0;
	ck_assert_int_eq(plan_compute(&in, &p, NULL, 0), 0);
	ck_assert_double_eq(p.target, p.concurrent);
	ck_assert_double_eq(p.cycle, 300.0);
	ck_assert_double_eq_tol(p.tokens_per_cycle, 43478.26, 0.01);
	ck_assert_int_eq(p.max_active, 43478);
	/* The batch is the site's rate: utilisation does not change it. */
	ck_assert_int_eq(p.batch, 1449);
}
END_TEST

START_TEST(test_other_intervals)
{
	struct plan_input in = seed();
	struct plan p;

	in.interval = 60;
	ck_assert_int_eq(plan_compute(&in, &p, NULL, 0), 0);
	ck_assert_int_eq(p.batch, 8695);	/* 8695.65 rounded down */
	in.interval = 1;
	ck_assert_int_eq(plan_compute(&in, &p, NULL, 0), 0);
	ck_assert_int_eq(p.batch, 144);		/* 144.93 */
	ck_assert_int_eq(p.rate_active, 43200);
}
END_TEST

/* A whole number stays whole, whatever the float noise on the way. */
START_TEST(test_round_down_exact)
{
	struct plan_input in = seed();
	struct plan p;

	in.tps = 690;		/* 690 x 10 / 6.9 = 1000 */
	ck_assert_int_eq(plan_compute(&in, &p, NULL, 0), 0);
	ck_assert_int_eq(p.batch, 1000);
	ck_assert_int_eq(p.max_active, 24000);	/* 30000 x 0.8 */
	in.tps = 69;
	in.interval = 1;
	in.utilisation = 0.7;
	ck_assert_int_eq(plan_compute(&in, &p, NULL, 0), 0);
	ck_assert_int_eq(p.batch, 10);
	ck_assert_int_eq(p.max_active, 2100);	/* 3000 x 0.7 */
}
END_TEST

START_TEST(test_out_of_conf_range)
{
	struct plan_input in = seed();
	struct plan p;
	char err[PLAN_ERR_MAX];

	in.tps = 1;
	in.calls = 20;
	in.failure_rate = 0;	/* 0.5 a batch every 10 s */
	ck_assert_int_eq(plan_compute(&in, &p, err, sizeof err), -1);
	ck_assert(has(err, "batch would be 0.500 every 10 s"));
	ck_assert(has(err, "longer --interval"));
	in.interval = 20;
	ck_assert_int_eq(plan_compute(&in, &p, err, sizeof err), 0);
	ck_assert_int_eq(p.batch, 1);
	in = seed();
	in.tps = 1e9;
	in.calls = 1;
	ck_assert_int_eq(plan_compute(&in, &p, err, sizeof err), -1);
	ck_assert(has(err, "shorter --interval"));
	in.tps = 1;		/* one session at once, half aimed at */
	in.calls = 1;
	in.failure_rate = 0;
	in.session = 1;
	in.utilisation = 0.5;
	ck_assert_int_eq(plan_compute(&in, &p, err, sizeof err), -1);
	ck_assert(has(err, "max_active would be"));
}
END_TEST

START_TEST(test_missing)
{
	struct plan_input in;
	struct plan p;
	char err[PLAN_ERR_MAX];

	plan_input_init(&in);
	ck_assert_str_eq(plan_missing(&in), "tps");
	ck_assert_int_eq(plan_set(&in, "tps", "1000", NULL, 0), 0);
	ck_assert_str_eq(plan_missing(&in), "session");
	ck_assert_int_eq(plan_set(&in, "session", "300", NULL, 0), 0);
	ck_assert_str_eq(plan_missing(&in), "calls");
	ck_assert_int_eq(plan_set(&in, "calls", "6", NULL, 0), 0);
	ck_assert_str_eq(plan_missing(&in), "failure-rate");
	ck_assert_int_eq(plan_compute(&in, &p, err, sizeof err), -1);
	ck_assert_str_eq(err, "--failure-rate is missing or out of range");
	ck_assert_int_eq(plan_set(&in, "failure-rate", "0", NULL, 0), 0);
	ck_assert_ptr_null(plan_missing(&in));
	in.utilisation = 0;	/* filled by hand */
	ck_assert_str_eq(plan_missing(&in), "utilisation");
}
END_TEST

START_TEST(test_fraction)
{
	double d = -1;

	ck_assert_int_eq(plan_parse_fraction("15%", &d), 0);
	ck_assert_double_eq(d, 0.15);
	ck_assert_int_eq(plan_parse_fraction("0.15", &d), 0);
	ck_assert_double_eq(d, 0.15);
	ck_assert_int_eq(plan_parse_fraction("80%", &d), 0);
	ck_assert_double_eq(d, 0.8);
	ck_assert_int_eq(plan_parse_fraction("12.5%", &d), 0);
	ck_assert_double_eq(d, 0.125);
	ck_assert_int_eq(plan_parse_fraction(".5", &d), 0);
	ck_assert_double_eq(d, 0.5);
	ck_assert_int_eq(plan_parse_fraction("100%", &d), 0);
	ck_assert_double_eq(d, 1.0);
	ck_assert_int_eq(plan_parse_fraction("1", &d), 0);
	ck_assert_double_eq(d, 1.0);
	ck_assert_int_eq(plan_parse_fraction("0%", &d), 0);
	ck_assert_double_eq(d, 0.0);
}
END_TEST

START_TEST(test_fraction_bad)
{
	static const char *bad[] = { "150%", "100.1%", "1.5", "15", "-0.15",
	    "-15%", "+0.15", "abc", "", "%", ".", ".%", "15 %", " 0.15",
	    "0.15 ", "15%%", "%15", "1e-1", "inf", "nan", "0x1p-3", "1.2.3",
	    "0,15", "15\xef\xbc\x85" };
	double d = 42;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(plan_parse_fraction(bad[i], &d) == -1,
		    "'%s' accepted", bad[i]);
	ck_assert_double_eq(d, 42);	/* untouched */
}
END_TEST

START_TEST(test_number_and_whole)
{
	double d;
	long n;

	ck_assert_int_eq(plan_parse_number("1000", &d), 0);
	ck_assert_double_eq(d, 1000);
	ck_assert_int_eq(plan_parse_number("4.5", &d), 0);
	ck_assert_double_eq(d, 4.5);
	ck_assert_int_eq(plan_parse_number("3.", &d), 0);
	ck_assert_double_eq(d, 3);
	ck_assert_int_eq(plan_parse_number("-1", &d), -1);
	ck_assert_int_eq(plan_parse_number("1e3", &d), -1);
	ck_assert_int_eq(plan_parse_number("1,000", &d), -1);
	ck_assert_int_eq(plan_parse_number("", &d), -1);
	ck_assert_int_eq(plan_parse_whole("300", 1, 604800, &n), 0);
	ck_assert_int_eq(n, 300);
	ck_assert_int_eq(plan_parse_whole("0", 1, 604800, &n), -1);
	ck_assert_int_eq(plan_parse_whole("604801", 1, 604800, &n), -1);
	ck_assert_int_eq(plan_parse_whole("10.0", 1, 86400, &n), -1);
	ck_assert_int_eq(plan_parse_whole("-5", -10, 10, &n), -1);
	ck_assert_int_eq(plan_parse_whole("+5", 1, 10, &n), -1);
	ck_assert_int_eq(plan_parse_whole(" 5", 1, 10, &n), -1);
	ck_assert_int_eq(plan_parse_whole("99999999999999999999999", 1,
	    86400, &n), -1);
	ck_assert_int_eq(n, 300);	/* untouched */
}
END_TEST

START_TEST(test_set_errors)
{
	struct plan_input in;
	char err[PLAN_ERR_MAX];

	plan_input_init(&in);
	ck_assert_int_eq(plan_set(&in, "failure-rate", "150%", err,
	    sizeof err), -1);
	ck_assert_str_eq(err, "--failure-rate: '150%' is not valid (accepted: "
	    "a share from 0 to 1 or from 0% to 100%, such as 0.15 or 15%)");
	ck_assert_double_eq(in.failure_rate, -1);	/* still unset */
	ck_assert_int_eq(plan_set(&in, "utilisation", "0", err, sizeof err),
	    -1);
	ck_assert(has(err, "--utilisation: '0'"));
	ck_assert_int_eq(plan_set(&in, "utilisation", "0%", NULL, 0), -1);
	ck_assert_int_eq(plan_set(&in, "tps", "0", err, sizeof err), -1);
	ck_assert(has(err, "above 0"));
	ck_assert_int_eq(plan_set(&in, "calls", "0", NULL, 0), -1);
	ck_assert_int_eq(plan_set(&in, "session", "0", err, sizeof err), -1);
	ck_assert(has(err, "1 to 604800"));
	ck_assert_int_eq(plan_set(&in, "interval", "86401", NULL, 0), -1);
	ck_assert_int_eq(plan_set(&in, "tps", "\x1b[2J", err, sizeof err),
	    -1);
	ck_assert(has(err, "'\\x1b[2J'"));
	ck_assert_int_eq(plan_set(&in, "speed", "1", err, sizeof err), -1);
	ck_assert_str_eq(err, "unknown flag --speed");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("plan");
	TCase *figures = tcase_create("figures");
	TCase *parse = tcase_create("parse");

	tcase_add_test(figures, test_seed_example);
	tcase_add_test(figures, test_seed_from_flags);
	tcase_add_test(figures, test_full_utilisation);
	tcase_add_test(figures, test_other_intervals);
	tcase_add_test(figures, test_round_down_exact);
	tcase_add_test(figures, test_out_of_conf_range);
	tcase_add_test(figures, test_missing);
	tcase_add_test(parse, test_fraction);
	tcase_add_test(parse, test_fraction_bad);
	tcase_add_test(parse, test_number_and_whole);
	tcase_add_test(parse, test_set_errors);
	suite_add_tcase(s, figures);
	suite_add_tcase(s, parse);
	return unit_run(s);
}
