/* qstore_held.c: queues' configuration facts held for joins; see the .h. */
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "hash.h"
#include "qstore_held.h"
#include "text.h"

struct held_slot {
	char queue[CONF_QUEUE_ID_MAX + 1];	/* "": empty */
	struct held_head hh;
	struct standing s;
	double rate;
	char rate_ver[HELD_VER_MAX];	/* the version rate was worked out at */
	int inflight;		/* batches sent with these facts */
};

struct held {
	struct held_slot slot[HELD_SLOTS];
};

struct held *
held_new(void)
{
	return calloc(1, sizeof(struct held));
}

void
held_free(struct held *h)
{
	free(h);
}

static struct held_slot *
slot_of(const struct held *h, const char *queue)
{
	return (struct held_slot *)&h->slot[hash_str(HASH_SEED, queue) %
	    HELD_SLOTS];
}

/* queue's slot, or NULL when another queue holds it. */
static struct held_slot *
own_slot(const struct held *h, const char *queue)
{
	struct held_slot *s = slot_of(h, queue);

	return strcmp(s->queue, queue) == 0 ? s : NULL;
}

/* queue's slot, taken over unless another queue has batches in Redis. */
static struct held_slot *
take_slot(struct held *h, const char *queue)
{
	struct held_slot *s = slot_of(h, queue);

	if (strcmp(s->queue, queue) == 0)
		return s;
	if (s->inflight > 0)
		return NULL;
	memset(s, 0, sizeof *s);
	text_copy(s->queue, sizeof s->queue, queue);
	return s;
}

void
held_send(struct held *h, const char *queue, struct held_send *out)
{
	struct held_slot *s = own_slot(h, queue);

	memset(out, 0, sizeof *out);
	if (s == NULL || s->hh.ver[0] == '\0' ||
	    strcmp(s->rate_ver, s->hh.ver) != 0)
		return;
	memcpy(out->ver, s->hh.ver, sizeof out->ver);
	out->max_waiting = s->hh.max_waiting;
	out->closes_at_ms = s->hh.closes_at_ms;
	s->inflight++;
}

void
held_done(struct held *h, const char *queue)
{
	struct held_slot *s = own_slot(h, queue);

	if (s && s->inflight > 0)
		s->inflight--;
}

void
held_put(struct held *h, const char *queue, const struct standing *st,
    const struct held_head *hh)
{
	struct held_slot *s = take_slot(h, queue);

	if (s == NULL)
		return;
	s->hh = *hh;
	s->s = *st;
	s->rate = st->q.rate;
	memcpy(s->rate_ver, hh->ver, sizeof s->rate_ver);
}

void
held_rate(struct held *h, const char *queue, const char *ver, double rate)
{
	struct held_slot *s = own_slot(h, queue);

	if (s == NULL || s->hh.ver[0] == '\0' || strcmp(ver, s->hh.ver) != 0)
		return;
	s->rate = rate;
	memcpy(s->rate_ver, s->hh.ver, sizeof s->rate_ver);
}

int
held_fill(const struct held *h, const char *queue, struct standing *st)
{
	const struct held_slot *s = own_slot(h, queue);
	struct standing read = *st;

	if (s == NULL || s->hh.ver[0] == '\0')
		return -1;
	*st = s->s;
	st->waiting = read.waiting;
	st->q.now_ms = read.q.now_ms;
	st->q.last_tick_ms = read.q.last_tick_ms;
	st->q.state = read.q.state;
	st->q.rate = s->rate;
	/* the band as the short head read it */
	st->q.band_own = read.q.band_own;
	st->q.band_p10 = read.q.band_p10, st->q.band_p90 = read.q.band_p90;
	st->q.band_n = read.q.band_n;
	/* and the line's ages (eta.h) */
	st->q.head_at = read.q.head_at, st->q.line = read.q.line;
	st->q.ab_ms = read.q.ab_ms, st->q.ab_n = read.q.ab_n;
	return 0;
}
