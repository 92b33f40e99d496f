/* clientaddr.c: the client's address behind trusted proxies; see .h. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "clientaddr.h"
#include "netlist.h"
#include "text.h"

#define XFF_MAX 512

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
