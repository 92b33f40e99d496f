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

#include "admission.h"
#include "api.h"
#include "admin_view.h"
#include "streams.h"
#include "http_reply.h"
#include "metrics.h"
#include "metrics_share.h"
#include "qstore.h"
#include "route.h"
#include "store.h"

_Static_assert(ROUTE_COUNT <= METRICS_ROUTES, "metrics.h counts fewer routes "
    "than routes.def has");

_Static_assert(METRICS_NTOTALS == SHOW_NTOTALS,
    "metrics.h's METRICS_NTOTALS is not figures.h's SHOW_NTOTALS");

static struct mshare_live live;	/* large: not on the stack */
static struct mshare_live total;

/* This process's live figures, where the other workers can read them. */
void
api_metrics_publish(struct api *api)
{
	const char *name;
	size_t i, streams;

	live.streams = streams_count(api->streams);
	live.connections = http_connections(api->http);
	live.streams_max = streams_max(api->streams);
	live.reconnects_commands = store_reconnects(api->store);
	live.reconnects_subscriber = streams_reconnects(api->streams);
	live.store_full = qstore_full(api->qstore);
	live.store_replicas_short = store_is_ready(api->store) &&
	    store_replicas_short(api->store);
	for (i = 0; i < MSHARE_QUEUES && streams_queue_at(api->streams, i,
	    &name, &streams) == 0; i++) {
		snprintf(live.queues[i].name, sizeof live.queues[i].name, "%s",
		    name);
		live.queues[i].streams = streams;
	}
	live.nqueues = i;
	mshare_publish(&live);
}

const struct mshare_live *
api_live_total(struct api *api, struct metrics *m)
{
	api_metrics_publish(api);
	mshare_total(m, &total);
	return &total;
}

static void
metrics_send(struct api *api, struct evhttp_request *req,
    struct metrics_queue *qs, size_t n)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct metrics_process p = { 0 };
	struct metrics m;
	struct strbuf b = { 0 };
	struct evbuffer *buf;

	api_live_total(api, &m);
	p.streams = total.streams;
	p.connections = total.connections;
	p.streams_max = total.streams_max;
	p.reconnects_commands = total.reconnects_commands;
	p.reconnects_subscriber = total.reconnects_subscriber;
	p.draining = api->draining;
	p.store_full = total.store_full;
	p.store_replicas_short = total.store_replicas_short;
	p.route_name = route_name;
	for (size_t i = 0; i < n; i++)
		qs[i].streams = mshare_queue_streams(&total, qs[i].name);
	metrics_format(&b, &m, &p, qs, n);
	if (b.oom || (buf = evbuffer_new()) == NULL) {
		strbuf_free(&b);
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		return;
	}
	evbuffer_add(buf, b.s, b.len);
	strbuf_free(&b);
	evhttp_add_header(out, "Content-Type", "text/plain; version=0.0.4; "
	    "charset=utf-8");
	evhttp_add_header(out, "Cache-Control", "no-store");
	http_observe(api->http, req, 200);
	http_reply(req, 200, buf);
	evbuffer_free(buf);
}

static void
metrics_done(enum result r, const char *const *names,
    const struct queue_figures *f, size_t n, void *arg)
{
	struct api_call *c = arg;
	struct metrics_queue *qs = calloc(n ? n : 1, sizeof *qs);
	size_t k = 0;
	long ttl;

	if (qs == NULL || r != RESULT_OK) {
		free(qs);
		api_send_result(c, qs ? r : RESULT_ERROR);
		free(c);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct metrics_queue *q = &qs[k];
		const char *state;

		if (!f[i].exists)
			continue;
		state = admin_view_field(&f[i].config, "state");
		q->name = names[i];
		q->state = state ? state : "open";
		q->waiting = f[i].waiting, q->active = f[i].active;
		q->last_minute = f[i].last_minute;
		q->prequeue = f[i].prequeue, q->draw_ms = f[i].draw_ms;
		memcpy(q->totals, f[i].totals, sizeof q->totals);
		memcpy(q->wait, f[i].wait, sizeof q->wait);
		q->eta_new = f[i].eta_new;
		if (admission_pow(c->api->admission, q->name, &q->pow_bits,
		    &ttl) == -1)
			q->pow_bits = -1;
		k++;
	}
	metrics_send(c->api, c->req, qs, k);
	free(qs);
	free(c);
}

void
api_metrics(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;

	/* Without Redis, the process's own figures still tell what is wrong. */
	if (!store_is_ready(api->store)) {
		metrics_send(api, req, NULL, 0);
		return;
	}
	if ((c = api_call_new(api, req, "", NULL)) != NULL)
		api_call_sent(c, api_figures(api, NULL, 0, metrics_done, c));
}
