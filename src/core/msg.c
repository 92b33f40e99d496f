/* msg.c: error messages of the parsers; see msg.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "validate.h"

void
msg_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * s as it may be quoted in a message: control bytes and bytes that are not
 * UTF-8 escaped as \xNN, cut short between characters.
 */
const char *
msg_shown(char buf[MSG_SHOWN_SIZE], const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n = strlen(s), step;
	unsigned cp;

	for (; n > 0 && i < MSG_SHOWN_MAX; u += step, n -= step) {
		step = utf8_next(u, n, &cp);
		if (step == 0 || cp < 0x20 || cp == 0x7f) {
			i += (size_t)snprintf(buf + i, 5, "\\x%02x", *u);
			step = 1;
		} else {
			memcpy(buf + i, u, step);
			i += step;
		}
	}
	if (n > 0) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}
