/* app.h: what every part of one waitroomd process shares. */
#ifndef WR_APP_H
#define WR_APP_H

#include <event2/event.h>

struct conf;
struct store;
struct http;
struct admission;
struct broadcast;
struct pages;
struct passkeys;
struct revoke;
struct ratelimit;
struct netlist;

struct app {
	struct event_base *base;
	struct conf *conf;
	struct store *store;
	struct http *http;
	struct admission *admission;
	struct broadcast *broadcast;
	const struct pages *pages;	/* the waiting page's templates */
	const char *admin_token;	/* NULL: the admin API is off */
	int draining;			/* shutting down: /readyz says 503 */
	const struct passkeys *passkeys;	/* NULL: passes are off */
	struct revoke *revoke;		/* recent answers about passes */
	struct ratelimit *ratelimit;	/* join_rate_per_ip */
	const struct netlist *trusted;	/* trusted_proxies; NULL: none */
};

#endif
