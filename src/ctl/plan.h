/*
 * plan.h: seed 000's capacity formulas, turning what the protected site can
 * take (peak TPS, session length, API calls per session, failure rate) into
 * queue settings (max_active, or batch every interval). Pure: no I/O, so the
 * figures and the parsing of waitroomctl's flags are unit-tested.
 *
 * With c = calls x (1 + failure_rate), the API requests one session costs:
 *   concurrent       = tps x session / c
 *   target           = concurrent x utilisation
 *   cycle            = session / (target / concurrent) = session / utilisation
 *   tokens_per_cycle = tps x cycle / c
 *   batch            = tokens_per_cycle x interval / cycle = tps x interval / c
 * So the rate-mode batch depends on neither session nor utilisation: it
 * admits at the site's full sustainable rate, and sessions that run their
 * whole length fill the full concurrent capacity, not the target.
 */
#ifndef WR_PLAN_H
#define WR_PLAN_H

#include <stddef.h>

#define PLAN_ERR_MAX 512

struct plan_input {
	double tps;		/* API requests per second the site serves */
	long session;		/* seconds a session lasts; 0: unset */
	double calls;		/* API requests per session; 0: unset */
	double failure_rate;	/* 0 to 1; below 0: unset */
	double utilisation;	/* share of capacity aimed at, above 0 to 1 */
	long interval;		/* seconds between admissions in rate mode */
};

struct plan {
	double concurrent;	/* sessions the site carries at once */
	double target;		/* concurrent x utilisation */
	double cycle;		/* seconds */
	double tokens_per_cycle;
	double batch_exact;	/* tokens_per_cycle x interval / cycle */
	long batch;		/* batch_exact rounded down */
	long max_active;	/* target rounded down */
	long rate_active;	/* inside at once in rate mode, full sessions */
};

/* Unset required figures; utilisation 0.8, interval 10. */
void plan_input_init(struct plan_input *in);

/*
 * Set the figure of one flag ("tps", "session", "calls", "failure-rate",
 * "utilisation", "interval") from its text. On error -1, and err names the
 * flag, the value and what is accepted.
 */
int plan_set(struct plan_input *in, const char *flag, const char *value,
    char *err, size_t errlen);

/* The first required flag not yet set, or NULL. */
const char *plan_missing(const struct plan_input *in);

/*
 * The figures of a complete input. Rounding is down (never admit more than
 * the site takes); a value within a millionth of a whole number counts as
 * that number, so float noise never costs one. -1 when a figure falls
 * outside what waitroom.conf accepts; err says which and what to change.
 */
int plan_compute(const struct plan_input *in, struct plan *p, char *err,
    size_t errlen);

/* A plain decimal, 0 or more: "12", "0.5", ".5", "3."; no sign, exponent. */
int plan_parse_number(const char *s, double *out);
/* Digits only, within lo to hi. */
int plan_parse_whole(const char *s, long lo, long hi, long *out);
/* A share from 0 to 1, as a decimal ("0.15") or a percentage ("15%"). */
int plan_parse_fraction(const char *s, double *out);

#endif
