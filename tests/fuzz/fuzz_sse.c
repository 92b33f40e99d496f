/*
 * fuzz_sse.c: SSE framing (sse_frame.c) under arbitrary event names and
 * data. The input is 8 bytes of id, then the event name up to a NUL, then
 * the data up to the next NUL; the last byte also sizes a retry buffer.
 *
 * The invariant: a frame never carries a raw CR or LF inside a field. It
 * is checked by parsing the frame as a browser does (WHATWG HTML, "event
 * stream interpretation"): it must be exactly one event, with our id and
 * name, whose data is the input's data with CRLF and CR read as LF.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sse_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

#define FAIL(...) do { fprintf(stderr, "fuzz_sse: " __VA_ARGS__); \
	fputc('\n', stderr); abort(); } while (0)

/* The data a browser should see: each CRLF, CR or LF becomes one LF. */
static char *
want_data(const char *data)
{
	char *out = malloc(strlen(data) + 1), *o = out;

	if (out == NULL)
		abort();
	for (const char *p = data; *p; p++) {
		if (*p == '\r' && p[1] == '\n')
			continue;
		*o++ = *p == '\r' ? '\n' : *p;
	}
	*o = '\0';
	return out;
}

/* Parse one frame of len bytes and compare it with what was framed. */
static void
check_frame(const char *f, size_t len, unsigned long id, const char *event,
    const char *data)
{
	char idbuf[32], *got = malloc(len + 1), *want = want_data(data);
	size_t glen = 0, ndata = 0;
	int seen_id = 0, seen_event = 0, dispatched = 0;

	if (got == NULL)
		abort();
	got[0] = '\0';
	snprintf(idbuf, sizeof idbuf, "%lu", id);
	if (memchr(f, '\0', len) != NULL)
		FAIL("a NUL inside the frame");
	for (size_t i = 0; i < len;) {
		size_t end = i, next, name, vstart;

		while (end < len && f[end] != '\r' && f[end] != '\n')
			end++;
		if (end == len)
			FAIL("the frame does not end with a line break");
		next = end + (f[end] == '\r' && end + 1 < len &&
		    f[end + 1] == '\n' ? 2 : 1);
		if (dispatched)
			FAIL("bytes after the blank line that ends the event");
		if (end == i) {
			dispatched = 1;
			i = next;
			continue;
		}
		for (name = i; name < end && f[name] != ':'; name++)
			;
		vstart = name < end ? name + 1 : end;
		if (vstart < end && f[vstart] == ' ')
			vstart++;
		if (name - i == 4 && memcmp(f + i, "data", 4) == 0) {
			if (ndata++ > 0)
				got[glen++] = '\n';
			memcpy(got + glen, f + vstart, end - vstart);
			glen += end - vstart;
			got[glen] = '\0';
		} else if (name - i == 5 && memcmp(f + i, "event", 5) == 0) {
			if (end - vstart != strlen(event) ||
			    memcmp(f + vstart, event, end - vstart) != 0)
				FAIL("event %.*s, want %s",
				    (int)(end - vstart), f + vstart, event);
			seen_event++;
		} else if (name - i == 2 && memcmp(f + i, "id", 2) == 0) {
			if (end - vstart != strlen(idbuf) ||
			    memcmp(f + vstart, idbuf, end - vstart) != 0)
				FAIL("id %.*s, want %s", (int)(end - vstart),
				    f + vstart, idbuf);
			seen_id++;
		} else
			FAIL("unexpected line %.*s", (int)(end - i), f + i);
		i = next;
	}
	if (!dispatched || seen_id != 1 || seen_event != 1)
		FAIL("not one whole event (id %d, event %d, end %d)", seen_id,
		    seen_event, dispatched);
	if (strcmp(got, want) != 0)
		FAIL("data [%s], want [%s]", got, want);
	free(got);
	free(want);
}

static void
check_retry(long ms, size_t size)
{
	char *buf = malloc(size ? size : 1), want[48];
	size_t n;

	if (buf == NULL)
		abort();
	n = sse_frame_retry(buf, size, ms);
	snprintf(want, sizeof want, "retry: %ld\n\n", ms);
	if (n != 0 && (n != strlen(want) || n >= size ||
	    memcmp(buf, want, n + 1) != 0))
		FAIL("retry frame of %zu bytes in %zu", n, size);
	if (n == 0 && strlen(want) < size)
		FAIL("retry refused though %zu bytes fit in %zu",
		    strlen(want), size);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	unsigned long id = 0;
	const char *data;
	char *copy, *frame;
	size_t elen, len = 0;
	long ms = 0;

	if (size < 8)
		return 0;
	for (int i = 0; i < 8; i++) {
		id = id << 8 | in[i];
		ms = (long)((unsigned long)ms << 8 | in[i]);
	}
	check_retry(ms, in[size - 1] % 48);
	/* event NUL data: one copy, NUL-terminated twice */
	if ((copy = malloc(size - 8 + 2)) == NULL)
		abort();
	memcpy(copy, in + 8, size - 8);
	copy[size - 8] = copy[size - 7] = '\0';
	elen = strlen(copy);
	data = copy + elen + 1;
	frame = sse_frame_event(id, copy, data, &len);
	if (elen == 0 || strpbrk(copy, "\r\n") != NULL) {
		if (frame != NULL)
			FAIL("a frame for the bad event name [%s]", copy);
	} else {
		if (frame == NULL)
			FAIL("no frame for event [%s]", copy);
		check_frame(frame, len, id, copy, data);
	}
	free(frame);
	free(copy);
	return 0;
}
