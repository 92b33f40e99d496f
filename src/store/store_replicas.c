/*
 * store_replicas.c: whether the master acknowledges writes as configured
 * (redis_wait_replicas = N above 0). Every WAIT's answer says how many
 * replicas have this connection's writes: fewer than N and the instance
 * is "short", so /readyz says 503 store_replicas, since every join it
 * takes would be answered 503.
 *
 * A new connection starts short (a new master may have no replica yet)
 * and asks at once; one made while short stays short, so a shortfall
 * that outlives reconnects is logged once. While short, a probe (WAIT N
 * with a short timeout) goes every STORE_PROBE_MS when no other WAIT is
 * in flight, so an idle instance comes back by itself once a replica
 * confirms: the durable calls' WAITs say so too, the probe only fills
 * the silence.
 */
#include <stdio.h>

#include <hiredis/hiredis.h>

#include "log.h"
#include "store.h"
#include "store_conn.h"

#define STORE_PROBE_MS 250	/* between probes while short */
#define STORE_PROBE_WAIT_MS 100	/* a probe's WAIT timeout */

enum { REPLICAS_UNKNOWN, REPLICAS_MET, REPLICAS_SHORT };

static void
probe_later(struct store *s)
{
	struct timeval tv = { 0, STORE_PROBE_MS * 1000 };

	if (s->probe && !s->closing)
		evtimer_add(s->probe, &tv);
}

static void
replicas_seen(struct store *s, long long have)
{
	int was = s->replicas;

	if (s->wait_replicas <= 0)
		return;
	s->replicas = have >= s->wait_replicas ? REPLICAS_MET : REPLICAS_SHORT;
	if (s->replicas == REPLICAS_SHORT) {
		if (was != REPLICAS_SHORT)
			log_warn("event=store_replicas_short have=%lld want=%ld "
			    "msg=\"fewer replicas confirm writes than "
			    "redis_wait_replicas: joins are refused until they "
			    "do\"", have, s->wait_replicas);
		probe_later(s);
	} else if (was == REPLICAS_SHORT)
		log_info("event=store_replicas_back have=%lld want=%ld", have,
		    s->wait_replicas);
}

static void
probe_answered(const struct store_result *res, void *arg)
{
	struct store *s = arg;

	s->waits--;
	if (res->status == STORE_OK && res->reply->type == REDIS_REPLY_INTEGER)
		replicas_seen(s, res->reply->integer);
}

/* WAIT N STORE_PROBE_WAIT_MS, unless a WAIT in flight will tell. */
static void
probe_send(struct store *s)
{
	char n[24], ms[24];
	const char *argv[] = { "WAIT", n, ms };

	if (!s->ready || s->closing || s->waits > 0)
		return;
	snprintf(n, sizeof n, "%ld", s->wait_replicas);
	snprintf(ms, sizeof ms, "%d", STORE_PROBE_WAIT_MS);
	if (store_send(s, -1, 3, argv, NULL, probe_answered, s, 0) == 0)
		s->waits++;
}

static void
probe_fire(evutil_socket_t fd, short what, void *arg)
{
	probe_send(arg);
}

static void
replicas_connected(struct store *s)
{
	if (s->replicas == REPLICAS_MET)	/* short stays short: one log */
		s->replicas = REPLICAS_UNKNOWN;
	probe_send(s);
}

static void
replicas_closing(struct store *s)
{
	event_free(s->probe);
	s->probe = NULL;
	s->watch = NULL;
}

static const struct store_watch replicas_watch = {
	replicas_connected, replicas_seen, replicas_closing
};

int
store_replicas_attach(struct store *s)
{
	s->replicas = REPLICAS_UNKNOWN;
	if (s->wait_replicas <= 0 || s->pattern)
		return 0;
	if ((s->probe = evtimer_new(s->base, probe_fire, s)) == NULL)
		return -1;
	s->watch = &replicas_watch;
	return 0;
}

int
store_replicas_short(const struct store *s)
{
	return s->probe != NULL && s->replicas != REPLICAS_MET;
}
