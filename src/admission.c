/*
 * admission.c: one timer per queue drives lua/tick.lua. A tick is skipped
 * while the previous one is still in flight, so a slow Redis never builds
 * a backlog of ticks. A queue dropped while its tick is in flight is
 * unlinked at once and freed when the tick's answer comes back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "admission.h"
#include "api.h"
#include "conf.h"
#include "keys.h"
#include "log.h"
#include "store.h"
#include "validate.h"

struct tick {
	struct admission *a;
	char queue[CONF_QUEUE_ID_MAX + 1];
	struct event *ev;
	int inflight;
	int dropped;		/* unlinked; tick_done frees it */
	int listed;		/* in the registry at the last sync */
	struct tick *next;
};

struct admission {
	struct app *app;
	struct tick *ticks;
	struct event *sync;
	int sync_inflight;
	char registry[KEYS_MAX];
};

static void
period_add(struct event *ev)
{
	/* A tenth of jitter, so instances do not tick in step. */
	long ms = ADMISSION_PERIOD_MS - ADMISSION_PERIOD_MS / 20 +
	    random() % (ADMISSION_PERIOD_MS / 10 + 1);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	evtimer_add(ev, &tv);
}

static void
tick_free(struct tick *t)
{
	if (t->ev)
		event_free(t->ev);
	free(t);
}

static long long
tick_num(const redisReply *r, size_t i)
{
	return r->element[i]->type == REDIS_REPLY_INTEGER ?
	    r->element[i]->integer : -1;
}

static void
tick_done(const struct store_result *res, void *arg)
{
	struct tick *t = arg;
	const redisReply *r = res->reply;

	t->inflight = 0;
	if (t->dropped) {
		tick_free(t);
		return;
	}
	if (res->status != STORE_OK) {
		if (res->status == STORE_ERROR)
			log_error("event=tick_failed queue=%s error=\"%s\"",
			    t->queue, res->error ? res->error : "");
		return;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 4)
		return;		/* { 'no_queue' }: not written yet */
	if (tick_num(r, 0) > 0 || tick_num(r, 1) > 0 || tick_num(r, 2) > 0)
		log_info("event=tick queue=%s expired=%lld abandoned=%lld "
		    "admitted=%lld waiting=%lld", t->queue, tick_num(r, 0),
		    tick_num(r, 1), tick_num(r, 2), tick_num(r, 3));
}

static void
tick_fire(evutil_socket_t fd, short what, void *arg)
{
	struct tick *t = arg;
	struct app *app = t->a->app;
	const char *argv[API_QUEUE_KEYS + 2];
	struct queue_keys k;
	char cap[16];

	period_add(t->ev);
	if (t->inflight || !store_is_ready(app->store))
		return;
	api_queue_argv(app, t->queue, &k, argv);
	snprintf(cap, sizeof cap, "%d", ADMISSION_CAP);
	argv[API_QUEUE_KEYS] = k.events;
	argv[API_QUEUE_KEYS + 1] = cap;
	if (store_eval(app->store, LUA_TICK, API_QUEUE_KEYS,
	    API_QUEUE_KEYS + 2, argv, NULL, tick_done, t) == 0)
		t->inflight = 1;
}

static struct tick *
tick_find(const struct admission *a, const char *queue)
{
	for (struct tick *t = a->ticks; t; t = t->next)
		if (strcmp(t->queue, queue) == 0)
			return t;
	return NULL;
}

int
admission_add(struct admission *a, const char *queue)
{
	struct tick *t;

	if ((t = tick_find(a, queue)) != NULL) {
		t->listed = 1;
		return 0;
	}
	if (!valid_queue_id(queue) || (t = calloc(1, sizeof *t)) == NULL)
		return -1;
	t->a = a;
	t->listed = 1;
	snprintf(t->queue, sizeof t->queue, "%s", queue);
	if ((t->ev = evtimer_new(a->app->base, tick_fire, t)) == NULL) {
		free(t);
		return -1;
	}
	t->next = a->ticks;
	a->ticks = t;
	period_add(t->ev);
	log_debug("event=tick_start queue=%s", queue);
	return 0;
}

static void
tick_unlink(struct admission *a, struct tick *t)
{
	struct tick **p = &a->ticks;

	while (*p != t)
		p = &(*p)->next;
	*p = t->next;
	log_debug("event=tick_stop queue=%s", t->queue);
	if (t->inflight) {
		evtimer_del(t->ev);
		t->dropped = 1;
	} else
		tick_free(t);
}

void
admission_remove(struct admission *a, const char *queue)
{
	struct tick *t = tick_find(a, queue);

	if (t)
		tick_unlink(a, t);
}

/* The registry's members: tick the new ones, stop the dropped ones. */
static void
sync_done(const struct store_result *res, void *arg)
{
	struct admission *a = arg;
	const redisReply *r = res->reply;
	struct tick *t, *next;

	a->sync_inflight = 0;
	if (res->status != STORE_OK || r->type != REDIS_REPLY_ARRAY)
		return;
	for (t = a->ticks; t; t = t->next)
		t->listed = 0;
	for (size_t i = 0; i < r->elements; i++)
		if (r->element[i]->type == REDIS_REPLY_STRING)
			admission_add(a, r->element[i]->str);
	for (t = a->ticks; t; t = next) {
		next = t->next;
		if (!t->listed)
			tick_unlink(a, t);
	}
}

static void
sync_fire(evutil_socket_t fd, short what, void *arg)
{
	struct admission *a = arg;
	const char *argv[] = { "SMEMBERS", a->registry };

	period_add(a->sync);
	if (a->sync_inflight || !store_is_ready(a->app->store))
		return;
	if (store_command(a->app->store, 2, argv, NULL, sync_done, a) == 0)
		a->sync_inflight = 1;
}

struct admission *
admission_new(struct app *app)
{
	struct admission *a = calloc(1, sizeof *a);
	const struct conf *c = app->conf;

	if (a == NULL)
		return NULL;
	a->app = app;
	keys_registry(a->registry, c->key_prefix);
	if ((a->sync = evtimer_new(app->base, sync_fire, a)) == NULL)
		goto fail;
	period_add(a->sync);
	for (size_t i = 0; i < c->nqueues; i++)
		if (admission_add(a, c->queues[i].name) == -1)
			goto fail;
	return a;
fail:
	admission_free(a);
	return NULL;
}

void
admission_free(struct admission *a)
{
	if (a == NULL)
		return;
	while (a->ticks) {
		struct tick *t = a->ticks;

		a->ticks = t->next;
		tick_free(t);
	}
	if (a->sync)
		event_free(a->sync);
	free(a);
}

static int
name_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

size_t
admission_names(const struct admission *a, const char **names, size_t max)
{
	size_t n = 0;

	for (const struct tick *t = a->ticks; t && n < max; t = t->next)
		names[n++] = t->queue;
	qsort(names, n, sizeof *names, name_cmp);
	return n;
}
