/* text.h: copying C strings into fixed buffers. */
#ifndef WR_TEXT_H
#define WR_TEXT_H

#include <string.h>

/* Copy src into dst (size > 0 bytes), cut short to fit; returns dst. */
static inline char *
text_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	return dst;
}

#endif
