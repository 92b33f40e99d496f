/*
 * netlist.h: a list of addresses and CIDR blocks, as trusted_proxies
 * gives it ("10.0.0.1, 192.168.0.0/16 ::1"). Pure: the configuration
 * checks it, the HTTP server and the rate limit ask it.
 */
#ifndef WR_NETLIST_H
#define WR_NETLIST_H

#include <stddef.h>

#define NETLIST_ADDR_MAX 46	/* INET6_ADDRSTRLEN: an address as text */

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

#endif
