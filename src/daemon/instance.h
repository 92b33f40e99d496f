/*
 * instance.h: one single-loop instance of waitroomd: a worker, or the
 * whole daemon when workers = 1. It builds the app (store, queue store,
 * HTTP server, streams, admission), serves until a signal ends the loop,
 * and handles the signals on the loop: SIGHUP reloads, SIGINT and SIGTERM
 * drain. main.c keeps the command line and the start.
 */
#ifndef WR_INSTANCE_H
#define WR_INSTANCE_H

#include "reload.h"

struct conf;
struct pages;
struct passkeys;
struct ratelimit;
struct netlist;
struct admins;

/* What an instance needs from main: the configuration and the socket. */
struct instance_setup {
	struct conf *conf;
	struct conf *conf_owned;	/* the supervisor's reloaded one */
	const struct pages *pages;
	const struct passkeys *passkeys;	/* NULL: passes are off */
	struct passkeys *passkeys_owned;	/* the supervisor's reloaded */
	struct ratelimit *ratelimit;	/* workers: shared by all; else NULL */
	const struct netlist *trusted;		/* trusted_proxies */
	reload_load_fn *conf_load;	/* reads the configuration again */
	const void *conf_load_arg;
	const char *port_file;		/* NULL: none */
	const struct admins *admins;	/* NULL: the admin API is off */
	const struct store_opts *store_opts;	/* sentinels, replicas */
	int port;
	int fd;		/* single process: the listening socket, else -1 */
	int admin_port;	/* admin_listen's, once bound */
	int admin_fd;	/* single process: admin_listen's socket, else -1 */
};

/*
 * Run an instance (worker -1: the single process) of setup (a struct
 * instance_setup) until it stops; its exit status. ready_fd: where a
 * worker tells the supervisor it serves (-1: none).
 */
int instance_run(int worker, int ready_fd, void *setup);

#endif
