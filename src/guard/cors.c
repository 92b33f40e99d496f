/* cors.c: origin lists and same-origin requests. */
#include <string.h>
#include <strings.h>

#include "cors.h"

#define SEP " \t,"

int
cors_any(const char *list)
{
	if (list == NULL)
		return 0;
	while (*(list += strspn(list, SEP)) != '\0') {
		size_t n = strcspn(list, SEP);

		if (n == 1 && list[0] == '*')
			return 1;
		list += n;
	}
	return 0;
}

int
cors_allowed(const char *list, const char *origin)
{
	size_t olen;

	if (list == NULL || origin == NULL || (olen = strlen(origin)) == 0 ||
	    strcmp(origin, "null") == 0)
		return 0;
	while (*(list += strspn(list, SEP)) != '\0') {
		size_t n = strcspn(list, SEP), m = n;

		if (m > 1 && list[m - 1] == '/')
			m--;
		if (m == olen && strncasecmp(list, origin, m) == 0)
			return 1;
		list += n;
	}
	return 0;
}

int
cors_same_origin(const char *origin, const char *host)
{
	const char *h;

	if (origin == NULL || host == NULL || *host == '\0')
		return 0;
	if (strncasecmp(origin, "http://", 7) == 0)
		h = origin + 7;
	else if (strncasecmp(origin, "https://", 8) == 0)
		h = origin + 8;
	else
		return 0;
	return strcasecmp(h, host) == 0;
}
