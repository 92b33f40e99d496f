/*
 * ratelimit.h: join_rate_per_ip, a token bucket per client address: rate
 * tokens a second, a burst of the same size. The table is fixed in size
 * (RATELIMIT_SLOTS addresses), so it never grows with traffic; two
 * addresses that share a slot take turns, the newer one starting with a
 * full bucket. Shared, the table lives in memory mapped before the
 * workers fork, so one daemon holds an address to the rate whichever
 * worker takes its joins (each instance still counts on its own: N
 * instances allow N times the rate). The caller gives the time.
 */
#ifndef WR_RATELIMIT_H
#define WR_RATELIMIT_H

#define RATELIMIT_SLOTS 65536

struct ratelimit;

/*
 * rate 0: no limit (ratelimit_take always says yes). shared: in memory
 * that processes forked later share.
 */
struct ratelimit *ratelimit_new(long rate, int shared);
void ratelimit_free(struct ratelimit *r);

/*
 * Take one token for addr at now_ms: 0 when there was one, else the
 * seconds (1 or more) until there will be, for Retry-After.
 */
long ratelimit_take(struct ratelimit *r, const char *addr, long long now_ms);

#endif
