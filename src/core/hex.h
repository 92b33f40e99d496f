/*
 * hex.h: bytes as lower-case hex and back, and a fresh random value as
 * hex: the draw's seed and commitment, the challenges' key, the epoch.
 */
#ifndef WR_HEX_H
#define WR_HEX_H

#include <stddef.h>

/* Lower-case hex of n bytes into out (2n + 1 bytes). */
void hex_encode(const unsigned char *b, size_t n, char *out);
/* Lower- or upper-case hex into at most max bytes: the byte count, or -1
 * for an odd length, a character that is not hex, or more than max. */
int hex_decode(const char *s, unsigned char *out, size_t max);
/* n random bytes (getrandom) as hex into out (2n + 1 bytes); -1 when
 * the kernel gave fewer. */
int hex_random(size_t n, char *out);

#endif
