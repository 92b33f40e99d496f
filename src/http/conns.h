/*
 * conns.h: every connection of the HTTP server from accept to close, so
 * that none holds a descriptor for nothing (issue 18): header_timeout and
 * body_timeout, counted from accept (or from the first byte of the next
 * request on a kept-alive connection) however the bytes trickle in,
 * max_conns_per_ip, and the descriptor reserve (fd_reserve). An answered
 * request, a stream above all, is no longer timed here: its own rules
 * govern it.
 *
 * libevent 2.1's evhttp has none of these, and no callback for a new
 * connection or request: conns makes each connection's bufferevent
 * (evhttp_set_bevcb), learns its evhttp connection later in the same pass
 * of the loop, once evhttp has set it up, watches its input for the end of
 * the head, and hears its close through the connection's close callback,
 * which it passes on to a callback set with conns_set_closecb.
 */
#ifndef WR_CONNS_H
#define WR_CONNS_H

#include <stddef.h>

#include <event2/http.h>

struct conf;
struct netlist;
struct conns;

/*
 * Watch every connection evh accepts from now on, on base. conf is where
 * the configuration in force is (a reload replaces *conf); trusted
 * (trusted_proxies, NULL: none) is borrowed.
 */
struct conns *conns_new(struct event_base *base, struct conf *const *conf,
    const struct netlist *trusted, struct evhttp *evh);
/* Watch every connection evh accepts too (a server's second port). */
void conns_watch_also(struct conns *cs, struct evhttp *evh);
/* After evhttp_free, which closes the connections. */
void conns_free(struct conns *cs);

/* req is whole and dispatched; call it before answering. */
void conns_request(struct conns *cs, struct evhttp_request *req);
/* evhttp_connection_set_closecb for a connection conns watches. */
void conns_set_closecb(struct conns *cs, struct evhttp_connection *evcon,
    void (*cb)(struct evhttp_connection *, void *), void *arg);
/*
 * accept() failed for want of descriptors: close the oldest connections
 * without a head, a reserve's worth. How many it closed (0: fd_reserve is
 * off, or there is none to close).
 */
int conns_shed(struct conns *cs);
/* Connections open. */
size_t conns_count(const struct conns *cs);

#endif
