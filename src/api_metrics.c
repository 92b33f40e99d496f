/*
 * api_metrics.c: GET /metrics, the Prometheus text exposition (format
 * 0.0.4): the daemon's counters (metrics.c, added up over the workers by
 * metrics_share.c) and, from one call of lua/admin_show.lua, the figures
 * of every queue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "api.h"
#include "broadcast.h"
#include "figures.h"
#include "http.h"
#include "metrics.h"
#include "metrics_share.h"
#include "store.h"

static struct mshare_live live;	/* large: not on the stack */
static struct mshare_live total;

/* This process's live figures, where the other workers can read them. */
void
api_metrics_publish(struct app *app)
{
	const char *name;
	size_t i, streams;

	live.streams = broadcast_count(app->broadcast);
	live.reconnects_commands = store_reconnects(app->store);
	live.reconnects_subscriber = broadcast_reconnects(app->broadcast);
	for (i = 0; i < MSHARE_QUEUES && broadcast_queue_at(app->broadcast, i,
	    &name, &streams) == 0; i++) {
		snprintf(live.queues[i].name, sizeof live.queues[i].name, "%s",
		    name);
		live.queues[i].streams = streams;
	}
	live.nqueues = i;
	mshare_publish(&live);
}

const struct mshare_live *
api_live_total(struct app *app, struct metrics *m)
{
	api_metrics_publish(app);
	mshare_total(m, &total);
	return &total;
}

static void
metrics_send(struct app *app, struct evhttp_request *req,
    struct metrics_queue *qs, size_t n)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct metrics_process p = { 0 };
	struct metrics m;
	struct strbuf b = { 0 };
	struct evbuffer *buf;

	api_live_total(app, &m);
	p.streams = total.streams;
	p.reconnects_commands = total.reconnects_commands;
	p.reconnects_subscriber = total.reconnects_subscriber;
	p.draining = app->draining;
	for (size_t i = 0; i < n; i++)
		qs[i].streams = mshare_queue_streams(&total, qs[i].name);
	metrics_format(&b, &m, &p, qs, n);
	if (b.oom || (buf = evbuffer_new()) == NULL) {
		strbuf_free(&b);
		http_send_error(req, 500, "internal", "out of memory");
		return;
	}
	evbuffer_add(buf, b.s, b.len);
	strbuf_free(&b);
	evhttp_add_header(out, "Content-Type", "text/plain; version=0.0.4; "
	    "charset=utf-8");
	evhttp_add_header(out, "Cache-Control", "no-store");
	http_observe(req, 200);
	http_reply(req, 200, buf);
	evbuffer_free(buf);
}

static void
metrics_done(struct api_call *c, const redisReply *r)
{
	struct show_call *sc = (struct show_call *)c;
	struct metrics_queue *qs = calloc(sc->n ? sc->n : 1, sizeof *qs);
	size_t n = 0;

	if (qs == NULL || r->type != REDIS_REPLY_ARRAY ||
	    r->elements != sc->n) {
		free(qs);
		http_send_error(c->req, 500, "internal",
		    "the queue store answered something unexpected");
		return;
	}
	for (size_t i = 0; i < sc->n; i++) {
		struct metrics_queue *q = &qs[n];
		struct figures f;
		const char *state;

		if (figures_parse(r->element[i], &f) == -1 || !f.exists)
			continue;
		state = figures_config(&f, "state");
		q->name = sc->names[i];
		q->state = state ? state : "open";
		q->waiting = f.waiting, q->active = f.active;
		q->last_minute = f.last_minute;
		memcpy(q->totals, f.totals, sizeof q->totals);
		n++;
	}
	metrics_send(c->app, c->req, qs, n);
	free(qs);
}

void
api_metrics(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	/* Without Redis, the process's own figures still tell what is wrong. */
	if (!store_is_ready(app->store)) {
		metrics_send(app, req, NULL, 0);
		return;
	}
	api_show_run(app, req, NULL, 0, metrics_done);
}
