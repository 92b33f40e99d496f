/* origin.c: the browser-origin rule for joins; see origin.h. */
#include <string.h>

#include "cors.h"
#include "origin.h"

int
origin_allowed(const char *allowed, const char *origin,
    const char *fetch_site, const char *host)
{
	if (cors_any(allowed) || cors_allowed(allowed, origin))
		return 1;
	if (fetch_site)
		return strcmp(fetch_site, "same-origin") == 0 ||
		    strcmp(fetch_site, "none") == 0;
	if (origin == NULL)
		return 1;
	return cors_same_origin(origin, host);
}
