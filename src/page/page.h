/*
 * page.h: the waiting page. Templates are read and checked once, at
 * startup (a bad one stops startup, and --check-config, naming the file,
 * line and placeholder); per request only a view is filled and rendered.
 * No libevent and no Redis here: api_page.c fetches, this renders.
 */
#ifndef WR_PAGE_H
#define WR_PAGE_H

#include <stddef.h>

#include "lang.h"
#include "page_files.h"

struct conf;
struct console;
struct pages;

/* What one rendering of the page shows. */
struct page_view {
	enum lang lang;
	const char *queue;
	/* join, waiting, prequeue, active, gone, closed, not_open, full,
	 * notfound, unavailable, bad_token: body[data-state] of the page */
	const char *state;
	const char *token;	/* "" when none */
	long long position;	/* -1: not known */
	long long waiting;	/* -1: not known */
	long long eta;		/* seconds; -1: no estimate */
	const char *redirect;	/* where an active token goes, token added */
	int refresh;		/* seconds to a reload without JavaScript; 0: none */
	/* prequeue: awaiting a scheduled opening's draw */
	long long opens_at;	/* unix seconds; 0: no schedule */
	long long countdown;	/* seconds to the opening; -1: not known */
	long long entrants;	/* in the pre-queue; -1: not known */
	const char *notice;	/* the queue's notice; NULL: none */
};

/* The built-in template, and one per page_template of c (global, queues). */
struct pages *pages_new(const struct conf *c, char *err, size_t errlen);
void pages_free(struct pages *p);

/* The page of queue for v; malloc'd, *len bytes; NULL: out of memory. */
char *pages_render(const struct pages *p, const char *queue,
    const struct page_view *v, size_t *len);

/* The operator's console (console.h), built with the pages. */
const struct console *pages_console(const struct pages *p);

/* A file of src/page/ by name, NULL when none. */
const struct page_file *page_file(const char *name);

/* redirect with "waitroom_token=TOKEN" added to its query; malloc'd. */
char *page_redirect_url(const char *redirect, const char *token);

/* The placeholder names, ", "-separated, for messages and docs. */
const char *page_placeholders(void);

#endif
