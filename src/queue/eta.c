/* eta.c: what a queue's facts mean to a waiter; pure, clock injected. */
#include <stdlib.h>

#include "conf.h"
#include "eta.h"

/*
 * bench/eta's error of eta_seconds, estimate / truth - 1, at p10 and p90
 * (at the join and at half the wait together), per mode: the truth lies
 * between eta / (1 + p90) and eta / (1 + p10). bench/README has the runs.
 */
#define ETA_RATE_P10 (-0.12)
#define ETA_RATE_P90 0.11
#define ETA_CAP_P10 (-0.12)
#define ETA_CAP_P90 0.33

/* An ended session's slot is given at the next admission tick, on
 * average half admission.h's ADMISSION_PERIOD_MS later. */
#define ETA_TICK_LAG_MS 125

static long long
ceil_div(long long a, long long b)
{
	return (a + b - 1) / b;
}

/*
 * per places move every interval: batch, or in a rate queue what the
 * line's speed (the facts' rate: batch / interval / the share of the line
 * admitted, lib.lua's line_speed) says, since those who abandon ahead
 * move it too.
 */
static long long
eta_rate(const struct queue_facts *f, long long position, double per)
{
	double cycles = (double)position / per;
	long long whole = (long long)cycles;
	long long ms = (whole + (cycles > (double)whole)) * f->interval * 1000;

	/* in ms, rounded once at the end: whole seconds since the last
	 * admission overstated every wait by half a second (bench/eta) */
	if (f->last_tick_ms > 0 && f->now_ms > f->last_tick_ms)
		ms -= f->now_ms - f->last_tick_ms;
	return ms < 0 ? 0 : (ms + 500) / 1000;
}

/*
 * The end of the j-th session inside to end (0 = soonest), ms after now:
 * known among the soonest, else on the line from the last known one to
 * the latest (the ends between lie about evenly in a busy room).
 */
static double
eta_end(const struct queue_facts *f, long long j)
{
	long long m = f->nends, k = f->active;

	if (j < m)
		return (double)f->ends[j];
	if (f->last_end <= f->ends[m - 1] || k <= m)
		return (double)f->ends[m - 1];
	return (double)f->ends[m - 1] + (double)(f->last_end -
	    f->ends[m - 1]) * (double)(j - m + 1) / (double)(k - m);
}

/*
 * A session due to end in e ms ends sooner when it may end early (a
 * DELETE, a no-show): at an even rate h a ms, on average after about e /
 * (1 + h e / 2) ms (the exact (1 - exp(-h e)) / h to its second term).
 * h comes from the mean session S against active_ttl T, since a whole
 * session ends on average after S = T / (1 + h T / 2): h / 2 = (T - S) /
 * (S T). e as it is when no session ended early (S >= T).
 */
static double
eta_early(const struct queue_facts *f, double e)
{
	double t = (double)f->active_ttl * 1000, s = (double)f->sess_ms;

	if (s <= 0 || t <= 0 || s >= t)
		return e;
	return e / (1 + e * (t - s) / (s * t));
}

/*
 * From the sessions inside: position p waits for the free slots, then
 * for the (p - free)-th end, the next round of ends a mean session after
 * each (the slots turn over in the same order), and so on. Those ahead
 * who abandon leave before their turn: of p places, p * keep are
 * admitted. Exact when nobody abandons and no session ends early.
 */
static long long
eta_known(const struct queue_facts *f, long long position)
{
	double keep = f->keep > 0 && f->keep < 1 ? f->keep : 1, ms;
	double pe = (double)position * keep;
	long long p = (long long)pe + (pe > (double)(long long)pe);
	long long free = f->max_active - f->active, j, rounds;
	double sess = f->sess_ms > 0 ? (double)f->sess_ms :
	    (double)f->active_ttl * 1000;

	p -= free > 0 ? free : 0;
	if (p <= 0)
		return 0;
	j = (p - 1) % f->active;
	rounds = (p - 1) / f->active;
	ms = eta_early(f, eta_end(f, j)) + (double)rounds * sess +
	    ETA_TICK_LAG_MS;
	return (long long)((ms + 500) / 1000);
}

