/* sse_frame.c: Server-Sent Events framing; see sse_frame.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sse_frame.h"

/* Bytes of data once split into "data: " lines (CR, LF, CRLF all break). */
static size_t
data_size(const char *data, size_t *lines)
{
	size_t n = 0;

	*lines = 1;
	for (const char *p = data; *p; p++) {
		if (*p == '\r' && p[1] == '\n')
			continue;
		if (*p == '\r' || *p == '\n')
			(*lines)++;
		else
			n++;
	}
	return n;
}

static char *
data_lines(char *out, const char *data)
{
	out += sprintf(out, "data: ");
	for (const char *p = data; *p; p++) {
		if (*p == '\r' && p[1] == '\n')
			continue;
		if (*p == '\r' || *p == '\n')
			out += sprintf(out, "\ndata: ");
		else
			*out++ = *p;
	}
	*out++ = '\n';
	*out++ = '\n';
	return out;
}

char *
sse_frame_event(unsigned long id, const char *event, const char *data,
    size_t *len)
{
	size_t lines, size;
	char *buf, *p;

	if (event[0] == '\0' || strpbrk(event, "\r\n") != NULL)
		return NULL;
	size = 32 + strlen(event) + data_size(data, &lines) + lines * 7 + 2;
	if ((buf = malloc(size)) == NULL)
		return NULL;
	p = buf + sprintf(buf, "id: %lu\nevent: %s\n", id, event);
	p = data_lines(p, data);
	*len = (size_t)(p - buf);
	return buf;
}

size_t
sse_frame_retry(char *buf, size_t size, long ms)
{
	int n = snprintf(buf, size, "retry: %ld\n\n", ms);

	return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}
