/* origin.c: the browser-origin rule for joins; see origin.h. */
#include <string.h>
#include <strings.h>

#include "origin.h"

#define SEPS " \t,"

/* Is origin (or "*") one of the words of list? */
static int
origin_listed(const char *list, const char *origin)
{
	size_t on = origin ? strlen(origin) : 0;

	for (const char *p = list; p && *(p += strspn(p, SEPS)) != '\0';) {
		size_t n = strcspn(p, SEPS);

		if ((n == 1 && *p == '*') || (origin && n == on &&
		    strncasecmp(p, origin, n) == 0))
			return 1;
		p += n;
	}
	return 0;
}

/* "https://shop.example:8443" names host "shop.example:8443"? */
static int
origin_is_host(const char *origin, const char *host)
{
	const char *auth = strstr(origin, "://");

	return auth && host && strcasecmp(auth + 3, host) == 0;
}

int
origin_allowed(const char *allowed, const char *origin,
    const char *fetch_site, const char *host)
{
	if (origin_listed(allowed, origin))
		return 1;
	if (fetch_site)
		return strcmp(fetch_site, "same-origin") == 0 ||
		    strcmp(fetch_site, "none") == 0;
	if (origin == NULL)
		return 1;
	return strcmp(origin, "null") != 0 && origin_is_host(origin, host);
}
