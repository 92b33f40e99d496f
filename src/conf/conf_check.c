/*
 * conf_check.c: what a value of waitroom.conf may be, key by key: the
 * checkers conf.c's key table names, and the parsing of numbers they
 * share with it, and the order of a queue's schedule (prequeue_from,
 * opens_at, closes_at). Addresses are conf_addr.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_addr.h"
#include "conf_check.h"
#include "netlist.h"
#include "sentinel_spec.h"
#include "validate.h"

#define CONF_TEXT_MAX 4096
#define CONF_REDIRECT_MAX 2048
#define CONF_COOKIE_MAX 64

int
conf_parse_long(const char *s, long *out)
{
	int neg = s[0] == '-';
	const char *p = s + neg;
	long v = 0;

	if (*p == '\0' || strspn(p, "0123456789") != strlen(p))
		return -1;
	for (; *p != '\0'; p++) {
		if (v > (LONG_MAX - (*p - '0')) / 10)
			return -2;
		v = v * 10 + (*p - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

/* n digits at s as a number within lo..hi into *out; -1 when not. */
static int
digits(const char *s, int n, int lo, int hi, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static long
days_from_civil(long y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int
conf_parse_time(const char *s, long *out)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int y, mo, d, h, mi, sec;
	size_t n = strlen(s);
	long v;

	if (n > 0 && strspn(s, "0123456789") == n)
		return conf_parse_long(s, &v) == 0 && v <= 253402300799L ?
		    (*out = v, 0) : -1;
	if ((n != 20 && n != 25) || s[4] != '-' || s[7] != '-' ||
	    (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' ||
	    (n == 20 && s[19] != 'Z' && s[19] != 'z') ||
	    (n == 25 && strcmp(s + 19, "+00:00") != 0))
		return -1;
	if (digits(s, 4, 1970, 9999, &y) == -1 ||
	    digits(s + 5, 2, 1, 12, &mo) == -1 ||
	    digits(s + 8, 2, 1, mdays[mo - 1], &d) == -1 ||
	    digits(s + 11, 2, 0, 23, &h) == -1 ||
	    digits(s + 14, 2, 0, 59, &mi) == -1 ||
	    digits(s + 17, 2, 0, 59, &sec) == -1)
		return -1;
	if (mo == 2 && d == 29 && (y % 4 != 0 || (y % 100 == 0 &&
	    y % 400 != 0)))
		return -1;
	*out = days_from_civil(y, mo, d) * 86400L + h * 3600L + mi * 60L + sec;
	return 0;
}

const char *
conf_check_schedule(long opens_at, long prequeue_from, long closes_at,
    char *err, size_t errlen)
{
	if (opens_at <= 0)
		return NULL;
	if (prequeue_from > opens_at) {
		snprintf(err, errlen, "key 'prequeue_from': %ld is after "
		    "opens_at %ld (accepted: a time at or before opens_at, or "
		    "none)", prequeue_from, opens_at);
		return "prequeue_from";
	}
	if (closes_at > 0 && closes_at < opens_at) {
		snprintf(err, errlen, "key 'closes_at': %ld is before opens_at "
		    "%ld (accepted: a time at or after opens_at, or none)",
		    closes_at, opens_at);
		return "closes_at";
	}
	return NULL;
}

int
conf_check_text(const char *v)
{
	size_t n = strlen(v);

	if (n == 0 || n > CONF_TEXT_MAX)
		return 0;
	for (; *v != '\0'; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return 0;
	return 1;
}

int
conf_check_listen(const char *v)
{
	char host[CONF_ADDR_MAX];
	int port;

	if (conf_addr_split(v, host, sizeof host, &port) != 0 || port < 0)
		return 0;
	return v[0] == '[' || strcmp(host, "localhost") == 0 || conf_addr_is_ipv4(host);
}

int
conf_check_redis(const char *v)
{
	char host[CONF_ADDR_MAX];
	int port;

	struct sentinel_spec sp;

	if (sentinel_spec_is(v))
		return sentinel_spec_parse(v, &sp) == 0;
	return conf_addr_split(v, host, sizeof host, &port) == 0 && port != 0;
}

/* RFC 6265 cookie-name: an RFC 7230 token. */
int
conf_check_cookie(const char *v)
{
	return valid_word(v, CONF_COOKIE_MAX, "!#$%&'*+-.^_`|~");
}

/* A cookie Domain attribute: a DNS name, optionally with a leading dot. */
int
conf_check_domain(const char *v)
{
	return conf_addr_host_ok(v + (v[0] == '.'), 0) && strchr(v, '.') != NULL &&
	    strspn(v, "0123456789.") != strlen(v);
}

int
conf_check_proxies(const char *v)
{
	return conf_check_text(v) && netlist_valid(v);
}

int
conf_check_redirect(const char *v)
{
	size_t n = strlen(v), min;	/* the scheme and one byte more */

	if (strncmp(v, "https://", 8) == 0)
		min = 9;
	else if (strncmp(v, "http://", 7) == 0)
		min = 8;
	else if (v[0] == '/')
		min = 1;
	else
		return 0;
	if (n < min || n > CONF_REDIRECT_MAX || !utf8_valid(v, n))
		return 0;
	for (; *v != '\0'; v++)
		if ((unsigned char)*v <= 0x20 || *v == 0x7f)
			return 0;
	return 1;
}
