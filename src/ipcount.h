/*
 * ipcount.h: open streams per client address, so one address cannot take
 * every stream of a worker. Entries live while their count is above 0.
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

#endif
