/*
 * stamps.h: which route each request took and when it came, from its
 * dispatch to its answer, for the request metrics. evhttp has no user
 * pointer on a server request, so the table is keyed by the request's
 * address. A dispatched request lives until it is answered (evhttp parts
 * it from a connection that closes first, and the answer frees it), so
 * every entry is taken at the answer; one put again at the same address
 * (a request evhttp freed at shutdown) is overwritten.
 */
#ifndef WR_STAMPS_H
#define WR_STAMPS_H

struct stamps;

struct stamps *stamps_new(void);
void stamps_free(struct stamps *st);

/* req came at start_us by route. -1: out of memory (it goes unstamped). */
int stamps_put(struct stamps *st, const void *req, int route,
    long long start_us);
/* req's route and start, taken out of the table. -1: req has none. */
int stamps_take(struct stamps *st, const void *req, int *route,
    long long *start_us);
/* Requests stamped and not yet taken. */
unsigned long stamps_count(const struct stamps *st);

#endif
