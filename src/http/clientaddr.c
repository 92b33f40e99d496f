/* clientaddr.c: the client's address behind trusted proxies; see .h. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clientaddr.h"
#include "text.h"

#define NETLIST_MAX 64
#define SEPS " \t,"
#define XFF_MAX 512

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

static int
valid_ip(const char *s)
{
	unsigned char a[16];

	return inet_pton(AF_INET, s, a) == 1 || inet_pton(AF_INET6, s, a) == 1;
}

static char *
trim(char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

void
clientaddr_pick(const struct netlist *trusted, const char *peer,
    const char *xff, char *out)
{
	char buf[XFF_MAX], *hops[XFF_MAX / 2 + 1], *save, *h;
	size_t len;
	int n = 0;

	text_copy(out, CLIENTADDR_MAX, peer);
	if (xff == NULL || !netlist_has(trusted, peer))
		return;
	/* Only the nearest hops matter: keep the end of a long header. */
	len = strlen(xff);
	snprintf(buf, sizeof buf, "%s", len < sizeof buf ? xff :
	    xff + len - (sizeof buf - 1));
	for (h = strtok_r(buf, ",", &save); h; h = strtok_r(NULL, ",", &save))
		hops[n++] = trim(h);
	/* From the nearest hop back, past every trusted proxy. */
	while (n-- > 0) {
		if (!valid_ip(hops[n]))
			return;		/* garbage: the last good hop stands */
		snprintf(out, CLIENTADDR_MAX, "%s", hops[n]);
		if (!netlist_has(trusted, hops[n]))
			return;
	}
}
