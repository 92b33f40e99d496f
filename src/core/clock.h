/*
 * clock.h: the process's one monotonic clock, for durations and
 * deadlines inside a process (latencies, timeouts, backoffs, the age of
 * a read). Wall-clock times (a pass's expiry, a report's timestamps)
 * are not read here: they must agree across hosts and with Redis, so
 * they stay on the realtime clock where they are used.
 */
#ifndef WR_CLOCK_H
#define WR_CLOCK_H

/* CLOCK_MONOTONIC in milliseconds. */
long long clock_mono_ms(void);
/* CLOCK_MONOTONIC in microseconds. */
long long clock_mono_us(void);

#endif
