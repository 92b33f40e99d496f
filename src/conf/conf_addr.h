/*
 * conf_addr.h: the addresses of waitroom.conf (listen, redis, and each
 * sentinel of a sentinel:// address), split the one way the check of a
 * value, the listener and the store all read them. Pure; it needs nothing
 * of the rest of the configuration, so conf.c, its checkers and the
 * sentinel:// parser all stand on it.
 */
#ifndef WR_CONF_ADDR_H
#define WR_CONF_ADDR_H

#include <stddef.h>

#define CONF_ADDR_MAX 256

/*
 * Split a valid listen or redis address: "host:port", "[v6]:port" (host
 * without the brackets) or "unix:/path" (host is the path, *port is -1).
 * host needs CONF_ADDR_MAX bytes. -1 when addr is malformed.
 */
int conf_addr_split(const char *addr, char *host, size_t hostlen, int *port);

/* An IPv6 address when bracketed, else an IPv4 address or a DNS name. */
int conf_addr_host_ok(const char *host, int bracketed);
/* A dotted IPv4 address. */
int conf_addr_is_ipv4(const char *s);

#endif
