/*
 * streams_setup.h: what the streams of a process read, given at
 * construction (streams_new); apart so that streams.c's public header and
 * its streams' (stream_one.h) both hold it without including each other.
 */
#ifndef WR_STREAMS_SETUP_H
#define WR_STREAMS_SETUP_H

#include <event2/event.h>

struct admission;
struct conf;
struct http;
struct passkeys;
struct qstore;
struct store;
struct store_opts;

/* What the streams read, given at construction; all borrowed. */
struct streams_setup {
	struct event_base *base;
	struct conf *const *conf;	/* in force: a reload replaces *conf */
	struct http *http;		/* the server the streams' requests came to */
	struct store *store;		/* whether Redis is ready */
	struct qstore *qstore;		/* the batches' ranks, the lines */
	struct admission *admission;	/* the queues' notices */
	const struct passkeys *const *passkeys;	/* *passkeys NULL: no passes */
	const struct store_opts *store_opts;	/* the subscriber's */
};

#endif
