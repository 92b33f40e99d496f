/*
 * api_console_feed.c: the operator's console's live feed, GET
 * /v1/admin/events (doc/api.md, "The live feed"), and this process's beat
 * to it: each second, what the process serves.
 *
 * Every second (instance.c's publisher) each process writes its beat
 * through room_beat.lua, which also keeps each queue's series. A
 * process with a feed open then reads the room once (room_read.lua),
 * however many feeds it serves, and sends every feed the same `room`
 * event; room.c makes the figures. A feed starts with a `history` event
 * (room_history.lua) and gets `room` events only after it.
 *
 * Lifetime: a feed is freed by its close (the client went away) or by
 * console_feed_stop, unless its history read is in flight: then the read's
 * answer frees it. Reads in flight when the feed holder stops find it
 * stopped and only count themselves out; console_feed_free waits for none,
 * since store_free has answered them all before it runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "admission.h"
#include "api.h"
#include "clock.h"
#include "config.h"
#include "http.h"
#include "http_reply.h"
#include "log.h"
#include "metrics.h"
#include "qstore_room.h"
#include "refusals.h"
#include "room.h"
#include "sse.h"
#include "store.h"
#include "streams.h"

#define FEEDS_MAX 64		/* feeds open on one process */
#define FEED_TIMEOUT_S 60	/* written every second: a dead peer's end */
#define FEED_RETRY_MS 3000
#define FEED_UNSENT_MAX (4 << 20)	/* a console that does not read */
#define HISTORY_S 1800		/* the history event: 30 minutes */
#define NAME_MAX_LEN 65		/* CONF_QUEUE_ID_MAX + 1 */
/* Figures with six significant digits: a rate's 17 tell nothing more. */
#define FEED_JSON (JSON_COMPACT | JSON_REAL_PRECISION(6))

struct feed {
	struct stream st;	/* first: the close callback's argument */
	struct console_feed *holder;
	struct feed *next;
	int ready;		/* its history went out: room events follow */
	int history;		/* its history read is in flight */
	int closed;
};

struct console_feed {
	struct api *api;
	struct feed *feeds;
	size_t nfeeds;
	struct room *room;
	int reading, beating, stopped;
	double beat_ms;	/* the last beat's round trip */
	long long started;	/* unix s */
	char id[128], host[64];
};

/* The names of the queues a read asked for, and what this process knows
 * of each, kept until its answer. */
struct read_call {
	struct console_feed *f;
	struct feed *fd;	/* a history read's feed */
	long long sent_us;
	size_t n;
	const char **names;
	int *pow_bits;
	char (*copies)[NAME_MAX_LEN];
};

static long long
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct console_feed *
console_feed_new(struct api *api)
{
	struct console_feed *f = calloc(1, sizeof *f);

	if (f == NULL)
		return NULL;
	f->api = api;
	f->started = (long long)time(NULL);
	if (gethostname(f->host, sizeof f->host) == -1)
		snprintf(f->host, sizeof f->host, "localhost");
	f->host[sizeof f->host - 1] = '\0';
	snprintf(f->id, sizeof f->id, "%s:%ld", f->host, (long)getpid());
	return f;
}

/* ---- one feed ----------------------------------------------------------- */

static void
feed_unlink(struct console_feed *f, struct feed *fd)
{
	for (struct feed **p = &f->feeds; *p; p = &(*p)->next)
		if (*p == fd) {
			*p = fd->next;
			f->nfeeds--;
			return;
		}
}

enum feed_end { FEED_END, FEED_ABORT, FEED_GONE };

/* The one teardown of a feed; the free waits for its history read. */
static void
feed_close(struct feed *fd, const char *reason, enum feed_end how)
{
	struct console_feed *f = fd->holder;

	if (fd->closed)
		return;
	fd->closed = 1;
	log_debug("event=feed_close reason=\"%s\"", reason);
	feed_unlink(f, fd);
	if (how == FEED_END)
		sse_end(&fd->st, f->api->http);
	else if (how == FEED_ABORT)
		sse_abort(&fd->st, f->api->http);
	else
		sse_gone(&fd->st);
	if (!fd->history)
		free(fd);
}

static void
feed_on_close(struct evhttp_connection *evcon, void *arg)
{
	(void)evcon;
	feed_close(arg, "client gone", FEED_GONE);
}

static void
feed_send(struct feed *fd, const char *event, const char *data)
{
	if (sse_event(&fd->st, event, data, FEED_UNSENT_MAX) == -1)
		feed_close(fd, "slow client", FEED_ABORT);
}

static void read_call_free(struct read_call *rc);

static void
history_done(enum result r, const struct room_series *s, size_t n,
    void *arg)
{
	struct read_call *rc = arg;
	struct feed *fd = rc->fd;
	json_t *j = NULL;
	char *text = NULL;
	long long now_s = wall_ms() / 1000;

	fd->history = 0;
	if (fd->closed) {
		free(fd);
		goto done;
	}
	if (r == RESULT_OK)
		j = room_history(s, rc->names, n, now_s - HISTORY_S, now_s);
	else
		j = json_pack("{s:{}}", "queues");
	if (j == NULL || (text = json_dumps(j, FEED_JSON)) == NULL) {
		feed_close(fd, "out of memory", FEED_ABORT);
		goto done;
	}
	fd->ready = 1;
	feed_send(fd, "history", text);
done:
	free(text);
	json_decref(j);
	read_call_free(rc);
}

