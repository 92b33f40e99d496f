/* decimal.c: see decimal.h. */
#include "decimal.h"

char *
decimal_put(char *p, long long v)
{
	unsigned long long u = v < 0 ? -(unsigned long long)v :
	    (unsigned long long)v;
	char digits[DECIMAL_MAX];
	int n = 0;

	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*p++ = '-';
	while (n > 0)
		*p++ = digits[--n];
	return p;
}

char *
decimal_str(char *buf, long long v)
{
	*decimal_put(buf, v) = '\0';
	return buf;
}
