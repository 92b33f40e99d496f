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
#include "conf.h"
#include "draw.h"
#include "log.h"
#include "qstore.h"
#include "validate.h"

struct tick {
	struct admission *a;
	char queue[CONF_QUEUE_ID_MAX + 1];
	struct event *ev;
	struct event *opening;	/* the draw at the opening; NULL: none yet */
	int inflight;
	int dropped;		/* unlinked; tick_done frees it */
	int listed;		/* in the registry at the last sync */
	int pow_known;		/* a tick answered, or the file: see pow_seed */
	int pow_bits;		/* see admission_pow */
	long pow_ttl;
	char notice[NOTICE_BYTES_MAX + 1];	/* see admission_notice */
	unsigned long notice_serial;
	long long fail_open_until;	/* the last tick read: logged as it moves */
	struct tick *next;
};

struct admission {
	struct event_base *base;
	struct qstore *qs;
	struct draws *draws;
	struct tick *ticks;
	struct event *sync;
	int sync_inflight;
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
	if (t->opening)
		event_free(t->opening);
	free(t);
}

/* t's notice is now notice ("": none); an operator wants to see when. */
static void
notice_learn(struct tick *t, const char *notice)
{
	if (strcmp(t->notice, notice) == 0 ||
	    strlen(notice) >= sizeof t->notice)
		return;
	log_info("event=notice queue=%s set=%d", t->queue,
	    notice[0] != '\0');
	strcpy(t->notice, notice);
	t->notice_serial++;
}

/* The notice and fail-open the tick read. */
static void
tick_notice(struct tick *t, const struct tick_figures *f)
{
	notice_learn(t, f->notice);
	if (t->fail_open_until != f->fail_open_until)
		log_info("event=fail_open queue=%s until=%lld", t->queue,
		    f->fail_open_until);
	t->fail_open_until = f->fail_open_until;
}

static void
opening_fire(evutil_socket_t fd, short what, void *arg)
{
	struct tick *t = arg;

	draws_due(t->a->draws, t->queue);
}

/*
 * The opening comes before the next tick: the draw starts at it, not up
 * to a period later (a few ms after, so Redis's clock has reached it;
 * a step before the opening would only find no draw due).
 */
static void
opening_arm(struct tick *t, long long in_ms)
{
	struct timeval tv;

	in_ms += 5;
	tv.tv_sec = (time_t)(in_ms / 1000);
	tv.tv_usec = (suseconds_t)(in_ms % 1000) * 1000;
	if (t->opening == NULL &&
	    (t->opening = evtimer_new(t->a->base, opening_fire, t)) ==
	    NULL)
		return;
	evtimer_add(t->opening, &tv);
}

static void
tick_done(enum result r, const struct tick_figures *f, void *arg)
{
	struct tick *t = arg;

	t->inflight = 0;
	if (t->dropped) {
		tick_free(t);
		return;
	}
	/* NO_QUEUE: not written yet; errors were logged by qstore.c. */
	if (r == RESULT_NO_QUEUE)
		t->pow_known = 0;
	if (r != RESULT_OK)
		return;
	/* The work asked changes rarely, and an operator wants to see when. */
	if (t->pow_known ? f->pow_bits != t->pow_bits : f->pow_bits > 0)
		log_info("event=pow_bits queue=%s bits=%d", t->queue,
		    f->pow_bits);
	t->pow_known = 1;
	t->pow_bits = f->pow_bits, t->pow_ttl = (long)f->pow_ttl;
	tick_notice(t, f);
	if (f->draw == TICK_DRAW_DUE)
		draws_due(t->a->draws, t->queue);
	else if (f->draw == TICK_DRAW_NO_SEED)
		draws_seed(t->a->draws, t->queue);
	if (f->draw_in >= 0)
		opening_arm(t, f->draw_in);
	if (f->expired > 0 || f->abandoned > 0 || f->admitted > 0 ||
	    f->noshows > 0)
		log_info("event=tick queue=%s expired=%lld abandoned=%lld "
		    "admitted=%lld waiting=%lld noshows=%lld", t->queue,
		    f->expired, f->abandoned, f->admitted, f->waiting,
		    f->noshows);
}

static void
tick_fire(evutil_socket_t fd, short what, void *arg)
{
	struct tick *t = arg;

	period_add(t->ev);
	if (t->inflight)
		return;
	if (qstore_tick(t->a->qs, t->queue, ADMISSION_CAP, tick_done,
	    t) == 0)
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

const char *
admission_notice(const struct admission *a, const char *queue,
    unsigned long *serial)
{
	const struct tick *t = tick_find(a, queue);

	if (serial)
		*serial = t ? t->notice_serial : 0;
	return t && t->notice[0] ? t->notice : NULL;
}

void
admission_notice_set(struct admission *a, const char *queue,
    const char *notice)
{
	struct tick *t = tick_find(a, queue);

	if (t != NULL)
		notice_learn(t, notice);
}

int
admission_pow(const struct admission *a, const char *queue, int *bits,
    long *ttl)
{
	const struct tick *t = tick_find(a, queue);

	if (t == NULL || !t->pow_known)
		return -1;
	*bits = t->pow_bits, *ttl = t->pow_ttl;
	return 0;
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
	if ((t->ev = evtimer_new(a->base, tick_fire, t)) == NULL) {
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
	if (t->opening)
		evtimer_del(t->opening);
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
sync_done(enum result r, const char *const *names, size_t n, void *arg)
{
	struct admission *a = arg;
	struct tick *t, *next;

	a->sync_inflight = 0;
	if (r != RESULT_OK)
		return;
	for (t = a->ticks; t; t = t->next)
		t->listed = 0;
	for (size_t i = 0; i < n; i++)
		admission_add(a, names[i]);
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

	period_add(a->sync);
	if (a->sync_inflight)
		return;
	if (qstore_queues(a->qs, sync_done, a) == 0)
		a->sync_inflight = 1;
}

/*
 * Until its first tick answers, a queue of the file asks what the file
 * says (auto: nothing, as for a calm queue), so an instance that just
 * started does not take joins without the work its file asks for.
 */
static void
pow_seed(struct tick *t, const struct queue_conf *q)
{
	t->pow_known = 1;
	t->pow_bits = q->join_challenge ? (int)q->pow_bits : -1;
	t->pow_ttl = q->pow_ttl;
}

struct admission *
admission_new(struct event_base *base, struct qstore *qs, struct draws *draws,
    const struct conf *c)
{
	struct admission *a = calloc(1, sizeof *a);

	if (a == NULL)
		return NULL;
	a->base = base, a->qs = qs, a->draws = draws;
	if ((a->sync = evtimer_new(base, sync_fire, a)) == NULL)
		goto fail;
	period_add(a->sync);
	for (size_t i = 0; i < c->nqueues; i++) {
		if (admission_add(a, c->queues[i].name) == -1)
			goto fail;
		pow_seed(a->ticks, &c->queues[i]);
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
