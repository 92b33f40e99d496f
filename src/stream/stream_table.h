/*
 * stream_table.h: the open streams of a process by token, a hash table of
 * chains through struct stream's hnext. Tokens are random, so their first
 * bytes are the hash. Walk it as bucket[0..size) and hnext.
 */
#ifndef WR_STREAM_TABLE_H
#define WR_STREAM_TABLE_H

#include <stddef.h>

#include "sse.h"

struct stream_table {
	struct stream **bucket;
	size_t size;		/* a power of two */
	size_t count;		/* streams in it */
};

/* 0, or -1 out of memory. */
int stream_table_init(struct stream_table *t);
/* Frees the buckets, not the streams. */
void stream_table_free(struct stream_table *t);

/* Add st (it grows the table as it fills). */
void stream_table_put(struct stream_table *t, struct stream *st);
void stream_table_remove(struct stream_table *t, struct stream *st);

/* The chain that holds token's streams (others too: compare tokens). */
struct stream *stream_table_chain(const struct stream_table *t,
    const unsigned char token[16]);

#endif
