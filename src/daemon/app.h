/*
 * app.h: one waitroomd process, as the daemon holds it: the endpoints'
 * parts (struct api, which names them) and what only the top of the
 * process reads (the configuration's life, readiness, the draws, the
 * marker of Redis's data). Only src/daemon includes it (src/LAYERS).
 */
#ifndef WR_APP_H
#define WR_APP_H

#include <stddef.h>

#include <event2/event.h>

#include "api.h"

struct admins;
struct conf;
struct draws;
struct netlist;
struct passkeys;
struct store_opts;

struct app {
	struct api api;		/* the parts, as the endpoints see them */
	struct event_base *base;	/* the loop */
	struct conf *conf;		/* the one in force: read it here */
	struct conf *conf_owned;	/* what a reload made; NULL: main's */
	/* Read the configuration again (file, then command line). */
	int (*conf_load)(struct conf *c, const void *arg, char *err,
	    size_t errlen);
	const void *conf_load_arg;
	const struct passkeys *passkeys;	/* NULL: passes are off */
	struct passkeys *passkeys_owned;	/* what a reload read */
	struct draws *draws;		/* the draws this process drives */
	const struct admins *admins;	/* NULL: the admin API is off */
	const struct store_opts *store_opts;	/* sentinels, replicas */
	const struct netlist *trusted;	/* trusted_proxies; NULL: none */
	struct event *drained;	/* draining: are the last words out? */
	size_t writing;		/* config_init calls not answered */
	int ready_fd;		/* a worker tells the supervisor here */
	int said_ready;		/* READY=1 went to the service manager */
	char epoch[33];		/* the marker of Redis's data; "": none */
};

#endif
