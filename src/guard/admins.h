/*
 * admins.h: the admins of admin_token_file, each a name and a bearer
 * token. The file holds either one bare token on its first line (the
 * admin is then named "admin", as before names existed) or lines
 * "NAME TOKEN"; blank lines and lines starting with '#' are skipped. A
 * request's admin is found by comparing its token with every one, in
 * time that depends on the file only.
 */
#ifndef WR_ADMINS_H
#define WR_ADMINS_H

#include <stddef.h>

#include "auth.h"

#define ADMINS_NAME_MAX 32	/* A-Z a-z 0-9 and . _ @ - */
#define ADMINS_MAX 64

struct admin {
	char name[ADMINS_NAME_MAX + 1];
	char token[AUTH_TOKEN_MAX + 1];
};

struct admins {
	size_t n;
	struct admin a[ADMINS_MAX];
};

/* Read path; NULL with err naming the file, the line and what is wrong. */
struct admins *admins_load(const char *path, char *err, size_t errlen);
/* Wipes the tokens. */
void admins_free(struct admins *ad);

/*
 * The name of the admin whose token the Authorization header carries
 * ("Bearer <token>", the scheme in any case), or NULL.
 */
const char *admins_find(const struct admins *ad, const char *header);

#endif
