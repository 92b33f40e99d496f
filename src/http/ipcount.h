/*
 * ipcount.h: open things (streams, connections) per client address, so
 * one address cannot take every one of a worker. Entries live while their
 * count is above 0.
 */
#ifndef WR_IPCOUNT_H
#define WR_IPCOUNT_H

#include <stddef.h>

struct ipcount;
struct ipslot;

struct ipcount *ipcount_new(void);
void ipcount_free(struct ipcount *t);

/* One more stream for addr, unless it has max (0: no cap); NULL then. */
struct ipslot *ipcount_take(struct ipcount *t, const char *addr, size_t max,
    int *full);
/* One stream fewer for the slot's address. */
void ipcount_release(struct ipcount *t, struct ipslot *slot);
/* addr's count (0 when it has none). */
size_t ipcount_of(const struct ipcount *t, const char *addr);

/*
 * One more refusal of addr (which holds its max), at now_ms: the
 * refusals to log now, this one and those since addr's last line, when
 * its last line is a second old or more; else 0 (not now).
 */
unsigned long ipcount_refused(struct ipcount *t, const char *addr,
    long long now_ms);

#endif
