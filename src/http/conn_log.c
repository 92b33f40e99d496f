/* conn_log.c: see conn_log.h. */
#include <stdlib.h>

#include "clock.h"
#include "conn_log.h"
#include "log.h"

/* At most one line of closes this often per reason. */
#define CONN_LOG_MS 1000

struct conn_log {
	unsigned long unlogged[MCONN_NREASONS];
	long long logged_ms[MCONN_NREASONS];
	long long late_ms[MCONN_NREASONS];	/* the most past a deadline */
	struct event *ev;
};

static void
conn_log_line(struct conn_log *l, enum metrics_conn_close r, long long now)
{
	if (r == MCONN_HEADER_TIMEOUT || r == MCONN_BODY_TIMEOUT)
		log_info("event=conns_closed reason=%s count=%lu late_ms=%lld",
		    metrics_conn_close_name(r), l->unlogged[r], l->late_ms[r]);
	else
		log_info("event=conns_closed reason=%s count=%lu",
		    metrics_conn_close_name(r), l->unlogged[r]);
	l->unlogged[r] = 0;
	l->late_ms[r] = 0;
	l->logged_ms[r] = now;
}

/* The lines due; a timer for those a line of the last second holds back. */
static void
conn_log_due(struct conn_log *l, long long now)
{
	long long wait = -1;

	for (int r = 0; r < MCONN_NREASONS; r++) {
		long long left = l->logged_ms[r] + CONN_LOG_MS - now;

		if (l->unlogged[r] == 0)
			continue;
		if (left <= 0)
			conn_log_line(l, r, now);
		else if (wait < 0 || left < wait)
			wait = left;
	}
	if (wait >= 0 && !evtimer_pending(l->ev, NULL)) {
		struct timeval tv = { wait / 1000, wait % 1000 * 1000 };

		evtimer_add(l->ev, &tv);
	}
}

static void
conn_log_event(evutil_socket_t fd, short what, void *arg)
{
	conn_log_due(arg, clock_mono_ms());
}

void
conn_log_note(struct conn_log *l, enum metrics_conn_close reason,
    unsigned long n, long long now)
{
	metrics_conn_closes(reason, n);
	l->unlogged[reason] += n;
	conn_log_due(l, now);
}

void
conn_log_late(struct conn_log *l, enum metrics_conn_close reason,
    long long late_ms)
{
	if (late_ms > l->late_ms[reason])
		l->late_ms[reason] = late_ms;
}

struct conn_log *
conn_log_new(struct event_base *base)
{
	struct conn_log *l = calloc(1, sizeof *l);

	if (l != NULL && (l->ev = evtimer_new(base, conn_log_event, l)) ==
	    NULL) {
		free(l);
		return NULL;
	}
	return l;
}

void
conn_log_free(struct conn_log *l)
{
	if (l == NULL)
		return;
	conn_log_due(l, clock_mono_ms() + CONN_LOG_MS);
	event_free(l->ev);
	free(l);
}
