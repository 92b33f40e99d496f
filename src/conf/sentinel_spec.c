/* sentinel_spec.c: read sentinel://...; see sentinel_spec.h. */
#include <string.h>

#include "sentinel_spec.h"

int
sentinel_spec_is(const char *v)
{
	return strncmp(v, SENTINEL_PREFIX, strlen(SENTINEL_PREFIX)) == 0;
}

/* A master name as Sentinel takes it in its configuration. */
static int
name_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= SENTINEL_NAME_MAX &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_.-") == n;
}

/* One HOST:PORT of the list (len bytes at s) into slot i. */
static int
one_sentinel(const char *s, size_t len, struct sentinel_spec *sp)
{
	char addr[CONF_ADDR_MAX];
	int port;

	if (len == 0 || len >= sizeof addr || sp->n == SENTINEL_MAX)
		return -1;
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (strncmp(addr, "unix:", 5) == 0 || conf_addr_split(addr,
	    sp->host[sp->n], sizeof sp->host[sp->n], &port) == -1 || port < 1)
		return -1;
	sp->port[sp->n++] = port;
	return 0;
}

int
sentinel_spec_parse(const char *v, struct sentinel_spec *sp)
{
	const char *p, *slash;

	memset(sp, 0, sizeof sp[0]);
	if (!sentinel_spec_is(v))
		return -1;
	p = v + strlen(SENTINEL_PREFIX);
	if ((slash = strrchr(p, '/')) == NULL || !name_ok(slash + 1))
		return -1;
	strcpy(sp->master, slash + 1);
	while (p < slash) {
		const char *comma = memchr(p, ',', (size_t)(slash - p));
		const char *end = comma ? comma : slash;

		if (one_sentinel(p, (size_t)(end - p), sp) == -1)
			return -1;
		p = comma ? comma + 1 : slash;
		if (comma && p == slash)
			return -1;	/* a trailing comma */
	}
	return sp->n > 0 ? 0 : -1;
}
