/*
 * admission.c: one timer per queue drives lua/tick.lua. A tick is skipped
 * while the previous one is still in flight, so a slow Redis never builds
 * a backlog of ticks.
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

struct tick {
	struct admission *a;
	char queue[CONF_QUEUE_ID_MAX + 1];
	struct event *ev;
	int inflight;
};

struct admission {
	struct app *app;
	struct tick *ticks;
	size_t nticks;
};

static void
tick_schedule(struct tick *t)
{
	/* A tenth of jitter, so instances do not tick in step. */
	long ms = ADMISSION_PERIOD_MS - ADMISSION_PERIOD_MS / 20 +
	    random() % (ADMISSION_PERIOD_MS / 10 + 1);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	evtimer_add(t->ev, &tv);
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

	tick_schedule(t);
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

struct admission *
admission_new(struct app *app)
{
	struct admission *a = calloc(1, sizeof *a);
	const struct conf *c = app->conf;

	if (a == NULL || (c->nqueues > 0 &&
	    (a->ticks = calloc(c->nqueues, sizeof *a->ticks)) == NULL))
		goto fail;
	a->app = app;
	for (size_t i = 0; i < c->nqueues; i++, a->nticks++) {
		struct tick *t = &a->ticks[i];

		t->a = a;
		snprintf(t->queue, sizeof t->queue, "%s", c->queues[i].name);
		if ((t->ev = evtimer_new(app->base, tick_fire, t)) == NULL)
			goto fail;
		tick_schedule(t);
	}
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
	for (size_t i = 0; i < a->nticks; i++)
		if (a->ticks[i].ev)
			event_free(a->ticks[i].ev);
	free(a->ticks);
	free(a);
}
