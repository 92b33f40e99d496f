/*
 * b64url.h: base64url without padding (RFC 4648 section 5, as RFC 7515
 * uses it). Decoding is strict: no padding, no whitespace, no character
 * outside the alphabet, and the unused low bits of the last character must
 * be zero, so one byte string has exactly one encoding.
 */
#ifndef WR_B64URL_H
#define WR_B64URL_H

#include <stddef.h>

/* Characters needed to encode n bytes, without the NUL. */
#define B64URL_LEN(n) (((n) * 4 + 2) / 3)

/* Encode n bytes into out (B64URL_LEN(n) + 1 bytes, NUL-terminated). */
void b64url_encode(const unsigned char *in, size_t n, char *out);

/*
 * Decode len characters of in into out (size bytes). Returns the number
 * of bytes, or -1 when in is not canonical base64url or does not fit.
 */
long b64url_decode(const char *in, size_t len, unsigned char *out,
    size_t size);

#endif
