/*
 * conf_check.h: the checkers of waitroom.conf's values (1 when valid),
 * named by conf.c's key table, and the strict integer parse it uses.
 * conf_addr_split, shared with the listener and the store, is in
 * conf_addr.h.
 */
#ifndef WR_CONF_CHECK_H
#define WR_CONF_CHECK_H

#include <stddef.h>

/* Strictly decimal: 0 ok, -1 not an integer, -2 too large for a long. */
int conf_parse_long(const char *s, long *out);

/*
 * A time of the schedule keys: unix seconds, or RFC 3339 in UTC
 * ("2026-12-01T10:00:00Z", or with "+00:00"), from 1970 to 9999; 0 and
 * *out when valid, -1 when not.
 */
int conf_parse_time(const char *s, long *out);

/*
 * A queue's schedule in order: prequeue_from <= opens_at <= closes_at,
 * each where set (0: not set). NULL when it is; else the key at fault,
 * and into err why, naming the values and what would be accepted.
 */
const char *conf_check_schedule(long opens_at, long prequeue_from,
    long closes_at, char *err, size_t errlen);

int conf_check_text(const char *v);	/* printable, not too long */
int conf_check_listen(const char *v);	/* host:port to serve on */
int conf_check_redis(const char *v);	/* host:port or unix:/path */
int conf_check_cookie(const char *v);	/* a cookie name */
int conf_check_domain(const char *v);	/* a cookie domain */
int conf_check_proxies(const char *v);	/* addresses or CIDR blocks */
int conf_check_redirect(const char *v);	/* http(s):// URL or /path */

#endif
