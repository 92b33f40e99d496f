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
	long long now_ms;	/* Redis TIME */
	long long last_tick_ms;	/* last admission; 0: never */
	double rate;		/* measured admissions per second; 0: none yet */
};

/*
 * Seconds until position (1 = next) is admitted; -1 when there is no
 * estimate (a paused queue admits nobody).
 */
long long eta_seconds(const struct queue_facts *f, long long position);

#endif
