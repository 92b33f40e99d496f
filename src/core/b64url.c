/* b64url.c: strict base64url without padding; see b64url.h. */
#include <string.h>

#include "b64url.h"

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void
b64url_encode(const unsigned char *in, size_t n, char *out)
{
	size_t i;
	unsigned long v;

	for (i = 0; i + 3 <= n; i += 3) {
		v = (unsigned long)in[i] << 16 | (unsigned long)in[i + 1] << 8 |
		    in[i + 2];
		*out++ = alphabet[v >> 18 & 63];
		*out++ = alphabet[v >> 12 & 63];
		*out++ = alphabet[v >> 6 & 63];
		*out++ = alphabet[v & 63];
	}
	if (n - i == 1) {
		v = (unsigned long)in[i] << 16;
		*out++ = alphabet[v >> 18 & 63];
		*out++ = alphabet[v >> 12 & 63];
	} else if (n - i == 2) {
		v = (unsigned long)in[i] << 16 | (unsigned long)in[i + 1] << 8;
		*out++ = alphabet[v >> 18 & 63];
		*out++ = alphabet[v >> 12 & 63];
		*out++ = alphabet[v >> 6 & 63];
	}
	*out = '\0';
}

static int
b64url_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

long
b64url_decode(const char *in, size_t len, unsigned char *out, size_t size)
{
	size_t n = len / 4 * 3 + (len % 4 ? len % 4 - 1 : 0), o = 0;
	unsigned long acc = 0;
	int bits = 0, v;

	if (len % 4 == 1 || n > size)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if ((v = b64url_value(in[i])) < 0)
			return -1;
		acc = (acc << 6 | (unsigned long)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	/* Leftover bits (2 or 4) must be zero: one encoding per string. */
	if (bits > 0 && (acc & ((1UL << bits) - 1)) != 0)
		return -1;
	return (long)o;
}
