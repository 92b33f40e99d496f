/* cookie.c: Cookie and Set-Cookie; see cookie.h. */
#include <stdio.h>
#include <string.h>

#include "cookie.h"

int
cookie_find(const char *header, const char *name, const char **val,
    size_t *len)
{
	size_t nl = strlen(name);
	const char *p = header;

	while (*p != '\0') {
		size_t pair, vl;
		const char *v;

		p += strspn(p, " \t;");
		pair = strcspn(p, ";");
		if (pair > nl && memcmp(p, name, nl) == 0 && p[nl] == '=') {
			v = p + nl + 1;
			vl = pair - nl - 1;
			while (vl > 0 && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
				vl--;
			if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"')
				v++, vl -= 2;
			*val = v, *len = vl;
			return 0;
		}
		p += pair;
	}
	return -1;
}

int
cookie_set(char *buf, size_t size, const char *name, const char *value,
    long long max_age, const char *domain, int secure)
{
	int n = snprintf(buf, size, "%s=%s; Path=/; Max-Age=%lld%s%s; "
	    "HttpOnly; SameSite=Lax%s", name, value, max_age < 0 ? 0 : max_age,
	    domain ? "; Domain=" : "", domain ? domain : "",
	    secure ? "; Secure" : "");

	return n < 0 || (size_t)n >= size ? -1 : 0;
}