/* The queues this process ticks, copied with their proof of work. */
static struct read_call *
read_call_new(struct api *api)
{
	const char *known[4096];
	size_t n = admission_names(api->admission, known, 4096);
	struct read_call *rc = calloc(1, sizeof *rc);
	long ttl;

	if (rc == NULL || (rc->names = calloc(n + 1, sizeof *rc->names)) ==
	    NULL || (rc->pow_bits = calloc(n + 1, sizeof *rc->pow_bits)) ==
	    NULL || (rc->copies = calloc(n + 1, sizeof *rc->copies)) == NULL) {
		if (rc) {
			free(rc->names);
			free(rc->pow_bits);
		}
		free(rc);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(rc->copies[i], NAME_MAX_LEN, "%s", known[i]);
		rc->names[i] = rc->copies[i];
		if (admission_pow(api->admission, known[i], &rc->pow_bits[i],
		    &ttl) == -1)
			rc->pow_bits[i] = -1;
	}
	rc->n = n;
	rc->sent_us = clock_mono_us();
	return rc;
}

static void
read_call_free(struct read_call *rc)
{
	if (rc == NULL)
		return;
	free(rc->copies);
	free(rc->names);
	free(rc->pow_bits);
	free(rc);
}

/* The history of the last 30 minutes, then room events. Without Redis,
 * an empty history at once. */
static void
feed_history(struct console_feed *f, struct feed *fd)
{
	struct read_call *rc = read_call_new(f->api);

	if (rc != NULL && store_is_ready(f->api->store)) {
		rc->f = f, rc->fd = fd;
		fd->history = 1;
		if (qstore_room_history(f->api->qstore, rc->names, rc->n,
		    wall_ms() / 1000 - HISTORY_S, history_done, rc) == 0)
			return;
		fd->history = 0;
	}
	read_call_free(rc);
	fd->ready = 1;
	feed_send(fd, "history", "{\"queues\":{}}");
}

void
api_admin_events(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct console_feed *f = api->feed;
	struct feed *fd;

	(void)m, (void)client;
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		struct stream st = { 0 };

		/* the head the feed would start with, and no feed */
		sse_open(&st, api->http, req, FEED_RETRY_MS, FEED_TIMEOUT_S,
		    NULL);
		sse_end(&st, api->http);
		return;
	}
	if (f == NULL || f->stopped || f->nfeeds >= FEEDS_MAX ||
	    (fd = calloc(1, sizeof *fd)) == NULL) {
		http_send_error(api->http, req, 503, "too_many_streams",
		    "this server cannot open another feed now");
		return;
	}
	fd->holder = f;
	sse_open(&fd->st, api->http, req, FEED_RETRY_MS, FEED_TIMEOUT_S,
	    feed_on_close);
	fd->next = f->feeds, f->feeds = fd, f->nfeeds++;
	log_info("event=feed_open feeds=%zu", f->nfeeds);
	feed_history(f, fd);
}

/* ---- the room, once a second ------------------------------------------- */

static void
feeds_send(struct console_feed *f, json_t *j)
{
	char *text = j ? json_dumps(j, FEED_JSON) : NULL;
	struct feed *fd, *next;

	for (fd = f->feeds; text && fd; fd = next) {
		next = fd->next;
		if (fd->ready)
			feed_send(fd, "room", text);
	}
	free(text);
	json_decref(j);
}

static void
room_done(enum result r, const struct room_read *rr, void *arg)
{
	struct read_call *rc = arg;
	struct console_feed *f = rc->f;
	struct room_local l = { 0 };

	f->reading = 0;
	if (f->stopped || f->feeds == NULL)
		goto done;
	if (r != RESULT_OK || rr == NULL) {
		feeds_send(f, room_event_unreachable(wall_ms()));
		goto done;
	}
	l.latency_ms = (double)(clock_mono_us() - rc->sent_us) / 1000.0;
	l.full = qstore_full(f->api->qstore);
	l.readonly = store_is_readonly(f->api->store);
	l.pow_bits = rc->pow_bits;
	feeds_send(f, room_event(f->room, rr, rc->names, &l));
done:
	read_call_free(rc);
}

static void
room_read(struct console_feed *f)
{
	struct read_call *rc;

	if (f->reading)
		return;
	if (!store_is_ready(f->api->store)) {
		feeds_send(f, room_event_unreachable(wall_ms()));
		return;
	}
	if (f->room == NULL && (f->room = room_new()) == NULL)
		return;
	if ((rc = read_call_new(f->api)) == NULL)
		return;
	rc->f = f;
	f->reading = 1;
	if (qstore_room_read(f->api->qstore, rc->names, rc->n, room_done,
	    rc) == -1) {
		f->reading = 0;
		read_call_free(rc);
		feeds_send(f, room_event_unreachable(wall_ms()));
	}
}

