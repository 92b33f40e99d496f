/* eta.c: what a queue's facts mean to a waiter; pure, clock injected. */
#include <math.h>
#include <stdlib.h>

#include "conf.h"
#include "eta.h"

/*
 * The default band: bench/eta's error of eta_seconds at the join,
 * estimate / truth - 1, at p10 and p90, per mode: the truth lies between
 * eta / (1 + p90) and eta / (1 + p10). Rate: the first 50 visitors of a
 * run (-8.5% / +8%), widened to hold 80% of them once rounded to whole
 * seconds. Capacity: the band of a wait of one round (a mean session); a
 * wait of r rounds has it divided by sqrt(r), since the sessions that
 * end early make each round's length a chance and a wait of several
 * rounds averages them. One band for all (-12% / +28%) covered 85% of a
 * room's first 30 s and 95% of a settled one (90 s); ETAs of 5-20 s
 * erred -20% / +21%, of 40-80 s -5% / +12%. Fitted on seeds 101-120 (30
 * s) and 6-10 (90 s), 82% and 80% there; bench/README reports 1-5. A
 * queue's own band (band_own) moves it toward its own.
 */
#ifndef ETA_RATE_P10
#define ETA_RATE_P10 (-0.10)
#endif
#ifndef ETA_RATE_P90
#define ETA_RATE_P90 0.10
#endif
#ifndef ETA_CAP_P10
#define ETA_CAP_P10 (-0.20)
#endif
#ifndef ETA_CAP_P90
#define ETA_CAP_P90 0.30
#endif

/*
 * A queue's own band weighs as many of its errors as it rests on (up to
 * lib.lua's 200), the default above as ETA_BAND_PRIOR more: its errors
 * are those of ETAs told a wait earlier, and while the estimate's bias
 * moves (a line growing, then draining) the newest lag it by that wait.
 * In bench/eta's runs of 90 s (seeds 1 to 5) the own band alone covered
 * 65% of a rate queue's waits, the default alone 89%, the two weighed so
 * 82%; since abandonment is counted by age (eta_young), 78%, 91% and 87%
 * (bench/README).
 */
#ifndef ETA_BAND_PRIOR
#define ETA_BAND_PRIOR 100.0
#endif

/*
 * Priors for a capacity room's first minutes, until its own leavers and
 * sessions say more: of a line's leavers, ETA_KEEP_PRIOR are admitted
 * (the rest abandon), weighing as ETA_KEEP_WEIGHT leavers of the room's
 * own; of the round of whole sessions eta_hazard counts as if before the
 * first, ETA_EARLY_PRIOR end early. Without them a room's first waiters
 * were told as if nobody left before their turn, every error too long
 * (bench/eta). Fitted with bench/eta on seeds 101 to 105, reported on 1
 * to 5 (bench/README).
 */
#ifndef ETA_KEEP_PRIOR
#define ETA_KEEP_PRIOR 0.8
#endif
#ifndef ETA_KEEP_WEIGHT
#define ETA_KEEP_WEIGHT 20
#endif
#ifndef ETA_EARLY_PRIOR
#define ETA_EARLY_PRIOR 0.2
#endif

/*
 * Abandonment is counted by age once ETA_AGED_MIN abandoners' ages are
 * known (eta_young): before that, every place ahead as likely to leave
 * as the line's leavers were.
 */
#ifndef ETA_AGED_MIN
#define ETA_AGED_MIN 5
#endif

/* An ended session's slot is given at the next admission tick, on
 * average half admission.h's ADMISSION_PERIOD_MS later. */
#define ETA_TICK_LAG_MS 125

static long long
ceil_div(long long a, long long b)
{
	return (a + b - 1) / b;
}

/*
 * Of the share of the places ahead of position that the line's leavers
 * say will abandon (1 - keep), the part still to come: abandoners leave
 * at ages spread evenly up to twice their mean (ab_ms), and the places
 * ahead are the oldest position - 1 of the line, their ages evenly from
 * the first's (now - head_at) down. A place already older than every
 * abandoner will be admitted. Without its figures, 1: all of it (a line
 * whose waits outgrow the time people give up in was told 6-7% short).
 */
static double
eta_young(const struct queue_facts *f, long long position)
{
	double span = 2.0 * (double)f->ab_ms, head, from, a, b;
	long long ahead = position - 1;

	if (f->ab_n < ETA_AGED_MIN || f->ab_ms <= 0 || f->head_at <= 0 ||
	    ahead <= 0)
		return 1;
	head = f->now_ms > f->head_at ? (double)(f->now_ms - f->head_at) : 0;
	from = f->line > ahead ? head * (1 - (double)ahead / f->line) : 0;
	a = from < span ? from : span;
	b = head < span ? head : span;
	if (head <= from)
		return 1 - a / span;
	/* the mean of 1 - age / span over [from, head], 0 past span */
	return ((b - a) - (b * b - a * a) / (2 * span)) / (head - from);
}

