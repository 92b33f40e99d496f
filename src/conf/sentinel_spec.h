/*
 * sentinel_spec.h: the Redis address of a Sentinel setup,
 *   sentinel://HOST:PORT,HOST:PORT,.../MASTERNAME
 * (HOST an IPv4 address, a name, or [IPv6]). Pure: the configuration
 * check and the store read it the same way.
 */
#ifndef WR_SENTINEL_SPEC_H
#define WR_SENTINEL_SPEC_H

#include "conf_addr.h"

#define SENTINEL_MAX 8			/* sentinels named */
#define SENTINEL_NAME_MAX 64		/* the master's name */
#define SENTINEL_PREFIX "sentinel://"

struct sentinel_spec {
	int n;
	char host[SENTINEL_MAX][CONF_ADDR_MAX];
	int port[SENTINEL_MAX];
	char master[SENTINEL_NAME_MAX + 1];
};

/* v starts with sentinel:// (then it must parse, or it is a bad value). */
int sentinel_spec_is(const char *v);

/* 0 and sp filled, or -1 when v is not a valid sentinel:// address. */
int sentinel_spec_parse(const char *v, struct sentinel_spec *sp);

#endif