static long long
eta_capacity(const struct queue_facts *f, long long position)
{
	if (f->active > 0 && f->nends > 0)
		return eta_known(f, position);
	if (f->rate > 0) {
		double t = (double)position / f->rate;
		long long whole = (long long)t;

		return whole + (t > (double)whole);
	}
	/* No history yet: every active_ttl, max_active slots turn over. */
	return ceil_div(position, f->max_active) * f->active_ttl;
}

/*
 * A rate queue whose max_active is set: the line moves no faster than
 * max_active sessions every active_ttl (sessions that run their whole
 * time), so the slower of the two binds.
 */
static long long
eta_turnover(const struct queue_facts *f, long long position)
{
	return ceil_div(position * f->active_ttl, f->max_active);
}

static long long
eta_max(long long a, long long b)
{
	return a > b ? a : b;
}

long long
eta_seconds(const struct queue_facts *f, long long position)
{
	int rate_cap = f->batch > 0 && f->interval > 0;
	long long eta;

	if (f->state == STATE_PAUSED || position < 1)
		return -1;
	if (f->mode == MODE_PASSTHROUGH)
		return 0;
	if (f->mode == MODE_CAPACITY) {
		if (f->max_active <= 0)
			return -1;
		eta = eta_capacity(f, position);
		return rate_cap ? eta_max(eta, eta_rate(f, position,
		    (double)f->batch)) : eta;
	}
	if (!rate_cap)
		return -1;
	eta = eta_rate(f, position, f->rate * (double)f->interval >
	    (double)f->batch ? f->rate * (double)f->interval : (double)f->batch);
	if (f->max_active > 0 && f->active_ttl > 0)
		eta = eta_max(eta, eta_turnover(f, position));
	return eta;
}

void
eta_range(const struct queue_facts *f, long long eta, long long *low,
    long long *high)
{
	double p10 = ETA_RATE_P10, p90 = ETA_RATE_P90, hi;

	if (eta < 0) {
		*low = *high = -1;
		return;
	}
	if (f->band_own) {
		p10 = f->band_p10 / 1000.0;
		p90 = f->band_p90 / 1000.0;
	} else if (f->mode == MODE_CAPACITY) {
		p10 = ETA_CAP_P10;
		p90 = ETA_CAP_P90;
	}
	if (p10 <= -0.95)
		p10 = -0.95;	/* a wait twenty times the estimate at most */
	/* both are positive: a cast rounds down */
	*low = (long long)((double)eta / (1 + p90));
	hi = (double)eta / (1 + p10);
	*high = (long long)hi + (hi > (double)(long long)hi);
	if (*low > eta)
		*low = eta;
	if (*high < eta)
		*high = eta;
}

int
eta_band_parse(struct queue_facts *f, const char *text)
{
	char *end;
	long p10, p90, n;

	f->band_own = 0;
	if (text[0] == '\0')
		return 0;
	p10 = strtol(text, &end, 10);
	p90 = strtol(end, &end, 10);
	n = strtol(end, &end, 10);
	if (*end != '\0' || p10 > p90 || p10 < -1000 || p90 > 100000 ||
	    n < 1)
		return -1;
	f->band_own = 1;
	f->band_p10 = (int)p10, f->band_p90 = (int)p90, f->band_n = n;
	return 0;
}

int
eta_ends_parse(struct queue_facts *f, const char *text)
{
	const char *at = text;
	char *end;
	long long e;

	f->nends = 0;
	while (*at == ' ')
		at++;
	while (*at != '\0' && f->nends < ETA_ENDS_MAX) {
		e = strtoll(at, &end, 10);
		if (end == at || (*end != ' ' && *end != '\0') || e < 0 ||
		    (f->nends > 0 && e < f->ends[f->nends - 1]))
			return -1;
		f->ends[f->nends++] = e;
		at = end;
		while (*at == ' ')
			at++;
	}
	return 0;
}
