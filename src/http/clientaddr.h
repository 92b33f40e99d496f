/*
 * clientaddr.h: who the client is. The peer address, unless the peer is
 * one of trusted_proxies: then X-Forwarded-For is believed, read from the
 * right (the nearest hop) past every trusted proxy, so a client cannot
 * choose its address by sending the header itself. Pure.
 */
#ifndef WR_CLIENTADDR_H
#define WR_CLIENTADDR_H

#include <stddef.h>

#include "netlist.h"

#define CLIENTADDR_MAX NETLIST_ADDR_MAX

struct netlist;

/* The client's address into out (CLIENTADDR_MAX bytes). xff may be NULL. */
void clientaddr_pick(const struct netlist *trusted, const char *peer,
    const char *xff, char *out);

#endif
