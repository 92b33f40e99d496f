/*
 * instance.c: one single-loop instance; see instance.h. Signals are loop
 * events, so no handler runs in signal context.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "admission.h"
#include "api.h"
#include "app.h"
#include "challenge.h"
#include "conf.h"
#include "draw.h"
#include "dispatch.h"
#include "http.h"
#include "hex.h"
#include "instance.h"
#include "join_batch.h"
#include "log.h"
#include "metrics.h"
#include "metrics_share.h"
#include "listener.h"
#include "notify.h"
#include "passkeys.h"
#include "qstore.h"
#include "ratelimit.h"
#include "reload.h"
#include "renewals.h"
#include "revoke.h"
#include "store.h"
#include "streams.h"

/* What the service manager shows: one line. */
static void
announce_status(struct app *app)
{
	notify_status("serving queues=%zu streams=%zu", app->conf->nqueues,
	    streams_count(app->api.streams));
}

/*
 * The marker of Redis's data: a value this instance knew, gone or
 * replaced, means Redis lost every place in line (a restart without
 * persistence, FLUSHALL). The queues are written again all the same.
 */
static void
epoch_done(enum result r, const char *value, int created, void *arg)
{
	struct app *app = arg;

	if (r != RESULT_OK)
		return;
	if (app->epoch[0] && strcmp(app->epoch, value) != 0) {
		log_error("event=store_reset msg=\"Redis came back without its "
		    "data: every place in line and session is lost; run Redis "
		    "with appendonly yes\"");
		metrics_store_reset();
	}
	(void)created;
	snprintf(app->epoch, sizeof app->epoch, "%s", value);
}

static void
epoch_check(struct app *app)
{
	char fresh[33];

	if (hex_random(16, fresh) == -1)
		return;
	qstore_epoch(app->api.qstore, fresh, epoch_done, app);
}

/*
 * The file's queues are in Redis, each scheduled one with its draw's
 * commitment: the instance is ready (/readyz; READY=1 for the service
 * manager, once). Written or refused alike: a refused run wrote nothing,
 * so no schedule is ever seen without its commitment.
 */
static void
queues_written(struct app *app)
{
	app->api.written = 1;
	if (app->api.worker < 0 && !app->said_ready) {
		app->said_ready = 1;
		notify_send("READY=1");
		announce_status(app);
	}
}

static void
queue_written(enum result r, const struct qseeded *s, void *arg)
{
	struct app *app = arg;

	(void)r, (void)s;	/* qstore logged a failure, and what it kept */
	if (app->writing > 0 && --app->writing == 0)
		queues_written(app);
}

/*
 * Write the configured queues into Redis: at first connect the file wins;
 * after a reconnect only a hash Redis lost is written again. The instance
 * is ready once every one of them is answered.
 */
static void
on_store_ready(int first, void *arg)
{
	struct app *app = arg;
	size_t n = app->conf->nqueues;

	epoch_check(app);
	challenge_key_load(app->api.challenge);
	app->api.written = 0;
	app->writing = n;
	for (size_t i = 0; i < n; i++)
		if (draws_write_conf(app->draws, &app->conf->queues[i],
		    first ? "replace" : "missing", queue_written, app) == -1)
			app->writing--;
	if (app->writing == 0)
		queues_written(app);
}

/* A worker tells the supervisor it serves, at start and after a reload. */
static int
tell_serving(struct app *app)
{
	int w = app->api.worker;
	unsigned char tag = (unsigned char)(w < 0 ? 0 : w);

	if (app->ready_fd < 0)
		return 0;
	return write(app->ready_fd, &tag, 1) == 1 ? 0 : -1;
}