/* ---- this process's beat ------------------------------------------------ */

static json_t *
refused_json(const unsigned long long *refused)
{
	json_t *j = json_object();

	for (int k = 0; j && k < REFUSED_NREASONS; k++)
		json_object_set_new(j, refusals_reason_name(k),
		    json_integer((json_int_t)refused[k]));
	return j;
}

/* Per queue: its streams here, refusals, invitations used and the ETA
 * last told a new waiter, with its position. */
static json_t *
beat_queues(struct api *api)
{
	json_t *qs = json_object();
	const struct refusals_queue *rq;
	const char *name;
	size_t n, streams;

	for (size_t i = 0; qs && streams_queue_at(api->streams, i, &name,
	    &streams) == 0; i++)
		json_object_set_new(qs, name, json_pack("{s:I}", "streams",
		    (json_int_t)streams));
	rq = refusals_queues(&n);
	for (size_t i = 0; qs && i < n; i++) {
		json_t *q = json_object_get(qs, rq[i].name);

		if (q == NULL) {
			q = json_pack("{s:I}", "streams", (json_int_t)0);
			json_object_set_new(qs, rq[i].name, q);
		}
		json_object_set_new(q, "refused", refused_json(rq[i].refused));
		json_object_set_new(q, "invites_used",
		    json_integer((json_int_t)rq[i].invites_used));
		if (rq[i].eta_told >= 0) {
			json_object_set_new(q, "eta_told",
			    json_integer((json_int_t)rq[i].eta_told));
			json_object_set_new(q, "eta_position",
			    json_integer((json_int_t)rq[i].eta_position));
			json_object_set_new(q, "eta_told_ms",
			    json_integer((json_int_t)rq[i].eta_told_ms));
		}
	}
	return qs;
}

static char *
beat_text(struct console_feed *f)
{
	struct api *api = f->api;
	const struct metrics *m = metrics_get();
	const struct refusals_queue *t = refusals_total();
	unsigned long long requests = 0, errors = 0;
	json_t *j;
	char *text;

	for (int r = 0; r < ROUTE_COUNT; r++) {
		for (int c = 0; c < 5; c++)
			requests += m->http[r][c];
		errors += m->http[r][4];
	}
	j = json_pack("{s:s,s:s,s:i,s:o,s:s,s:I,s:I,s:I,s:I,s:I,s:o,s:I,"
	    "s:f,s:s,s:o}", "id", f->id, "host", f->host, "pid", (int)getpid(),
	    "worker", api->worker < 0 ? json_null() : json_integer(api->worker),
	    "version", PACKAGE_VERSION, "started", (json_int_t)f->started,
	    "streams", (json_int_t)streams_count(api->streams),
	    "connections", (json_int_t)http_connections(api->http),
	    "requests", (json_int_t)requests, "errors_5xx", (json_int_t)errors,
	    "refused", refused_json(t->refused),
	    "invites_used", (json_int_t)t->invites_used,
	    "redis_latency_ms", f->beat_ms,
	    "role", store_is_readonly(api->store) ? "replica" : "master",
	    "queues", beat_queues(api));
	text = j ? json_dumps(j, FEED_JSON) : NULL;
	json_decref(j);
	return text;
}

struct beat_call {
	struct console_feed *f;
	long long sent_us;
};

static void
beat_done(enum result r, void *arg)
{
	struct beat_call *rc = arg;

	rc->f->beating = 0;
	if (r == RESULT_OK)
		rc->f->beat_ms = (double)(clock_mono_us() - rc->sent_us) /
		    1000.0;
	free(rc);
}

/* The beat, or with text "" the process's leave. */
static void
beat_send(struct console_feed *f, const char *text)
{
	const char *known[4096];
	size_t n = text[0] ? admission_names(f->api->admission, known,
	    4096) : 0;
	struct beat_call *rc = malloc(sizeof *rc);

	if (rc == NULL)
		return;
	rc->f = f, rc->sent_us = clock_mono_us();
	f->beating = 1;
	if (qstore_room_beat(f->api->qstore, f->id, text, known, n,
	    beat_done, rc) == -1) {
		f->beating = 0;
		free(rc);
	}
}

void
console_feed_second(struct api *api)
{
	struct console_feed *f = api->feed;
	char *text;

	if (f == NULL || f->stopped || api->draining)
		return;
	if (!f->beating && store_is_ready(api->store) &&
	    (text = beat_text(f)) != NULL) {
		beat_send(f, text);
		free(text);
	}
	if (f->feeds)
		room_read(f);
}

void
console_feed_leave(struct api *api)
{
	if (api->feed && store_is_ready(api->store))
		beat_send(api->feed, "");
}

void
console_feed_stop(struct console_feed *f)
{
	if (f == NULL)
		return;
	f->stopped = 1;
	while (f->feeds)
		feed_close(f->feeds, "shutdown", FEED_END);
}

void
console_feed_free(struct console_feed *f)
{
	if (f == NULL)
		return;
	console_feed_stop(f);
	room_free(f->room);
	free(f);
}
