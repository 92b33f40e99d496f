/* validate.h: the identifiers of API.md, checked before anything else. */
#ifndef WR_VALIDATE_H
#define WR_VALIDATE_H

#include <stddef.h>

/* [A-Za-z0-9_-]{1,64} */
int valid_queue_id(const char *s);
/* canonical lower-case version 4 UUID, 36 characters */
int valid_token(const char *s);
/* 1 to 128 characters of valid UTF-8, no control characters (C0, DEL, C1) */
int valid_user(const char *s, size_t len);

#endif