/* keep, the share of leavers admitted, as it applies to the places ahead
 * of position: only the part of the abandonment still to come. */
static double
eta_keep_ahead(const struct queue_facts *f, long long position, double keep)
{
	return 1 - (1 - keep) * eta_young(f, position);
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
 * The time the sessions inside have been in so far, ms: active_ttl less
 * what each has left (the ends beyond the known ones, about evenly up to
 * the latest: their mean).
 */
static double
eta_inside_ms(const struct queue_facts *f)
{
	double t = (double)f->active_ttl * 1000, sum = 0, rest;
	long long more = f->active - f->nends;

	for (int i = 0; i < f->nends; i++)
		sum += t > (double)f->ends[i] ? t - (double)f->ends[i] : 0;
	if (more > 0 && f->nends > 0 && f->last_end > f->ends[f->nends - 1]) {
		rest = ((double)f->ends[f->nends - 1] + (double)f->last_end) / 2;
		sum += (double)more * (t > rest ? t - rest : 0);
	}
	return sum;
}

/*
 * Sessions end early (a DELETE, a no-show) at an even rate h a ms each,
 * measured: the early ends over the time all sessions were inside, those
 * that ended and those still in, and one round of max_active sessions
 * that ran their whole active_ttl, as if before the first: one early end
 * in a room's first seconds is not yet a rate. 0 when none ended early:
 * every session then runs its active_ttl.
 */
static double
eta_hazard(const struct queue_facts *f)
{
	double in = (double)f->ended_ms + eta_inside_ms(f) +
	    (double)f->max_active * (double)f->active_ttl * 1000;
	double early = (double)f->early +
	    ETA_EARLY_PRIOR * (double)f->max_active;

	return early > 0 && in > 0 ? early / in : 0;
}

/*
 * The mean session at that rate: S = T / (1 + h T / 2) of active_ttl T
 * (the exact (1 - exp(-h T)) / h to its second term): the time a slot
 * taken now is held, on average. T when h is 0.
 */
static double
eta_session(const struct queue_facts *f, double h)
{
	double t = (double)f->active_ttl * 1000;

	return t / (1 + h * t / 2);
}

/* The share of the sessions due in e ms that are still inside then. */
static double
eta_stays(double h, double e)
{
	return 1 / (1 + h * e);
}

/*
 * The slots freed by t ms from now (eta_free_at), beyond the m known
 * ends, which freed c: the others' ends lie about evenly from the last
 * known one to the latest (a busy room), each there with its share; and
 * early ends, lam a ms all along.
 */
static double
eta_freed_beyond(const struct queue_facts *f, double h, double c, double t)
{
	double a = (double)f->ends[f->nends - 1], b = (double)f->last_end;
	double lam = h * (double)f->active, upto = t < b ? t : b, n = 0;

	if (b > a && upto > a)
		n = (double)(f->active - f->nends) * (upto - a) / (b - a) *
		    (eta_stays(h, a) + eta_stays(h, upto)) / 2;
	return c + n + lam * t;
}

/*
 * When the q-th slot (1 = the first) is freed, ms from now: at the q-th
 * known end when no session ends early, else sooner: by t, the ends up
 * to t that are still inside then, and the early ends of all, h a ms
 * each. A search among the ends beyond the known ones.
 */
static double
eta_free_at(const struct queue_facts *f, long long q, double h)
{
	double lam = h * (double)f->active, c = 0, e = 0, lo, hi, mid;

	for (int i = 0; i < f->nends; i++) {
		e = (double)f->ends[i];
		if (lam > 0 && c + lam * e >= (double)q)
			return ((double)q - c) / lam;
		c += eta_stays(h, e);
		if (c + lam * e >= (double)q - 1e-9)
			return e;
	}
	if (f->active <= f->nends || f->last_end <= f->ends[f->nends - 1])
		return lam > 0 ? ((double)q - c) / lam : e;
	lo = e, hi = (double)f->last_end;
	if (lam > 0)
		hi += (double)q / lam;
	for (int i = 0; i < 40; i++) {
		mid = (lo + hi) / 2;
		if (eta_freed_beyond(f, h, c, mid) >= (double)q)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/*
 * From the sessions inside: position p waits for the free slots, then
 * for the (p - free)-th slot to be freed (eta_free_at), the rounds after
 * it a mean session apart (a slot freed is taken at once, and freed
 * again that much later: eta_session), and the tick that lets it in. Those ahead who
 * abandon leave before their turn: of p places, p * keep are admitted.
 * Exact when nobody abandons and no session ends early.
 */
static double
eta_keep(const struct queue_facts *f)
{
	double n = f->leavers > 0 ? (double)f->leavers : 0;
	double own = f->keep > 0 && f->keep < 1 ? f->keep : 1;
	double keep = (n * own + ETA_KEEP_WEIGHT * ETA_KEEP_PRIOR) /
	    (n + ETA_KEEP_WEIGHT);

	return keep < 0.5 ? 0.5 : keep;
}

static long long
eta_known(const struct queue_facts *f, long long position)
{
	double keep = eta_keep_ahead(f, position, eta_keep(f)), ms;
	double pe = (double)position * keep;
	long long p = (long long)(pe + 1 - 1e-6);	/* to the whole
						 * above, within a millionth */
	long long free = f->max_active - f->active, j, rounds;
	double h = eta_hazard(f);

	p -= free > 0 ? free : 0;
	if (p <= 0)
		return 0;
	j = (p - 1) % f->active;
	rounds = (p - 1) / f->active;
	ms = eta_free_at(f, j + 1, h) + (double)rounds * eta_session(f, h) +
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

/*
 * The places a rate queue's line moves every interval: batch / keep,
 * keep the share of leavers admitted that its speed (the facts' rate:
 * batch / interval / keep) says, applied to the places ahead as
 * eta_keep_ahead does; batch when the speed says no more (nobody has
 * abandoned, or it is not known yet).
 */
static double
eta_rate_per(const struct queue_facts *f, long long position)
{
	double per = f->rate * (double)f->interval, b = (double)f->batch;

	if (per <= b)
		return b;
	return b / eta_keep_ahead(f, position, b / per);
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
	eta = eta_rate(f, position, eta_rate_per(f, position));
	if (f->max_active > 0 && f->active_ttl > 0)
		eta = eta_max(eta, eta_turnover(f, position));
	return eta;
}

/* How many rounds (mean sessions) a capacity wait of eta seconds is,
 * at least 1. */
static double
eta_rounds(const struct queue_facts *f, long long eta)
{
	double s = f->active_ttl > 0 ? eta_session(f, eta_hazard(f)) : 0;
	double r = s > 0 ? (double)eta * 1000 / s : 1;

	return r > 1 ? r : 1;
}

void
eta_range(const struct queue_facts *f, long long eta, long long *low,
    long long *high)
{
	double p10 = ETA_RATE_P10, p90 = ETA_RATE_P90;

	if (eta < 0) {
		*low = *high = -1;
		return;
	}
	if (f->mode == MODE_CAPACITY) {
		double r = sqrt(eta_rounds(f, eta));

		p10 = ETA_CAP_P10 / r;
		p90 = ETA_CAP_P90 / r;
	}
	if (f->band_own) {
		double own = (double)f->band_n / ((double)f->band_n +
		    ETA_BAND_PRIOR);

		p10 += own * (f->band_p10 / 1000.0 - p10);
		p90 += own * (f->band_p90 / 1000.0 - p90);
	}
	if (p10 <= -0.95)
		p10 = -0.95;	/* a wait twenty times the estimate at most */
	/*
	 * To the nearest second, both positive: floor and ceil widened a
	 * short wait's band by up to a second each side (bench/eta: 90%
	 * of waits in a p10-p90 band, not 80%).
	 */
	*low = (long long)((double)eta / (1 + p90) + 0.5);
	*high = (long long)((double)eta / (1 + p10) + 0.5);
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
eta_ages_parse(struct queue_facts *f, const char *text)
{
	long long v[3];
	const char *at = text;
	char *end;

	f->head_at = f->ab_ms = f->ab_n = 0;
	if (text[0] == '\0')
		return 0;
	for (int i = 0; i < 3; i++) {
		if (*at < '0' || *at > '9')
			return -1;
		v[i] = strtoll(at, &end, 10);
		if (*end != (i < 2 ? ' ' : '\0') || v[i] < 0)
			return -1;
		at = end + 1;
	}
	f->head_at = v[0];
	f->ab_n = v[2];
	f->ab_ms = v[2] > 0 ? v[1] / v[2] : 0;
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
		e = strtoll(at, &end, 10) - f->now_ms;
		if (end == at || (*end != ' ' && *end != '\0') ||
		    (f->nends > 0 && e < f->ends[f->nends - 1]))
			return -1;
		f->ends[f->nends++] = e > 0 ? e : 0;
		at = end;
		while (*at == ' ')
			at++;
	}
	return 0;
}
