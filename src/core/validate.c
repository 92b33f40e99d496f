/* validate.c: identifier checks of API.md; pure. */
#include <string.h>

#include "validate.h"

int
valid_word(const char *s, size_t max, const char *extra)
{
	size_t n;

	for (n = 0; s[n] != '\0'; n++) {
		unsigned char c = (unsigned char)s[n];

		if (n == max || !((c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr(extra, c) != NULL))
			return 0;
	}
	return n >= 1;
}

int
valid_queue_id(const char *s)
{
	return valid_word(s, VALID_QUEUE_ID_MAX, "_-");
}

int
valid_token(const char *s)
{
	static const char hex[] = "0123456789abcdef";

	if (strlen(s) != 36)
		return 0;
	for (int i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return 0;
		} else if (s[i] == '\0' || strchr(hex, s[i]) == NULL)
			return 0;
	}
	/* version 4, variant 10xx */
	return s[14] == '4' && strchr("89ab", s[19]) != NULL;
}

int
valid_content_length(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && strspn(s, "0123456789") == n;
}

size_t
utf8_next(const unsigned char *s, size_t n, unsigned *cp)
{
	size_t len, i;
	unsigned min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		len = 2, *cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, *cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, *cp = s[0] & 0x07, min = 0x10000;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

int
utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t step;
	unsigned cp;

	for (; len > 0; p += step, len -= step)
		if ((step = utf8_next(p, len, &cp)) == 0)
			return 0;
	return 1;
}

int
valid_user(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0, step;
	unsigned cp;

	while (len > 0) {
		if ((step = utf8_next(p, len, &cp)) == 0)
			return 0;
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
			return 0;
		p += step, len -= step;
		if (++chars > 128)
			return 0;
	}
	return chars >= 1;
}

int
valid_key_prefix(const char *prefix)
{
	return valid_word(prefix, VALID_KEY_PREFIX_MAX, "_.-");
}
