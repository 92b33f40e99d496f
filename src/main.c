/*
 * main.c: waitroomd's command line, startup and shutdown. One process, one
 * event loop: signals are loop events, so no handler runs in signal context.
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

#include "admission.h"
#include "app.h"
#include "api.h"
#include "auth.h"
#include "broadcast.h"
#include "conf.h"
#include "config.h"
#include "http.h"
#include "joins.h"
#include "log.h"
#include "notify.h"
#include "reload.h"
#include "seed.h"
#include "listener.h"
#include "page.h"
#include "clientaddr.h"
#include "metrics_share.h"
#include "passkeys.h"
#include "ratelimit.h"
#include "revoke.h"
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

/* One line a key: its name and where it goes (global, queue or both). */
static void
list_keys(void)
{
	const char *name, *scope;

	for (size_t i = 0; (name = conf_key_at(i, &scope)) != NULL; i++)
		printf("%s %s\n", name, scope);
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

/* What the service manager shows: one line. */
static void
announce_status(struct app *app)
{
	notify_status("serving queues=%zu streams=%zu", app->conf->nqueues,
	    broadcast_count(app->broadcast));
}

/*
 * Write the configured queues into Redis: at first connect the file wins;
 * after a reconnect only a hash Redis lost is written again. The single
 * process is ready once it listens and Redis answers.
 */
static void
on_store_ready(int first, void *arg)
{
	struct app *app = arg;

	seed_all(app, first ? "replace" : "missing");
	if (first && app->worker < 0) {
		app->said_ready = 1;
		notify_send("READY=1");
		announce_status(app);
	}
}

/* A worker tells the supervisor it serves, at start and after a reload. */
static int
tell_serving(struct app *app)
{
	unsigned char tag = (unsigned char)(app->worker < 0 ? 0 : app->worker);

	if (app->ready_fd < 0)
		return 0;
	return write(app->ready_fd, &tag, 1) == 1 ? 0 : -1;
}

static void
on_reload(struct app *app)
{
	/* Before the first READY=1 the manager is still waiting for that. */
	int tell = app->worker < 0 && app->said_ready;

	log_info("event=sighup msg=\"reloading the configuration\"");
	if (tell)
		notify_reloading();
	reload_run(app);
	if (tell) {
		notify_send("READY=1");
		announce_status(app);
	}
	tell_serving(app);
}

#define DRAIN_RETRY_MS 1000	/* streams come back this soon, elsewhere */
#define DRAIN_FLUSH_MS 500	/* time for the last words to leave */

/*
 * Stop accepting, tell every stream to come back (to another instance,
 * with the same token and place), end them, and leave the loop once the
 * last words had time to leave.
 */
static void
on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct app *app = arg;
	struct timeval tv = { 0, DRAIN_FLUSH_MS * 1000 };

	if (sig == SIGHUP) {
		if (!app->draining)
			on_reload(app);
		return;
	}
	if (app->draining)
		return;
	log_info("event=shutdown signal=%d", (int)sig);
	if (app->worker < 0) {
		notify_send("STOPPING=1");
		notify_status("stopping: draining %zu streams",
		    broadcast_count(app->broadcast));
	}
	app->draining = 1;
	http_stop_accepting(app->http);
	broadcast_drain(app->broadcast, DRAIN_RETRY_MS);
	event_base_loopexit(app->base, &tv);
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

/* What a worker needs from main: the configuration and the socket. */
struct run {
	struct conf *conf;
	struct conf *conf_owned;	/* the supervisor's reloaded one */
	const struct pages *pages;
	const struct passkeys *passkeys;	/* NULL: passes are off */
	struct passkeys *passkeys_owned;	/* the supervisor's reloaded */
	struct ratelimit *ratelimit;	/* workers: shared by all; else NULL */
	const struct netlist *trusted;		/* trusted_proxies */
	const struct opts *opts;
	const char *admin_token;	/* NULL: the admin API is off */
	int port;
	int fd;		/* single process: the listening socket, else -1 */
};

/* A worker starts with them blocked; now that the loop handles them. */
static void
unblock_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

#define STATUS_EVERY 5	/* seconds between STATUS= lines */

/*
 * Each second: a worker tells the others its live figures (metrics); the
 * single process tells the service manager what it serves, every
 * STATUS_EVERY seconds (with workers, the supervisor does).
 */
static void
on_publish(evutil_socket_t fd, short what, void *arg)
{
	static unsigned ticks;
	struct app *app = arg;

	api_metrics_publish(app);
	if (app->worker < 0 && app->said_ready && !app->draining &&
	    ++ticks % STATUS_EVERY == 0)
		announce_status(app);
}

static struct event *
publisher_new(struct app *app)
{
	const struct timeval second = { 1, 0 };
	struct event *ev;

	ev = event_new(app->base, -1, EV_PERSIST, on_publish, app);
	if (ev && event_add(ev, &second) == -1) {
		event_free(ev);
		return NULL;
	}
	return ev;
}

static int
serve(struct app *app, int fd)
{
	struct event *sigs[3] = { NULL, NULL, NULL }, *publisher = NULL;
	const int signums[3] = { SIGINT, SIGTERM, SIGHUP };
	char err[512];
	int rc = 1;

	if ((app->store = store_new(app->base, app->conf->redis, err,
	    sizeof err)) == NULL || (app->joins = joins_new(app)) == NULL ||
	    (app->http = http_new(app, fd, err,
	    sizeof err)) == NULL || (app->broadcast = broadcast_new(app, err,
	    sizeof err)) == NULL) {
		log_error("event=startup_failed error=\"%s\"", err);
		goto done;
	}
	store_on_ready(app->store, on_store_ready, app);
	if ((app->admission = admission_new(app)) == NULL) {
		log_error("event=startup_failed error=\"out of memory\"");
		goto done;
	}
	for (int i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(app->base, signums[i], on_signal, app);
		if (sigs[i] == NULL || event_add(sigs[i], NULL) == -1)
			goto done;
	}
	publisher = publisher_new(app);
	unblock_signals();
	if (tell_serving(app) == -1)
		goto done;
	rc = event_base_dispatch(app->base) == -1;
done:
	for (int i = 0; i < 3; i++)
		if (sigs[i])
			event_free(sigs[i]);
	if (publisher)
		event_free(publisher);
	/* Answers every call still in flight, while requests can be answered. */
	store_free(app->store);
	joins_free(app->joins);
	broadcast_free(app->broadcast);
	http_free(app->http);
	admission_free(app->admission);
	if (app->conf_owned) {
		conf_free(app->conf_owned);
		free(app->conf_owned);
	}
	passkeys_free(app->passkeys_owned);
	return rc;
}

/*
 * The loop. With the epoll changelist, an event turned off and on again
 * within one pass (evhttp does this for every keep-alive request) costs
 * no epoll_ctl call.
 */
static struct event_base *
base_new(void)
{
	struct event_config *cfg = event_config_new();
	struct event_base *base;

	if (cfg == NULL)
		return NULL;
	event_config_set_flag(cfg, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
	base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	return base;
}

/* One single-loop instance: a worker, or the whole daemon when workers=1. */
static int
run_instance(int worker, int ready_fd, void *arg)
{
	struct run *r = arg;
	struct app app = { 0 };
	char err[512];
	int fd = r->fd, port, rc;

	if (worker >= 0) {
		log_set_tag(worker);
		mshare_use(worker);
		fd = listener_open(r->conf->listen, r->port, 1, 1, &port, err,
		    sizeof err);
		if (fd == -1) {
			log_error("event=startup_failed error=\"%s\"", err);
			return 1;
		}
	}
	app.conf = r->conf;
	app.pages = r->pages;
	app.admin_token = r->admin_token;
	app.conf_load = load_conf;
	app.conf_load_arg = r->opts;
	app.worker = worker;
	app.ready_fd = ready_fd;
	app.passkeys = r->passkeys;
	app.trusted = r->trusted;
	app.ratelimit = r->ratelimit;
	if ((app.base = base_new()) == NULL ||
	    (app.revoke = revoke_new()) == NULL || (app.ratelimit == NULL &&
	    (app.ratelimit = ratelimit_new(r->conf->join_rate_per_ip, 0)) ==
	    NULL)) {
		revoke_free(app.revoke);
		log_error("event=startup_failed error=\"no event base\"");
		if (app.base)
			event_base_free(app.base);
		return 1;
	}
	log_info("event=listen addr=%s port=%d redis=%s queues=%zu",
	    r->conf->listen, r->port, r->conf->redis, r->conf->nqueues);
	rc = serve(&app, fd);
	if (app.ratelimit != r->ratelimit)
		ratelimit_free(app.ratelimit);
	revoke_free(app.revoke);
	event_base_free(app.base);
	return rc;
}

static void
announce_port(void *arg)
{
	struct run *r = arg;

	if (r->opts->port_file && write_port_file(r->opts->port_file,
	    r->port) == -1)
		log_error("event=port_file_failed file=%s error=\"%s\"",
		    r->opts->port_file, strerror(errno));
}

/*
 * The supervisor reads the file too at SIGHUP, quietly (its workers log),
 * so a worker it starts later serves the configuration in force.
 */
static void
workers_hup(void *arg)
{
	struct run *r = arg;
	struct conf *fresh = calloc(1, sizeof *fresh);
	struct passkeys *k = NULL;
	char err[CONF_ERR_MAX];

	if (fresh == NULL || load_conf(fresh, r->opts, err, sizeof err) == -1 ||
	    reload_passkeys(r->conf->pass_key_file, &k, 0) == -1) {
		if (fresh)
			conf_free(fresh);
		free(fresh);
		return;
	}
	reload_keep_fixed(fresh, r->conf, 0);
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
	struct run *r = arg;

	mshare_total(NULL, &live);
	notify_status("serving workers=%ld queues=%zu streams=%lu",
	    worker_count(r->conf), r->conf->nqueues, live.streams);
}

/*
 * workers = 1: this process serves. More: it binds the port without
 * listening (so port 0 resolves once and the port stays ours), then
 * supervises workers that each listen on it with SO_REUSEPORT.
 */
static int
start(struct run *r)
{
	struct conf *c = r->conf;
	long n = worker_count(c);
	char err[512];
	int fd, rc;

	fd = listener_open(c->listen, -1, n > 1, n == 1, &r->port, err,
	    sizeof err);
	if (fd == -1) {
		log_error("event=startup_failed error=\"%s\"", err);
		return 1;
	}
	if (n == 1) {
		r->fd = fd;
		announce_port(r);
		return run_instance(-1, -1, r);
	}
	if (mshare_map((int)n) == -1)
		log_warn("event=metrics_unshared error=\"%s\" msg=\"each "
		    "worker's /metrics tells only its own figures\"",
		    strerror(errno));
	/* One join_rate_per_ip for the daemon, whichever worker answers. */
	if ((r->ratelimit = ratelimit_new(c->join_rate_per_ip, 1)) == NULL)
		log_warn("event=ratelimit_unshared msg=\"each worker limits "
		    "joins on its own\"");
	rc = supervise((int)n, run_instance, r, workers_ready, workers_hup,
	    workers_status);
	ratelimit_free(r->ratelimit);
	mshare_unmap();
	close(fd);
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
	struct run r = { .conf = &c, .opts = &o, .fd = -1 };
	struct pages *pages = NULL;
	struct passkeys *k = NULL;
	struct netlist *trusted = NULL;
	char token[AUTH_TOKEN_MAX + 1], err[CONF_ERR_MAX];
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
	if ((c.admin_token_file && auth_token_load(c.admin_token_file, token,
	    err, sizeof err) == -1) ||
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
	r.admin_token = c.admin_token_file ? token : NULL;
	rc = start(&r);
done:
	netlist_free(trusted);
	passkeys_free(k);
	pages_free(pages);
	conf_free(&c);
	return rc;
}
