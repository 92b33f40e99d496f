/*
 * eta.h: the pure domain of a queue: what its Redis facts mean to a
 * waiter. No I/O; time is passed in, so unit tests inject it.
 */
#ifndef WR_ETA_H
#define WR_ETA_H

/* The most session ends a capacity queue's facts carry (lib.lua's
 * ETA_ENDS, 16: room to grow). */
#define ETA_ENDS_MAX 64

/* What a script reports about a queue, enough to estimate a wait. */
struct queue_facts {
	int mode;		/* enum queue_mode */
	int state;		/* enum queue_state */
	long batch;
	long interval;		/* seconds */
	long max_active;
	long active_ttl;	/* seconds */
	long waiting_ttl;	/* seconds a waiter may go unseen */
	long long now_ms;	/* Redis TIME */
	long long last_tick_ms;	/* last admission; 0: never */
	double rate;		/* how fast the line moves, places a second
				 * (lib.lua's line_speed); 0: unknown */
	/* lib.lua's eta_facts(): */
	double keep;		/* share of the line's leavers admitted (the
				 * rest abandoned); 0: unknown, taken as 1 */
	long long active;	/* capacity: the sessions inside */
	int nends;		/* capacity: how many of ends are known */
	long long ends[ETA_ENDS_MAX];	/* their ends, ms after now_ms,
					 * soonest first */
	long long last_end;	/* the latest end, ms after now_ms; 0: the
				 * ends are all of them (eta_last_end) */
	int band_own;		/* 1: band_p10..90 are the queue's own */
	int band_p10, band_p90;	/* its signed error told / waited - 1 at
				 * p10 and p90, in thousandths */
	long band_n;		/* the admissions they rest on */
	long long early;	/* capacity: sessions that ended before their
				 * active_ttl (a DELETE, a no-show) */
	long long ended_ms;	/* the time all ended sessions were inside */
	long long leavers;	/* the line's leavers so far, admitted and
				 * abandoned: what keep rests on */
	long long head_at;	/* unix ms the line's first joined (about:
				 * the last admitted's join mark); 0: unknown */
	long long ab_ms;	/* the mean age at which abandoners left the
				 * line, ms, of ab_n of them (tick.lua's sweep) */
	long long ab_n;
	long long line;		/* the line's length, when the reply said
				 * it; 0: every place ahead as a joiner's */
};

/*
 * The queue's own band from its facts' band field ("p10 p90 n"): into f,
 * or nothing when the text is empty or not three numbers. 0, -1 when the
 * text is not empty and not that.
 */
int eta_band_parse(struct queue_facts *f, const char *text);

/*
 * The line's ages from its facts' ages field ("head_at sum n": when the
 * line's first joined, unix ms, and the ages at which n abandoners left
 * it, added up, ms) into f's head_at, ab_ms (their mean) and ab_n;
 * zeros when the text is empty. 0, -1 when it is not empty and not
 * three whole numbers.
 */
int eta_ages_parse(struct queue_facts *f, const char *text);

/*
 * The ends field (unix ms, a string of words) into f->ends as ms after
 * f->now_ms (none before it), at most ETA_ENDS_MAX of them, soonest
 * first. 0, or -1 when a word is not a number or they are not in order.
 */
int eta_ends_parse(struct queue_facts *f, const char *text);

/*
 * Seconds until position (1 = next) is admitted; -1 when there is no
 * estimate (a paused queue admits nobody).
 */
long long eta_seconds(const struct queue_facts *f, long long position);

/*
 * The range the wait at this estimate will likely fall in, [*low,
 * *high] seconds (low <= eta <= high, each to the nearest second): the
 * p10 to p90 of the estimate's signed error: bench/eta's for the queue's
 * mode, moved toward the queue's own once it has them (band_own) by
 * band_n / (band_n + 100). -1, -1 when eta is -1.
 */
void eta_range(const struct queue_facts *f, long long eta, long long *low,
    long long *high);

#endif
