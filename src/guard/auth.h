/*
 * auth.h: bearer tokens: checking an Authorization header against one in
 * constant time, so the time of a refusal says nothing about how much of
 * a guess was right, and reading a secret from a file.
 */
#ifndef WR_AUTH_H
#define WR_AUTH_H

#include <stddef.h>

#define AUTH_TOKEN_MIN 16
#define AUTH_TOKEN_MAX 256

/*
 * Read the secret of key's file (sentinel_password_file) from path: the
 * file's first line, without surrounding whitespace, AUTH_TOKEN_MIN to
 * AUTH_TOKEN_MAX visible ASCII characters. buf needs AUTH_TOKEN_MAX + 1
 * bytes. -1 with err naming the key, the file and what is wrong. The
 * admins' file is admins.h's.
 */
int auth_secret_load(const char *key, const char *path, char *buf, char *err,
    size_t errlen);

/* 1 when a (alen bytes) equals b (blen bytes); time depends on blen only. */
int auth_equal(const char *a, size_t alen, const char *b, size_t blen);

/* 1 when header is "Bearer <token>" (the scheme in any case). */
int auth_check(const char *header, const char *token);

#endif
