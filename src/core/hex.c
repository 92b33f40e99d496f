/* hex.c: see hex.h. */
#include <string.h>
#include <sys/random.h>

#include "hex.h"

void
hex_encode(const unsigned char *b, size_t n, char *out)
{
	static const char digit[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digit[b[i] >> 4];
		out[2 * i + 1] = digit[b[i] & 15];
	}
	out[2 * n] = '\0';
}

static int
nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
hex_decode(const char *s, unsigned char *out, size_t max)
{
	size_t n = strlen(s);

	if (n % 2 != 0 || n / 2 > max)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		int hi = nibble(s[i]), lo = nibble(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i / 2] = (unsigned char)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

int
hex_random(size_t n, char *out)
{
	unsigned char raw[64];

	if (n > sizeof raw || getrandom(raw, n, 0) != (ssize_t)n)
		return -1;
	hex_encode(raw, n, out);
	return 0;
}
