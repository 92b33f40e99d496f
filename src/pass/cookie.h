/* cookie.h: reading a Cookie header and writing Set-Cookie (RFC 6265). */
#ifndef WR_COOKIE_H
#define WR_COOKIE_H

#include <stddef.h>

/*
 * The value of the first cookie called name in a Cookie header value
 * ("a=1; b=2"), without surrounding double quotes: *val points into header.
 * 0 when found, -1 when not.
 */
int cookie_find(const char *header, const char *name, const char **val,
    size_t *len);

/*
 * "name=value; Path=/; Max-Age=N; [Domain=d; ]HttpOnly; SameSite=Lax[;
 * Secure]" into buf; -1 when it does not fit.
 */
int cookie_set(char *buf, size_t size, const char *name, const char *value,
    long long max_age, const char *domain, int secure);

#endif
