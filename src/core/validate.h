/* validate.h: the identifiers of API.md, checked before anything else. */
#ifndef WR_VALIDATE_H
#define WR_VALIDATE_H

#include <stddef.h>

#include <jansson.h>

/* [A-Za-z0-9_-]{1,64} */
int valid_queue_id(const char *s);
/* canonical lower-case version 4 UUID, 36 characters */
int valid_token(const char *s);
/* A Content-Length: one or more digits, nothing else (no sign, no space). */
int valid_content_length(const char *s);
/* 1 to 128 characters of valid UTF-8, no control characters (C0, DEL, C1) */
int valid_user(const char *s, size_t len);

/*
 * Length of the UTF-8 sequence at s (at most n bytes, n > 0) and its code
 * point in *cp; 0 if no valid sequence starts there (overlong, surrogate,
 * past U+10FFFF, cut short).
 */
size_t utf8_next(const unsigned char *s, size_t n, unsigned *cp);
/* 1 if the len bytes at s are all valid UTF-8 (see utf8_next). */
int utf8_valid(const char *s, size_t len);

enum join_body {
	JOIN_BODY_OK,
	JOIN_BODY_BAD_JSON,	/* not JSON: err says where */
	JOIN_BODY_BAD_SHAPE,	/* not an object, or a field it may not carry */
	JOIN_BODY_USER_TYPE,	/* user is not a string */
	JOIN_BODY_BAD_USER	/* user fails valid_user */
};

/*
 * The optional body of a join, {"user": "...", "challenge": "...",
 * "nonce": "...", "invite": "..."} (each field optional), of len bytes
 * (0: none), parsed by jansson: join_body.c's reference and fallback.
 * *doc is the parsed body for the caller to json_decref (NULL when none),
 * even on error; *user, borrowed from *doc, is NULL when none or on error.
 */
enum join_body valid_join_body(const char *body, size_t len, json_t **doc,
    const char **user, json_error_t *err);
/* How many of the fields a join may carry (doc/api.md) doc has. */
size_t valid_join_known_fields(const json_t *doc);

#endif
