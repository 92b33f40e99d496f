/*
 * eta.h: the pure domain of a queue: what its Redis facts mean to a
 * waiter. No I/O; time is passed in, so unit tests inject it.
 */
#ifndef WR_ETA_H
#define WR_ETA_H

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
};

/*
 * Seconds until position (1 = next) is admitted; -1 when there is no
 * estimate (a paused queue admits nobody).
 */
long long eta_seconds(const struct queue_facts *f, long long position);

/*
 * The range the wait at this estimate will likely fall in, [*low,
 * *high] seconds (low <= eta <= high): bench/eta's p10 to p90 of the
 * estimate's error for the queue's mode. Nothing when eta is -1.
 */
void eta_range(const struct queue_facts *f, long long eta, long long *low,
    long long *high);

#endif
