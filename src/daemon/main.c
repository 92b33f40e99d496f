/*
 * main.c: waitroomd's command line and start: read and check the
 * configuration, bind the port, then run one instance (instance.c) or
 * supervise workers that each run one (supervisor.c).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "admins.h"
#include "auth.h"
#include "netlist.h"
#include "conf.h"
#include "config.h"
#include "instance.h"
#include "listener.h"
#include "log.h"
#include "metrics_share.h"
#include "notify.h"
#include "page.h"
#include "passkeys.h"
#include "ratelimit.h"
#include "reload.h"
#include "store.h"
#include "supervisor.h"

#define DEFAULT_CONFIG SYSCONFDIR "/waitroom.conf"

struct opts {
	const char *config;
	const char *listen;
	const char *redis;
	const char *log_level;
	const char *port_file;
	int check_only;
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: waitroomd [options]\n"
	    "  --config FILE      configuration file (default %s)\n"
	    "  --listen ADDR:PORT address to serve HTTP on (port 0: any free)\n"
	    "  --redis ADDR       Redis as host:port or unix:/path\n"
	    "  --port-file FILE   write the port we listen on to FILE\n"
	    "  --log-level LEVEL  debug, info, warn or error\n"
	    "  --check-config     validate the configuration and exit\n"
	    "  --list-keys        print the configuration keys and exit\n"
	    "  --version          print the version and exit\n"
	    "  --help             print this help and exit\n",
	    DEFAULT_CONFIG);
}

/*
 * One line a key: its name, where it goes (global, queue or both) and
 * whether a reload changes it (reloads) or only a restart (restart).
 */
static void
list_keys(void)
{
	const char *name, *scope;
	int restart;

	for (size_t i = 0; (name = conf_key_at(i, &scope, &restart)) != NULL;
	    i++)
		printf("%s %s %s\n", name, scope, restart ? "restart" :
		    "reloads");
}

/* 0: go on, 1: exit 0 (help, version), -1: exit 2 (usage error). */
static int
parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "listen", required_argument, NULL, 'l' },
		{ "redis", required_argument, NULL, 'r' },
		{ "port-file", required_argument, NULL, 'p' },
		{ "log-level", required_argument, NULL, 'L' },
		{ "check-config", no_argument, NULL, 'k' },
		{ "list-keys", no_argument, NULL, 'K' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	while ((ch = getopt_long(argc, argv, "c:l:r:p:L:kVh", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c': o->config = optarg; break;
		case 'l': o->listen = optarg; break;
		case 'r': o->redis = optarg; break;
		case 'p': o->port_file = optarg; break;
		case 'L': o->log_level = optarg; break;
		case 'k': o->check_only = 1; break;
		case 'K': list_keys(); return 1;
		case 'V': printf("waitroomd %s\n", PACKAGE_VERSION); return 1;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "waitroomd: unexpected argument '%s'\n",
		    argv[optind]);
		return -1;
	}
	return 0;
}

/* The file, then the command line over it, with the same rules. */
static int
load_conf(struct conf *c, const void *arg, char *err, size_t errlen)
{
	const struct opts *o = arg;
	const char *path = o->config ? o->config : DEFAULT_CONFIG;
	const char *flags[][2] = { { "listen", o->listen },
	    { "redis", o->redis }, { "log_level", o->log_level } };
	char why[CONF_ERR_MAX];

	conf_init(c);
	if (o->config || access(path, F_OK) == 0) {
		if (conf_load_file(c, path, err, errlen) == -1)
			return -1;
	}
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		if (flags[i][1] == NULL)
			continue;
		if (conf_global_set(c, flags[i][0], flags[i][1], why,
		    sizeof why) == -1) {
			snprintf(err, errlen, "--%s: %s", flags[i][0], why);
			return -1;
		}
	}
	return 0;
}

/* As many descriptors as the hard limit allows: every stream holds one. */
static void
raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_cur == rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
		log_warn("event=rlimit_nofile error=\"%s\"", strerror(errno));
}

static int
write_port_file(const char *path, int port)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL)
		return -1;
	fprintf(f, "%d\n", port);
	if (fclose(f) != 0)
		return -1;
	return rename(tmp, path);	/* readers never see half a file */
}

static void
announce_port(void *arg)
{
	struct instance_setup *r = arg;

	if (r->port_file && write_port_file(r->port_file,
	    r->port) == -1)
		log_error("event=port_file_failed file=%s error=\"%s\"",
		    r->port_file, strerror(errno));
}

/*
 * The supervisor reads the file too at SIGHUP, quietly (its workers log),
 * so a worker it starts later serves the configuration in force.
 */
static void
workers_hup(void *arg)
{
	struct instance_setup *r = arg;
	struct passkeys *k;
	struct conf *fresh;

	if (reload_read(r->conf, r->conf_load, r->conf_load_arg, 0, &fresh,
	    &k) == -1)
		return;
	if (r->conf_owned) {
		conf_free(r->conf_owned);
		free(r->conf_owned);
	}
	r->conf = r->conf_owned = fresh;
	if (k) {
		passkeys_free(r->passkeys_owned);
		r->passkeys = r->passkeys_owned = k;
	}
}

/* Every worker serves: the port file, and the service manager hears it. */
static void
workers_ready(void *arg)
{
	announce_port(arg);
	notify_send("READY=1");
}

static long
worker_count(const struct conf *c)
{
	long n = c->workers > 0 ? c->workers : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n;
}

