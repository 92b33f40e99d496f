/*
 * sentinel.h: following a Redis master through Sentinel, as the Redis
 * "Sentinel clients" guidelines ask: ask the sentinels in turn for the
 * master's address (SENTINEL get-master-addr-by-name), the one that
 * answered first next time; and watch +switch-master on one sentinel, so
 * a failover is followed at once. The caller (store.c) verifies with ROLE
 * that what it reached is a master, and asks again on every reconnect.
 * Everything is asynchronous on the loop (hiredis async).
 */
#ifndef WR_SENTINEL_H
#define WR_SENTINEL_H

#include <event2/event.h>

#include "sentinel_spec.h"

struct sentinel;

/* For spec (copied); password (copied, NULL: none) is sent with AUTH. */
struct sentinel *sentinel_new(struct event_base *base,
    const struct sentinel_spec *spec, const char *password);
/* Ends every connection; no callback runs afterwards. */
void sentinel_free(struct sentinel *sn);

/*
 * The master's address: cb runs once, later, with host and port, or with
 * host NULL when no sentinel knew it. -1 (cb will not run) while an
 * earlier question is unanswered.
 */
typedef void sentinel_addr_cb(const char *host, int port, void *arg);
int sentinel_resolve(struct sentinel *sn, sentinel_addr_cb *cb, void *arg);

/* From now on, cb runs whenever a sentinel announces a new master. */
void sentinel_watch(struct sentinel *sn, void (*cb)(void *arg), void *arg);

/* The master's name, for logs. */
const char *sentinel_master(const struct sentinel *sn);

#endif
