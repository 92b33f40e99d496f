/* app.h: what every part of one waitroomd process shares. */
#ifndef WR_APP_H
#define WR_APP_H

#include <stddef.h>

#include <event2/event.h>

struct conf;
struct store;
struct http;
struct admission;
struct streams;
struct qstore;
struct store_opts;
struct pages;
struct passkeys;
struct revoke;
struct renewals;
struct ratelimit;
struct netlist;
struct admins;
struct join_batch;
struct draws;
struct room_feed;

struct app {
	struct event_base *base;
	struct conf *conf;		/* the one in force: read it here */
	struct conf *conf_owned;	/* what a reload made; NULL: main's */
	/* Read the configuration again (file, then command line). */
	int (*conf_load)(struct conf *c, const void *arg, char *err,
	    size_t errlen);
	const void *conf_load_arg;
	struct store *store;		/* the Redis command connection */
	struct qstore *qstore;		/* every script call, typed */
	struct join_batch *join_batch;	/* joins waiting for the end of a pass */
	struct http *http;
	struct admission *admission;
	struct draws *draws;		/* the draws this process drives */
	struct streams *streams;
	struct room_feed *feed;		/* the console's feeds and the report */
	const struct pages *pages;	/* the waiting page's templates */
	const struct admins *admins;	/* NULL: the admin API is off */
	const struct store_opts *store_opts;	/* sentinels, replicas */
	int draining;			/* shutting down: /readyz says 503 */
	struct event *drained;		/* draining: are the last words out? */
	int written;			/* the file's queues (with their draws'
					 * commitments) are in Redis: until
					 * then /readyz says 503 starting */
	size_t writing;			/* config_init calls not answered */
	const struct passkeys *passkeys;	/* NULL: passes are off */
	struct passkeys *passkeys_owned;	/* what a reload read */
	struct revoke *revoke;		/* recent answers about passes */
	struct renewals *renewals;	/* recent renewals of sessions */
	struct ratelimit *ratelimit;	/* join_rate_per_ip */
	const struct netlist *trusted;	/* trusted_proxies; NULL: none */
	int worker;			/* -1: the single process */
	int ready_fd;			/* a worker tells the supervisor here */
	int said_ready;			/* READY=1 went to the service manager */
	char epoch[33];			/* the marker of Redis's data; "": none */
	unsigned char pow_key[32];	/* the challenges' HMAC key */
	int pow_key_ok;			/* read from Redis (challenge.c) */
};

#endif
