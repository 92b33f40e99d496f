/* eta.c: what a queue's facts mean to a waiter; pure, clock injected. */
#include "conf.h"
#include "eta.h"

static long long
ceil_div(long long a, long long b)
{
	return (a + b - 1) / b;
}

static long long
eta_rate(const struct queue_facts *f, long long position)
{
	long long eta = ceil_div(position, f->batch) * f->interval;
	long long since;

	if (f->last_tick_ms > 0 && f->now_ms > f->last_tick_ms) {
		since = (f->now_ms - f->last_tick_ms) / 1000;
		eta -= since;
	}
	return eta < 0 ? 0 : eta;
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
		return rate_cap ? eta_max(eta, eta_rate(f, position)) : eta;
	}
	if (!rate_cap)
		return -1;
	eta = eta_rate(f, position);
	if (f->max_active > 0 && f->active_ttl > 0)
		eta = eta_max(eta, eta_turnover(f, position));
	return eta;
}
