/*
 * streams.h: every open stream of this process, and what wakes them.
 *
 * - A token table finds a token's streams when Redis publishes that it was
 *   admitted, so `entered` goes out within milliseconds.
 * - A time-sliced schedule spreads the streams over the push interval; one
 *   timer walks it, and each slot's streams get their status from their
 *   queue's line as this process read it last (line_cache.h, once a
 *   second), or, those it cannot place, from Redis in batches (one round
 *   trip for up to STREAMS_BATCH tokens). The same refresh notices a
 *   promotion whose message was lost.
 */
#ifndef WR_STREAMS_H
#define WR_STREAMS_H

#include <stddef.h>

#include <event2/http.h>

#include "standing.h"
#include "streams_setup.h"

#define STREAMS_SLOT_MS 100
#define STREAMS_BATCH 1000

struct streams;
struct ipslot;

struct streams *streams_new(const struct streams_setup *set, char *err,
    size_t errlen);
/* Ends every stream still open; call before the HTTP server is freed. */
void streams_free(struct streams *ss);

/*
 * A reload: the limits, push_interval (the schedule is resized, every
 * stream kept) and the streams' timeout from keepalive_interval.
 */
void streams_reload(struct streams *ss);

/*
 * Reserve a stream for a client address: 0, or the status to answer
 * (503: this process holds max_streams; 429: the address holds
 * max_streams_per_ip). A reservation is used by streams_start or given
 * back by streams_unreserve.
 */
int streams_reserve(struct streams *ss, const char *addr,
    struct ipslot **slot);
void streams_unreserve(struct streams *ss, struct ipslot *slot);

/* Open the stream of a waiting token: headers, retry, first status. */
void streams_start(struct streams *ss, struct evhttp_request *req,
    const char *queue, const char *token, const struct standing *s,
    unsigned long last_id, struct ipslot *slot);

/* SIGTERM: a last retry hint to every stream, then end them. */
void streams_drain(struct streams *ss, long retry_ms);

size_t streams_count(const struct streams *ss);
/* Streams this process accepts: max_streams, or what the fd limit leaves. */
size_t streams_max(const struct streams *ss);
/* The i-th queue this process has streamed and its streams; -1 past the end. */
int streams_queue_at(const struct streams *ss, size_t i, const char **name,
    size_t *streams);
/* Reconnections of the subscriber connection. */
unsigned long streams_reconnects(const struct streams *ss);

#endif
