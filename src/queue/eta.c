/* eta.c: what a queue's facts mean to a waiter; pure, clock injected. */
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

static long long
eta_capacity(const struct queue_facts *f, long long position)
{
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
	if (f->mode == MODE_CAPACITY) {
		p10 = ETA_CAP_P10;
		p90 = ETA_CAP_P90;
	}
	/* both are positive: a cast rounds down */
	*low = (long long)((double)eta / (1 + p90));
	hi = (double)eta / (1 + p10);
	*high = (long long)hi + (hi > (double)(long long)hi);
	if (*low > eta)
		*low = eta;
	if (*high < eta)
		*high = eta;
}
