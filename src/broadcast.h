/*
 * broadcast.h: every open stream of this process, and what wakes them.
 *
 * - A token table finds a token's streams when Redis publishes that it was
 *   admitted, so `entered` goes out within milliseconds.
 * - A time-sliced schedule spreads the streams over the push interval; one
 *   timer walks it, and each slot's streams get their status from Redis in
 *   batches (one round trip for up to BROADCAST_BATCH tokens). The same
 *   refresh notices a promotion whose message was lost.
 */
#ifndef WR_BROADCAST_H
#define WR_BROADCAST_H

#include <stddef.h>

#include <event2/http.h>

#include "app.h"
#include "facts.h"

#define BROADCAST_SLOT_MS 100
#define BROADCAST_BATCH 1000
#define BROADCAST_STALLS 5	/* skipped pushes before "slow client" */

struct broadcast;
struct ipslot;

struct broadcast *broadcast_new(struct app *app, char *err, size_t errlen);
/* Ends every stream still open; call before the HTTP server is freed. */
void broadcast_free(struct broadcast *b);

/*
 * A reload: the limits, push_interval (the schedule is resized, every
 * stream kept) and the streams' timeout from keepalive_interval.
 */
void broadcast_reload(struct broadcast *b);

/*
 * Reserve a stream for a client address: 0, or the status to answer
 * (503: this process holds max_streams; 429: the address holds
 * max_streams_per_ip). A reservation is used by broadcast_start or given
 * back by broadcast_unreserve.
 */
int broadcast_reserve(struct broadcast *b, const char *addr,
    struct ipslot **slot);
void broadcast_unreserve(struct broadcast *b, struct ipslot *slot);

/* Open the stream of a waiting token: headers, retry, first status. */
void broadcast_start(struct broadcast *b, struct evhttp_request *req,
    const char *queue, const char *token, const struct facts *f,
    unsigned long last_id, struct ipslot *slot);

/* SIGTERM: a last retry hint to every stream, then end them. */
void broadcast_drain(struct broadcast *b, long retry_ms);

size_t broadcast_count(const struct broadcast *b);
/* The i-th queue this process has streamed and its streams; -1 past the end. */
int broadcast_queue_at(const struct broadcast *b, size_t i, const char **name,
    size_t *streams);
/* Reconnections of the subscriber connection. */
unsigned long broadcast_reconnects(const struct broadcast *b);

#endif
