/*
 * line_cache.h: a queue's line as this process's streams of it see it
 * (line_view.h), read again once a second with one line.lua call that
 * also carries the seen marks due, so Redis's work per push interval is
 * per process and queue, not per stream (doc/design.md, "Live
 * positions"). A stream the view cannot place is asked of Redis one by
 * one as before (ranks.lua), which tells its number in the line.
 */
#ifndef WR_LINE_CACHE_H
#define WR_LINE_CACHE_H

#include "line_view.h"
#include "sse.h"

#define LINE_CACHE_EVERY_MS 1000	/* how often the line is read */

/* Called with a fresh read: arg and the queue's index, as given. */
typedef void line_cache_read_cb(void *arg, int queue);

struct line_cache {
	struct line_view view;
	line_cache_read_cb *on_read;
	void *arg;
	int queue;
	int inflight;		/* a read is out */
	int orphan;		/* freed while a read was out */
	int discard;		/* the read out is outdated (a draw) */
	long long max_line, max_place;	/* the furthest of its streams */
	long long asked_line, asked_place;	/* what the read out asks */
	long long tried_ms;	/* when the last read was sent */
	unsigned char (*marks)[16];	/* tokens to mark seen next read */
	size_t nmarks;
};

/* A queue's cache; on_read(arg, queue) after each read that succeeds. */
struct line_cache *line_cache_new(line_cache_read_cb *on_read, void *arg,
    int queue);
/* Free lc, or leave that to the read out, if any. */
void line_cache_free(struct line_cache *lc);

/*
 * Where stream st stands by the view, if it is fresh enough at now_ms
 * (clock_mono_ms, read once for all the streams of a visit) for a
 * push_interval of push_ms: 'w' or 'p' and *value as line_view_rank
 * says (and st's seen mark, when due, goes with the next read), or 0:
 * ask Redis. *s: the facts to tell it with.
 */
char line_cache_rank(struct line_cache *lc, struct stream *st,
    long push_ms, long long now_ms, long long *value,
    const struct standing **s);

/* What ranks.lua said of st: its kind, and its number in the line. */
void line_cache_learn(struct line_cache *lc, struct stream *st, char kind,
    long long line);

/* The line changed under the view (a draw, a drop): stop using it. */
void line_cache_forget(struct line_cache *lc);

/* Read the line again if due: once a second while streams use it, and
 * whenever QSTORE_LINE_MARKS seen marks wait to go. */
void line_cache_refresh(struct line_cache *lc, struct qstore *qs,
    const char *queue);

#endif
