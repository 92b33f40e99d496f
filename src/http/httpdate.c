/*
 * httpdate.c: see httpdate.h. Written by hand: strftime's day and month
 * names follow the locale, and the header's are always English.
 */
#include "httpdate.h"

static const char days[7][4] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
};
static const char months[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* The low `width` digits of v at p; returns the end. */
static char *
put_digits(char *p, int v, int width)
{
	for (int i = width - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + width;
}

static char *
put_name(char *p, const char name[4])
{
	p[0] = name[0], p[1] = name[1], p[2] = name[2];
	return p + 3;
}

int
httpdate_format(char out[HTTPDATE_LEN + 1], time_t t)
{
	struct tm tm;
	char *p = out;

	if (gmtime_r(&t, &tm) == NULL || tm.tm_year < -1900 ||
	    tm.tm_year > 9999 - 1900)
		return -1;
	p = put_name(p, days[tm.tm_wday]);
	*p++ = ',', *p++ = ' ';
	p = put_digits(p, tm.tm_mday, 2);
	*p++ = ' ';
	p = put_name(p, months[tm.tm_mon]);
	*p++ = ' ';
	p = put_digits(p, tm.tm_year + 1900, 4);
	*p++ = ' ';
	p = put_digits(p, tm.tm_hour, 2);
	*p++ = ':';
	p = put_digits(p, tm.tm_min, 2);
	*p++ = ':';
	p = put_digits(p, tm.tm_sec, 2);
	*p++ = ' ', *p++ = 'G', *p++ = 'M', *p++ = 'T', *p = '\0';
	return 0;
}
