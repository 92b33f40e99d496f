/*
 * line_cache.c: a queue's line as this process's streams see it; see
 * line_cache.h.
 */
#include <stdlib.h>
#include <string.h>

#include <uuid/uuid.h>

#include "clock.h"
#include "line_cache.h"
#include "log.h"
#include "validate.h"

struct line_cache *
line_cache_new(line_cache_read_cb *on_read, void *arg, int queue)
{
	struct line_cache *lc = calloc(1, sizeof *lc);

	if (lc && (lc->marks = malloc(QSTORE_LINE_MARKS *
	    sizeof *lc->marks)) == NULL) {
		free(lc);
		return NULL;
	}
	if (lc)
		lc->on_read = on_read, lc->arg = arg, lc->queue = queue;
	return lc;
}

static void
cache_free(struct line_cache *lc)
{
	line_view_clear(&lc->view);
	free(lc->marks);
	free(lc);
}

void
line_cache_free(struct line_cache *lc)
{
	if (lc == NULL)
		return;
	if (lc->inflight)
		lc->orphan = 1;
	else
		cache_free(lc);
}

/* Seconds between a streamed waiter's seen marks: a quarter of the time
 * it may go unseen, at least one. */
static uint32_t
mark_every(const struct standing *s)
{
	return s->q.waiting_ttl >= 8 ? (uint32_t)(s->q.waiting_ttl / 4) : 1;
}

/* now: sse_now()'s seconds, of the monotonic ms the caller read. */
static void
mark_if_due(struct line_cache *lc, struct stream *st, uint32_t now)
{
	if (now - st->marked < mark_every(&lc->view.s) ||
	    lc->nmarks == QSTORE_LINE_MARKS)
		return;
	memcpy(lc->marks[lc->nmarks++], st->token, 16);
	st->marked = now;
}

char
line_cache_rank(struct line_cache *lc, struct stream *st, long push_ms,
    long long now_ms, long long *value, const struct standing **s)
{
	char kind;

	if (!lc->view.valid || now_ms - lc->view.read_ms > push_ms + 2000)
		return 0;
	kind = line_view_rank(&lc->view, st->line, st->pre, value);
	if (kind)
		mark_if_due(lc, st, (uint32_t)(now_ms / 1000));
	*s = &lc->view.s;
	return kind;
}

void
line_cache_learn(struct line_cache *lc, struct stream *st, char kind,
    long long line)
{
	st->line = kind == 'w' || kind == 'p' ? line : 0;
	st->pre = kind == 'p';
	st->marked = sse_now();	/* ranks.lua marked it */
	if (line > lc->max_line)
		lc->max_line = line;
	if (-line > lc->max_place)
		lc->max_place = -line;
}

void
line_cache_forget(struct line_cache *lc)
{
	line_view_clear(&lc->view);
	lc->discard = lc->inflight;
	lc->tried_ms = 0;
}

static void
cache_read(enum result r, const struct qs_line *ln, void *arg)
{
	struct line_cache *lc = arg;

	lc->inflight = 0;
	if (lc->orphan) {
		cache_free(lc);
		return;
	}
	if (lc->discard || r != RESULT_OK) {
		lc->discard = 0;
		line_view_clear(&lc->view);
	} else if (line_view_set(&lc->view, ln, lc->asked_line,
	    lc->asked_place, clock_mono_ms()) == -1) {
		log_error("event=line_view_failed error=\"out of memory\"");
	} else if (lc->on_read) {
		lc->on_read(lc->arg, lc->queue);
	}
}

void
line_cache_refresh(struct line_cache *lc, struct qstore *qs,
    const char *queue)
{
	const char *marks[QSTORE_LINE_MARKS];
	char text[QSTORE_LINE_MARKS][VALID_TOKEN_LEN + 1];
	long long now = clock_mono_ms();

	/* a full list of marks goes at once: more are due than a read a
	 * second carries (many streams, a short waiting_ttl) */
	if (lc->inflight || (lc->max_line == 0 && lc->max_place == 0) ||
	    (now - lc->tried_ms < LINE_CACHE_EVERY_MS &&
	    lc->nmarks < QSTORE_LINE_MARKS))
		return;
	for (size_t i = 0; i < lc->nmarks; i++) {
		uuid_unparse_lower(lc->marks[i], text[i]);
		marks[i] = text[i];
	}
	lc->asked_line = lc->max_line, lc->asked_place = lc->max_place;
	lc->tried_ms = now;
	if (qstore_line(qs, queue, lc->max_line, lc->max_place, lc->nmarks,
	    marks, cache_read, lc) == 0) {
		lc->inflight = 1;
		lc->nmarks = 0;
	} else {
		line_view_clear(&lc->view);
	}
}
