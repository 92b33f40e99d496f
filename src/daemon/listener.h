/*
 * listener.h: the listening socket. With SO_REUSEPORT every worker binds
 * its own socket to one port and the kernel spreads connections between
 * them; the main process holds a bound, not listening, socket that keeps
 * the port (and tells which one port 0 became).
 */
#ifndef WR_LISTENER_H
#define WR_LISTENER_H

#include <stddef.h>

/*
 * A non-blocking TCP socket bound to addr ("host:port", "[v6]:port"), or
 * to port_override when it is not -1, with SO_REUSEADDR, and SO_REUSEPORT
 * when shared (only workers share: two daemons started by mistake on one
 * port must fail, not split the traffic). Listening when listen_now.
 * *port gets the bound port. -1 with a message in err on failure.
 */
int listener_open(const char *addr, int port_override, int shared,
    int listen_now, int *port, char *err, size_t errlen);

#endif
