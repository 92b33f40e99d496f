/* decimal.h: integers written in decimal, without printf's machinery. */
#ifndef WR_DECIMAL_H
#define WR_DECIMAL_H

/* The most a long long takes: a sign and 19 digits. */
#define DECIMAL_MAX 20

/* Write v at p (no NUL); returns the end. */
char *decimal_put(char *p, long long v);
/* Write v and a NUL into buf (DECIMAL_MAX + 1 bytes); returns buf. */
char *decimal_str(char *buf, long long v);

#endif
