/* httpdate.h: the Date header's form (RFC 9110 IMF-fixdate). */
#ifndef WR_HTTPDATE_H
#define WR_HTTPDATE_H

#include <time.h>

/* "Sun, 06 Nov 1994 08:49:37 GMT" */
#define HTTPDATE_LEN 29

/*
 * Write t (seconds since the epoch, UTC) into out with a NUL; returns -1
 * when t is not a time gmtime_r can break down, or past year 9999.
 */
int httpdate_format(char out[HTTPDATE_LEN + 1], time_t t);

#endif
