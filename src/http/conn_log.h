/*
 * conn_log.h: the connections conns.c closes by its own rules (a
 * deadline, max_conns_per_ip, the descriptor reserve), counted in the
 * metrics and logged as counts: at most one line a second per reason,
 * event=conns_closed reason=R count=N (and late_ms, the most a close of a
 * deadline came past it), so a flood of closes cannot flood the log.
 */
#ifndef WR_CONN_LOG_H
#define WR_CONN_LOG_H

#include <event2/event.h>

#include "metrics.h"

struct conn_log;

struct conn_log *conn_log_new(struct event_base *base);
/* Logs the counts not logged yet, then frees; NULL does nothing. */
void conn_log_free(struct conn_log *l);

/* n closes for reason at now (monotonic ms): counted, and logged when due. */
void conn_log_note(struct conn_log *l, enum metrics_conn_close reason,
    unsigned long n, long long now);
/* A close of a deadline came late_ms past it: the next line of reason
 * says the most. */
void conn_log_late(struct conn_log *l, enum metrics_conn_close reason,
    long long late_ms);

#endif
