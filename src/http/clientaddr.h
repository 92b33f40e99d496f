/*
 * clientaddr.h: who the client is. The peer address, unless the peer is
 * one of trusted_proxies: then X-Forwarded-For is believed, read from the
 * right (the nearest hop) past every trusted proxy, so a client cannot
 * choose its address by sending the header itself. Pure.
 */
#ifndef WR_CLIENTADDR_H
#define WR_CLIENTADDR_H

#include <stddef.h>

#define CLIENTADDR_MAX 46	/* INET6_ADDRSTRLEN */

struct netlist;

/*
 * Parse "10.0.0.1, 192.168.0.0/16 ::1" (addresses or CIDR blocks,
 * separated by spaces or commas). NULL when text is NULL or empty, or on
 * error (*bad set to 1, err names the entry).
 */
struct netlist *netlist_parse(const char *text, int *bad, char *err,
    size_t errlen);
void netlist_free(struct netlist *l);
/* 1 when addr (text) is in l. */
int netlist_has(const struct netlist *l, const char *addr);
/* 1 when text is a valid list (conf.c's check). */
int netlist_valid(const char *text);

/* The client's address into out (CLIENTADDR_MAX bytes). xff may be NULL. */
void clientaddr_pick(const struct netlist *trusted, const char *peer,
    const char *xff, char *out);

#endif
