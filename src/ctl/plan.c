/*
 * plan.c: seed 000's capacity formulas and the parsing of their flags; pure.
 * Every figure is checked against one table of flags, so a flag's value,
 * a struct filled by hand and an unset figure get the same rules.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "plan.h"

/* conf.c's ranges for the keys plan prints. */
#define PLAN_BATCH_MAX 1000000L
#define PLAN_MAX_ACTIVE_MAX 100000000L
/* How close to a whole number counts as it, when rounding down. */
#define PLAN_SLACK 1e-6

enum plan_kind { PK_NUMBER, PK_WHOLE, PK_FRACTION };

struct plan_flag {
	const char *name;
	int kind;		/* enum plan_kind */
	double lo, hi;		/* the range */
	int open;		/* lo itself is not accepted */
	size_t off;		/* a long for PK_WHOLE, else a double */
	const char *accepted;
};

#define OFF(f) offsetof(struct plan_input, f)

static const struct plan_flag plan_flags[] = {
	{ "tps", PK_NUMBER, 0, 1e9, 1, OFF(tps),
	  "a number above 0 and at most 1000000000, such as 1000" },
	{ "session", PK_WHOLE, 1, 604800, 0, OFF(session),
	  "whole seconds from 1 to 604800, such as 300" },
	{ "calls", PK_NUMBER, 0, 1e6, 1, OFF(calls),
	  "a number above 0 and at most 1000000, such as 6 or 4.5" },
	{ "failure-rate", PK_FRACTION, 0, 1, 0, OFF(failure_rate),
	  "a share from 0 to 1 or from 0% to 100%, such as 0.15 or 15%" },
	{ "utilisation", PK_FRACTION, 0, 1, 1, OFF(utilisation),
	  "a share above 0 and at most 1 or 100%, such as 0.8 or 80%" },
	{ "interval", PK_WHOLE, 1, 86400, 0, OFF(interval),
	  "whole seconds from 1 to 86400, such as 10" },
};

#define NFLAGS (sizeof plan_flags / sizeof plan_flags[0])

/* Length of the digits, with at most one '.', at s; 0 without a digit. */
static size_t
decimal_len(const char *s)
{
	size_t i, digits = 0;
	int dot = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (s[i] == '.' && !dot)
			dot = 1;
		else
			break;
	}
	return digits > 0 ? i : 0;
}

