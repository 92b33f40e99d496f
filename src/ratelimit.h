/*
 * ratelimit.h: join_rate_per_ip, a token bucket per client address: rate
 * tokens a second, a burst of the same size. The table is fixed in size
 * (RATELIMIT_SLOTS addresses), so it never grows with traffic; two
 * addresses that share a slot take turns, the newer one starting with a
 * full bucket. Per process: with N workers or instances an address may
 * join up to N times the rate. Pure: the caller gives the time.
 */
#ifndef WR_RATELIMIT_H
#define WR_RATELIMIT_H

#define RATELIMIT_SLOTS 65536

struct ratelimit;

/* rate 0: no limit (ratelimit_take always says yes). */
struct ratelimit *ratelimit_new(long rate);
void ratelimit_free(struct ratelimit *r);

/*
 * Take one token for addr at now_ms: 0 when there was one, else the
 * seconds (1 or more) until there will be, for Retry-After.
 */
long ratelimit_take(struct ratelimit *r, const char *addr, long long now_ms);

#endif
