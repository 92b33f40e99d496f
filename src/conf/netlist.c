/* netlist.c: lists of addresses and CIDR blocks; see netlist.h. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netlist.h"

#define NETLIST_MAX 64
#define SEPS " \t,"

struct net {
	int family;
	unsigned char addr[16];
	int bits;
};

struct netlist {
	size_t n;
	struct net nets[NETLIST_MAX];
};

/* "1.2.3.4", "::1", "10.0.0.0/8" */
static int
net_parse(const char *s, size_t len, struct net *n)
{
	char buf[64], *slash;
	int max;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if ((slash = strchr(buf, '/')) != NULL)
		*slash++ = '\0';
	memset(n, 0, sizeof *n);
	if (inet_pton(AF_INET, buf, n->addr) == 1)
		n->family = AF_INET, max = 32;
	else if (inet_pton(AF_INET6, buf, n->addr) == 1)
		n->family = AF_INET6, max = 128;
	else
		return -1;
	n->bits = max;
	if (slash) {
		char *end;
		long b = strtol(slash, &end, 10);

		if (*slash == '\0' || *end != '\0' || b < 0 || b > max)
			return -1;
		n->bits = (int)b;
	}
	return 0;
}

static int
net_match(const struct net *n, int family, const unsigned char *a)
{
	int full = n->bits / 8, rest = n->bits % 8;

	if (n->family != family || memcmp(n->addr, a, (size_t)full) != 0)
		return 0;
	return rest == 0 ||
	    ((n->addr[full] ^ a[full]) & (0xff << (8 - rest))) == 0;
}

struct netlist *
netlist_parse(const char *text, int *bad, char *err, size_t errlen)
{
	struct netlist *l;
	const char *p = text;

	*bad = 0;
	if (text == NULL || text[strspn(text, SEPS)] == '\0')
		return NULL;
	if ((l = calloc(1, sizeof *l)) == NULL)
		goto fail;
	while (*(p += strspn(p, SEPS)) != '\0') {
		size_t len = strcspn(p, SEPS);

		if (l->n == NETLIST_MAX || net_parse(p, len, &l->nets[l->n]))
			goto fail;
		l->n++;
		p += len;
	}
	return l;
fail:
	*bad = 1;
	if (err)
		snprintf(err, errlen, "'%.*s' is not an address or CIDR block "
		    "(or more than %d entries)", (int)strcspn(p, SEPS), p,
		    NETLIST_MAX);
	free(l);
	return NULL;
}

void
netlist_free(struct netlist *l)
{
	free(l);
}

int
netlist_valid(const char *text)
{
	int bad;

	netlist_free(netlist_parse(text, &bad, NULL, 0));
	return !bad;
}

int
netlist_has(const struct netlist *l, const char *addr)
{
	unsigned char a[16];
	int family;

	if (l == NULL)
		return 0;
	if (inet_pton(AF_INET, addr, a) == 1)
		family = AF_INET;
	else if (inet_pton(AF_INET6, addr, a) == 1)
		family = AF_INET6;
	else
		return 0;
	for (size_t i = 0; i < l->n; i++)
		if (net_match(&l->nets[i], family, a))
			return 1;
	return 0;
}