/* The first len bytes of s, which must be a plain decimal and nothing else. */
static int
parse_decimal(const char *s, size_t len, double *out)
{
	char *end;
	double d;

	if (len == 0 || decimal_len(s) != len)
		return -1;
	errno = 0;
	d = strtod(s, &end);
	if (end != s + len || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

int
plan_parse_number(const char *s, double *out)
{
	return parse_decimal(s, strlen(s), out);
}

int
plan_parse_whole(const char *s, long lo, long hi, long *out)
{
	char *end;
	long n;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtol(s, &end, 10);
	if (*end != '\0' || errno == ERANGE || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

int
plan_parse_fraction(const char *s, double *out)
{
	size_t len = strlen(s);
	int percent = len > 0 && s[len - 1] == '%';
	double d;

	if (parse_decimal(s, len - (size_t)percent, &d) == -1)
		return -1;
	if (percent)
		d /= 100;
	if (d > 1)
		return -1;
	*out = d;
	return 0;
}

static double
flag_get(const struct plan_flag *f, const struct plan_input *in)
{
	const char *p = (const char *)in + f->off;

	if (f->kind == PK_WHOLE)
		return (double)*(const long *)(const void *)p;
	return *(const double *)(const void *)p;
}

static int
flag_in_range(const struct plan_flag *f, double d)
{
	return d <= f->hi && (f->open ? d > f->lo : d >= f->lo);
}

/* Parse v for f into in; -1 when malformed or out of range. */
static int
flag_set(const struct plan_flag *f, struct plan_input *in, const char *v)
{
	char *p = (char *)in + f->off;
	double d;
	long n;

	if (f->kind == PK_WHOLE) {
		if (plan_parse_whole(v, (long)f->lo, (long)f->hi, &n) == -1)
			return -1;
		*(long *)(void *)p = n;
		return 0;
	}
	if (f->kind == PK_FRACTION ? plan_parse_fraction(v, &d) == -1 :
	    plan_parse_number(v, &d) == -1)
		return -1;
	if (!flag_in_range(f, d))
		return -1;
	*(double *)(void *)p = d;
	return 0;
}

void
plan_input_init(struct plan_input *in)
{
	memset(in, 0, sizeof *in);
	in->failure_rate = -1;
	in->utilisation = 0.8;
	in->interval = 10;
}

int
plan_set(struct plan_input *in, const char *flag, const char *value,
    char *err, size_t errlen)
{
	char shown[MSG_SHOWN_SIZE];

	for (size_t i = 0; i < NFLAGS; i++) {
		const struct plan_flag *f = &plan_flags[i];

		if (strcmp(f->name, flag) != 0)
			continue;
		if (flag_set(f, in, value) == 0)
			return 0;
		msg_set(err, errlen, "--%s: '%s' is not valid (accepted: %s)",
		    f->name, msg_shown(shown, value), f->accepted);
		return -1;
	}
	msg_set(err, errlen, "unknown flag --%s", msg_shown(shown, flag));
	return -1;
}

const char *
plan_missing(const struct plan_input *in)
{
	for (size_t i = 0; i < NFLAGS; i++)
		if (!flag_in_range(&plan_flags[i], flag_get(&plan_flags[i], in)))
			return plan_flags[i].name;
	return NULL;
}

/* x rounded down, or -1 when that falls outside 1 to max. */
static long
plan_floor(double x, long max)
{
	x += PLAN_SLACK;
	if (x < 1 || x >= (double)max + 1)
		return -1;
	return (long)x;
}

/* Round batch and max_active down, within conf.c's ranges. */
static int
plan_round(const struct plan_input *in, struct plan *p, char *err,
    size_t errlen)
{
	if ((p->batch = plan_floor(p->batch_exact, PLAN_BATCH_MAX)) == -1) {
		msg_set(err, errlen, "batch would be %.3f every %ld s, and "
		    "waitroom.conf accepts 1 to %ld: choose a %s --interval",
		    p->batch_exact, in->interval, PLAN_BATCH_MAX,
		    p->batch_exact < 1 ? "longer" : "shorter");
		return -1;
	}
	if ((p->max_active = plan_floor(p->target, PLAN_MAX_ACTIVE_MAX)) ==
	    -1) {
		msg_set(err, errlen, "max_active would be %.3f, and "
		    "waitroom.conf accepts 1 to %ld: check --tps, --session, "
		    "--calls and --utilisation", p->target,
		    PLAN_MAX_ACTIVE_MAX);
		return -1;
	}
	p->rate_active = (long)((double)p->batch * (double)in->session /
	    (double)in->interval);
	return 0;
}

int
plan_compute(const struct plan_input *in, struct plan *p, char *err,
    size_t errlen)
{
	const char *missing = plan_missing(in);
	double cost;		/* API requests one session costs */

	memset(p, 0, sizeof *p);
	if (missing != NULL) {
		msg_set(err, errlen, "--%s is missing or out of range",
		    missing);
		return -1;
	}
	cost = in->calls * (1 + in->failure_rate);
	p->concurrent = in->tps * (double)in->session / cost;
	p->target = p->concurrent * in->utilisation;
	/* session / (target / concurrent), without the rounding error. */
	p->cycle = (double)in->session / in->utilisation;
	p->tokens_per_cycle = in->tps * p->cycle / cost;
	p->batch_exact = p->tokens_per_cycle * (double)in->interval / p->cycle;
	return plan_round(in, p, err, errlen);
}
