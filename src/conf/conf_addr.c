/* conf_addr.c: host:port, [v6]:port and unix:/path; see conf_addr.h. */
#include <arpa/inet.h>
#include <string.h>

#include "conf_addr.h"

#define UNIX_PATH_MAX 108	/* sun_path of struct sockaddr_un on Linux */

/* Port 0..65535, decimal digits only; -1 when malformed. */
static int
port_parse(const char *s)
{
	size_t n = strlen(s);
	int v = 0;

	if (n == 0 || n > 5 || strspn(s, "0123456789") != n)
		return -1;
	for (; *s != '\0'; s++)
		v = v * 10 + (*s - '0');
	return v > 65535 ? -1 : v;
}

int
conf_addr_is_ipv4(const char *s)
{
	struct in_addr a;

	return inet_pton(AF_INET, s, &a) == 1;
}

int
conf_addr_host_ok(const char *host, int bracketed)
{
	struct in6_addr a6;
	size_t n = strlen(host);

	if (bracketed)
		return inet_pton(AF_INET6, host, &a6) == 1;
	if (strspn(host, "0123456789.") == n)
		return conf_addr_is_ipv4(host);
	return n <= 253 && host[0] != '.' && host[0] != '-' &&
	    strstr(host, "..") == NULL &&
	    strspn(host, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-.") == n;
}

/* unix:/path, with no control characters. */
static int
addr_unix(const char *path, char *host, size_t hostlen, int *port)
{
	size_t n = strlen(path);

	if (path[0] != '/' || n >= UNIX_PATH_MAX || n >= hostlen)
		return -1;
	for (const char *p = path; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return -1;
	memcpy(host, path, n + 1);
	*port = -1;
	return 0;
}

int
conf_addr_split(const char *addr, char *host, size_t hostlen, int *port)
{
	int bracketed = addr[0] == '[';
	const char *h = addr + bracketed, *colon;
	size_t n;

	if (strncmp(addr, "unix:", 5) == 0)
		return addr_unix(addr + 5, host, hostlen, port);
	if (bracketed && (colon = strchr(h, ']')) != NULL)
		colon++;
	else if (!bracketed)
		colon = strrchr(addr, ':');
	else
		return -1;
	if (colon == NULL || *colon != ':')
		return -1;
	n = (size_t)(colon - h) - (size_t)bracketed;
	if (n == 0 || n >= hostlen || (*port = port_parse(colon + 1)) < 0)
		return -1;
	memcpy(host, h, n);
	host[n] = '\0';
	return conf_addr_host_ok(host, bracketed) ? 0 : -1;
}
