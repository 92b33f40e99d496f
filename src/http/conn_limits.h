/*
 * conn_limits.h: what a connection must meet to stay, for conns.c:
 * max_conns_per_ip (connections counted per client address, a trusted
 * proxy's uncapped) and the descriptor reserve (fd_reserve: past the
 * high-water mark of RLIMIT_NOFILE, the oldest connection without a head
 * goes). It decides and logs the refusals; conns.c closes.
 */
#ifndef WR_CONN_LIMITS_H
#define WR_CONN_LIMITS_H

#include <stddef.h>

#include <event2/util.h>

#include "conn_log.h"

struct conf;
struct netlist;

struct conn_limits;
struct ipslot;

/*
 * Counts the descriptors open now, before any connection. conf is where the
 * configuration in force is (a reload replaces *conf); trusted (NULL: none)
 * and log are borrowed.
 */
struct conn_limits *conn_limits_new(struct conf *const *conf,
    const struct netlist *trusted, struct conn_log *log);
void conn_limits_free(struct conn_limits *cl);

/*
 * max_conns_per_ip for a connection from peer (NULL: unknown, not
 * counted): 1 when it may stay, with *slot its count (NULL: not
 * counted); 0 when peer holds its max: the refusal is logged and
 * counted, and the caller closes the connection.
 */
int conn_limits_admit(struct conn_limits *cl, const char *peer,
    long long now, struct ipslot **slot);
/* The connection of slot is gone; NULL does nothing. */
void conn_limits_release(struct conn_limits *cl, struct ipslot *slot);

/* 1 when count connections, the newest on descriptor newest, pass the
 * reserve's high-water mark; 0 when not, or fd_reserve is off. */
int conn_limits_over(struct conn_limits *cl, size_t count,
    evutil_socket_t newest, long long now);
/* accept() failed for want of descriptors: how many to close, a
 * reserve's worth (0: fd_reserve is off). */
long conn_limits_shed(struct conn_limits *cl, long long now);

#endif