/* What the service manager shows, for every worker at once. */
static void
workers_status(void *arg)
{
	static struct mshare_live live;	/* large: not on the stack */
	struct instance_setup *r = arg;

	mshare_total(NULL, &live);
	notify_status("serving workers=%ld queues=%zu streams=%lu",
	    worker_count(r->conf), r->conf->nqueues, live.streams);
}

/*
 * The sockets of listen and admin_listen (*afd -1 when it is not set),
 * as start() says; -1 after logging why.
 */
static int
bind_ports(struct instance_setup *r, long n, int *fd, int *afd)
{
	const struct conf *c = r->conf;
	char err[512];

	*afd = -1;
	if ((*fd = listener_open(c->listen, -1, n > 1, n == 1, &r->port, err,
	    sizeof err)) == -1)
		goto fail;
	if (c->admin_listen == NULL)
		return 0;
	if ((*afd = listener_open(c->admin_listen, -1, n > 1, n == 1,
	    &r->admin_port, err, sizeof err)) == -1) {
		close(*fd);
		goto fail;
	}
	if (r->admin_port != r->port)
		return 0;
	/* Workers bind both with SO_REUSEPORT: one port would be shared. */
	snprintf(err, sizeof err, "admin_listen must be another port than "
	    "listen's (%d)", r->port);
	close(*fd);
	close(*afd);
fail:
	log_error("event=startup_failed error=\"%s\"", err);
	return -1;
}

/*
 * workers = 1: this process serves. More: it binds the ports without
 * listening (so port 0 resolves once and the ports stay ours), then
 * supervises workers that each listen on them with SO_REUSEPORT.
 */
static int
start(struct instance_setup *r)
{
	struct conf *c = r->conf;
	long n = worker_count(c);
	int fd, afd, rc;

	if (bind_ports(r, n, &fd, &afd) == -1)
		return 1;
	if (n == 1) {
		r->fd = fd;
		r->admin_fd = afd;
		announce_port(r);
		return instance_run(-1, -1, r);
	}
	if (mshare_map((int)n) == -1)
		log_warn("event=metrics_unshared error=\"%s\" msg=\"each "
		    "worker's /metrics tells only its own figures\"",
		    strerror(errno));
	/* One join_rate_per_ip for the daemon, whichever worker answers. */
	if ((r->ratelimit = ratelimit_new(c->join_rate_per_ip, 1)) == NULL)
		log_warn("event=ratelimit_unshared msg=\"each worker limits "
		    "joins on its own\"");
	rc = supervise((int)n, instance_run, r, workers_ready, workers_hup,
	    workers_status);
	ratelimit_free(r->ratelimit);
	mshare_unmap();
	close(fd);
	if (afd != -1)
		close(afd);
	if (r->conf_owned) {
		conf_free(r->conf_owned);
		free(r->conf_owned);
	}
	passkeys_free(r->passkeys_owned);
	return rc;
}

/* The pass keys when pass_key_file is set; -1 after saying what is wrong. */
static int
load_passkeys(const struct conf *c, struct passkeys **k)
{
	char err[CONF_ERR_MAX];

	*k = NULL;
	if (c->pass_key_file == NULL)
		return 0;
	if ((*k = passkeys_load_file(c->pass_key_file, err, sizeof err)) ==
	    NULL) {
		fprintf(stderr, "waitroomd: pass_key_file: %s\n", err);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct conf c;
	struct instance_setup r = { .conf = &c, .conf_load = load_conf,
	    .conf_load_arg = &o, .fd = -1, .admin_fd = -1 };
	struct pages *pages = NULL;
	struct passkeys *k = NULL;
	struct netlist *trusted = NULL;
	struct admins *admins = NULL;
	char err[CONF_ERR_MAX];
	char sentinel_pw[AUTH_TOKEN_MAX + 1];
	struct store_opts so = { NULL, 0 };
	int rc, bad;

	if ((rc = parse_args(argc, argv, &o)) != 0)
		return rc == 1 ? 0 : 2;
	rc = 1;
	if (load_conf(&c, &o, err, sizeof err) == -1) {
		fprintf(stderr, "waitroomd: %s\n", err);
		goto done;
	}
	if (load_passkeys(&c, &k) == -1)
		goto done;
	if ((c.admin_token_file && (admins = admins_load(c.admin_token_file,
	    err, sizeof err)) == NULL) || (c.sentinel_password_file &&
	    auth_secret_load("sentinel_password_file", c.sentinel_password_file,
	    sentinel_pw, err, sizeof err) == -1) ||
	    (pages = pages_new(&c, err, sizeof err)) == NULL) {
		fprintf(stderr, "waitroomd: %s\n", err);
		goto done;
	}
	if (o.check_only) {
		printf("waitroomd: configuration ok (%zu queues%s)\n",
		    c.nqueues, k ? ", entry passes on" : "");
		rc = 0;
		goto done;
	}
	log_set_level(c.log_level);
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	srandom((unsigned)time(NULL) ^ (unsigned)getpid());
	trusted = netlist_parse(c.trusted_proxies, &bad, NULL, 0);
	r.pages = pages, r.passkeys = k, r.trusted = trusted;
	r.port_file = o.port_file;
	r.admins = admins;
	so.sentinel_password = c.sentinel_password_file ? sentinel_pw : NULL;
	so.wait_replicas = c.redis_wait_replicas;
	r.store_opts = &so;
	rc = start(&r);
done:
	admins_free(admins);
	netlist_free(trusted);
	passkeys_free(k);
	pages_free(pages);
	conf_free(&c);
	return rc;
}

