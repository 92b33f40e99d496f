/*
 * sse_frame.h: Server-Sent Events framing, pure. No field ever carries a
 * raw CR or LF from its input: an event name with one is refused, and data
 * is split into one "data:" line per line of input.
 */
#ifndef WR_SSE_FRAME_H
#define WR_SSE_FRAME_H

#include <stddef.h>

#define SSE_KEEPALIVE ": keepalive\n\n"

/*
 * "id: ID\nevent: EVENT\ndata: ...\n\n" as a malloc'd string of *len
 * bytes; NULL when event is empty or holds CR/LF, or out of memory.
 */
char *sse_frame_event(unsigned long id, const char *event, const char *data,
    size_t *len);

/* "retry: MS\n\n" into buf; its length, or 0 when it does not fit. */
size_t sse_frame_retry(char *buf, size_t size, long ms);

#endif