static void
on_reload(struct app *app)
{
	/* Before the first READY=1 the manager is still waiting for that. */
	int tell = app->api.worker < 0 && app->said_ready;

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
#define DRAIN_FLUSH_MS 500	/* time for the last words to leave, at most */
#define DRAIN_LOOK_MS 10	/* how often to look whether they have */

/* The last words have left once nobody is connected and Redis owes no
 * answer (the room's leave, a join in flight): the loop need not wait
 * out DRAIN_FLUSH_MS, which every stop of an idle instance paid. */
static void
drain_look(evutil_socket_t fd, short what, void *arg)
{
	struct app *app = arg;

	if (http_connections(app->api.http) == 0 && store_idle(app->api.store))
		event_base_loopbreak(app->base);
}

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
	struct timeval look = { 0, DRAIN_LOOK_MS * 1000 };

	if (sig == SIGHUP) {
		if (!app->api.draining)
			on_reload(app);
		return;
	}
	if (app->api.draining)
		return;
	log_info("event=shutdown signal=%d", (int)sig);
	if (app->api.worker < 0) {
		notify_send("STOPPING=1");
		notify_status("stopping: draining %zu streams",
		    streams_count(app->api.streams));
	}
	app->api.draining = 1;
	console_feed_leave(&app->api);
	http_stop_accepting(app->api.http);
	streams_drain(app->api.streams, DRAIN_RETRY_MS);
	event_base_loopexit(app->base, &tv);
	app->drained = event_new(app->base, -1, EV_PERSIST, drain_look,
	    app);
	if (app->drained != NULL)
		event_add(app->drained, &look);
}

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

	api_metrics_publish(&app->api);
	console_feed_second(&app->api);
	if (app->api.worker < 0 && app->said_ready && !app->api.draining &&
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

/* The parts of the process, each given what it reads; 0, or -1 with err. */
static int
parts_new(struct app *app, int fd, int afd, char *err, size_t errlen)
{
	struct api *a = &app->api;
	const struct http_setup hs = { app->base, &app->conf, app->trusted,
	    dispatch_request, app };
	struct streams_setup ss = { app->base, &app->conf, NULL, NULL, NULL,
	    NULL, &app->passkeys, app->store_opts };

	if ((a->store = store_new(app->base, app->conf->redis, app->store_opts,
	    err, errlen)) == NULL)
		return -1;
	if ((a->qstore = qstore_new(a->store, app->conf->key_prefix)) ==
	    NULL || (a->join_batch = join_batch_new(app->base, a->qstore)) ==
	    NULL || (a->challenge = challenge_key_new(a->qstore)) == NULL ||
	    (app->draws = draws_new(a->qstore)) == NULL || (a->admission =
	    admission_new(app->base, a->qstore, app->draws, app->conf)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if ((a->http = http_new(&hs, fd, afd, err, errlen)) == NULL)
		return -1;
	ss.http = a->http, ss.store = a->store, ss.qstore = a->qstore;
	ss.admission = a->admission;
	if ((a->streams = streams_new(&ss, err, errlen)) == NULL)
		return -1;
	if ((a->feed = console_feed_new(a)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int
serve(struct app *app, int fd, int afd)
{
	struct event *sigs[3] = { NULL, NULL, NULL }, *publisher = NULL;
	const int signums[3] = { SIGINT, SIGTERM, SIGHUP };
	char err[512];
	int rc = 1;

	if (parts_new(app, fd, afd, err, sizeof err) == -1) {
		log_error("event=startup_failed error=\"%s\"", err);
		goto done;
	}
	store_on_ready(app->api.store, on_store_ready, app);
	for (int i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(app->base, signums[i], on_signal,
		    app);
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
	if (app->drained)
		event_free(app->drained);
	console_feed_stop(app->api.feed);
	/* Answers every call still in flight, while requests can be answered. */
	store_free(app->api.store);
	challenge_key_free(app->api.challenge);
	join_batch_free(app->api.join_batch);
	qstore_free(app->api.qstore);
	streams_free(app->api.streams);
	http_free(app->api.http);
	app->api.http = NULL;
	console_feed_free(app->api.feed);
	admission_free(app->api.admission);
	draws_free(app->draws);
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

/* A worker's own sockets on the ports the supervisor bound. */
static int
worker_listen(const struct instance_setup *r, int *fd, int *afd)
{
	char err[512];
	int port;

	*afd = -1;
	if ((*fd = listener_open(r->conf->listen, r->port, 1, 1, &port, err,
	    sizeof err)) == -1)
		goto fail;
	if (r->conf->admin_listen == NULL)
		return 0;
	if ((*afd = listener_open(r->conf->admin_listen, r->admin_port, 1, 1,
	    &port, err, sizeof err)) != -1)
		return 0;
	close(*fd);
fail:
	log_error("event=startup_failed error=\"%s\"", err);
	return -1;
}

/* What the process holds before its parts: from the setup, and its own. */
static int
app_init(struct app *app, const struct instance_setup *r, int worker,
    int ready_fd)
{
	struct api *a = &app->api;

	app->conf = r->conf;
	app->conf_load = r->conf_load;
	app->conf_load_arg = r->conf_load_arg;
	app->passkeys = r->passkeys;
	app->admins = r->admins;
	app->store_opts = r->store_opts;
	app->trusted = r->trusted;
	app->ready_fd = ready_fd;
	a->conf = &app->conf;
	a->passkeys = &app->passkeys;
	a->pages = r->pages;
	a->worker = worker;
	a->ratelimit = r->ratelimit;
	if ((app->base = base_new()) == NULL || (a->revoke = revoke_new()) ==
	    NULL || (a->renewals = renewals_new()) == NULL)
		return -1;
	if (a->ratelimit == NULL && (a->ratelimit =
	    ratelimit_new(r->conf->join_rate_per_ip, 0)) == NULL)
		return -1;
	return 0;
}

static void
app_fini(struct app *app, const struct instance_setup *r)
{
	struct api *a = &app->api;

	if (a->ratelimit != r->ratelimit)
		ratelimit_free(a->ratelimit);
	revoke_free(a->revoke);
	renewals_free(a->renewals);
	if (app->base != NULL)
		event_base_free(app->base);
}

int
instance_run(int worker, int ready_fd, void *arg)
{
	struct instance_setup *r = arg;
	struct app app = { 0 };
	int fd = r->fd, afd = r->admin_fd, rc;

	if (worker >= 0) {
		log_set_tag(worker);
		mshare_use(worker);
		if (worker_listen(r, &fd, &afd) == -1)
			return 1;
	}
	if (app_init(&app, r, worker, ready_fd) == -1) {
		log_error("event=startup_failed error=\"no event base\"");
		app_fini(&app, r);
		return 1;
	}
	log_info("event=listen addr=%s port=%d redis=%s queues=%zu",
	    r->conf->listen, r->port, r->conf->redis, r->conf->nqueues);
	if (afd != -1)
		log_info("event=admin_listen addr=%s port=%d msg=\"the admin "
		    "API is served here only\"", r->conf->admin_listen,
		    r->admin_port);
	rc = serve(&app, fd, afd);
	app_fini(&app, r);
	return rc;
}

