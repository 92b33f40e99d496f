/* auth.c: the admin token; see auth.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "auth.h"

int
auth_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	volatile unsigned char diff = alen != blen;

	/* Walk all of b whatever a holds; a is read in bounds, cycled. */
	for (size_t i = 0; i < blen; i++)
		diff |= (unsigned char)(b[i] ^ (alen ? a[i % alen] : 0));
	return diff == 0;
}

int
auth_check(const char *header, const char *token)
{
	const char *cred;

	if (header == NULL || token == NULL || strncasecmp(header, "Bearer ",
	    7) != 0)
		return 0;
	cred = header + 7 + strspn(header + 7, " ");
	return auth_equal(cred, strlen(cred), token, strlen(token));
}

/* Visible ASCII, no spaces. */
static int
auth_token_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return n >= AUTH_TOKEN_MIN && n <= AUTH_TOKEN_MAX;
}

int
auth_secret_load(const char *key, const char *path, char *buf, char *err,
    size_t errlen)
{
	char line[AUTH_TOKEN_MAX + 64];
	size_t start, n;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s %s: cannot read: %s", key, path,
		    strerror(errno));
		return -1;
	}
	if (fgets(line, sizeof line, f) == NULL)
		line[0] = '\0';
	fclose(f);
	start = strspn(line, " \t");
	n = strlen(line + start);
	while (n > 0 && strchr(" \t\r\n", line[start + n - 1]) != NULL)
		n--;
	if (!auth_token_ok(line + start, n)) {
		snprintf(err, errlen, "%s %s: the first line must hold the "
		    "secret: %d to %d visible ASCII characters, no spaces", key,
		    path, AUTH_TOKEN_MIN, AUTH_TOKEN_MAX);
		return -1;
	}
	memcpy(buf, line + start, n);
	buf[n] = '\0';
	return 0;
}
