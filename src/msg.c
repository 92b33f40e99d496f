/* msg.c: error messages of the parsers; see msg.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"

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

/* s as it may be quoted in a message: control bytes escaped, cut short. */
const char *
msg_shown(char buf[MSG_SHOWN_SIZE], const char *s)
{
	size_t i = 0;

	for (; *s != '\0' && i < MSG_SHOWN_MAX; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			i += (size_t)snprintf(buf + i, 5, "\\x%02x",
			    (unsigned char)*s);
		else
			buf[i++] = *s;
	}
	if (*s != '\0') {
		/* cut before the UTF-8 sequence the limit fell into */
		while (i > 0 && ((unsigned char)buf[i - 1] & 0xc0) == 0x80)
			i--;
		if (i > 0 && (unsigned char)buf[i - 1] >= 0xc0)
			i--;
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}
