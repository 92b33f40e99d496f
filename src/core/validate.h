/*
 * validate.h: the identifiers of API.md, checked before anything else,
 * and the UTF-8 they are made of. The join body's rules are join_body.h's.
 */
#ifndef WR_VALIDATE_H
#define WR_VALIDATE_H

#include <stddef.h>

#define VALID_QUEUE_ID_MAX 64
#define VALID_TOKEN_LEN 36	/* a token: a v4 UUID as text */
#define VALID_KEY_PREFIX_MAX 32

/* 1 to max characters, each an ASCII letter, a digit or one of extra. */
int valid_word(const char *s, size_t max, const char *extra);
/* [A-Za-z0-9_-]{1,64} */
int valid_queue_id(const char *s);
/* canonical lower-case version 4 UUID, 36 characters */
int valid_token(const char *s);
/* A Content-Length: one or more digits, nothing else (no sign, no space). */
int valid_content_length(const char *s);
/* 1 to 128 characters of valid UTF-8, no control characters (C0, DEL, C1) */
int valid_user(const char *s, size_t len);
/* key_prefix: 1 to 32 of A-Z a-z 0-9 _ . - */
int valid_key_prefix(const char *prefix);

/*
 * Length of the UTF-8 sequence at s (at most n bytes, n > 0) and its code
 * point in *cp; 0 if no valid sequence starts there (overlong, surrogate,
 * past U+10FFFF, cut short).
 */
size_t utf8_next(const unsigned char *s, size_t n, unsigned *cp);
/* 1 if the len bytes at s are all valid UTF-8 (see utf8_next). */
int utf8_valid(const char *s, size_t len);

#endif
