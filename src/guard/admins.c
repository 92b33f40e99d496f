/* admins.c: the admins of admin_token_file; see admins.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "admins.h"

#define ADMINS_LINE_MAX (ADMINS_NAME_MAX + AUTH_TOKEN_MAX + 64)

static const char admins_name_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "abcdefghijklmnopqrstuvwxyz0123456789._@-";

/* Visible ASCII, no spaces, of a token's length. */
static int
admins_token_ok(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return n >= AUTH_TOKEN_MIN && n <= AUTH_TOKEN_MAX;
}

static int
admins_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= ADMINS_NAME_MAX &&
	    strspn(s, admins_name_chars) == n;
}

/*
 * Split a line into at most three words (f[2]: something after the
 * second). How many there are.
 */
static int
admins_words(char *line, char *f[3])
{
	int n = 0;

	for (char *w = strtok(line, " \t\r\n"); w; w = strtok(NULL, " \t\r\n"))
		if (n < 3)
			f[n++] = w;
	return n;
}

/* Add one admin; -1 with err saying what is wrong. */
static int
admins_add(struct admins *ad, const char *name, const char *token,
    char *why, size_t whylen)
{
	if (!admins_name_ok(name)) {
		snprintf(why, whylen, "a name is 1 to %d of A-Z a-z 0-9 . _ "
		    "@ -", ADMINS_NAME_MAX);
		return -1;
	}
	if (!admins_token_ok(token)) {
		snprintf(why, whylen, "a token is %d to %d visible ASCII "
		    "characters, no spaces", AUTH_TOKEN_MIN, AUTH_TOKEN_MAX);
		return -1;
	}
	for (size_t i = 0; i < ad->n; i++)
		if (strcmp(ad->a[i].name, name) == 0 ||
		    strcmp(ad->a[i].token, token) == 0) {
			snprintf(why, whylen, "the %s of line %zu again",
			    strcmp(ad->a[i].name, name) == 0 ? "name" :
			    "token", i + 1);
			return -1;
		}
	if (ad->n == ADMINS_MAX) {
		snprintf(why, whylen, "more than %d admins", ADMINS_MAX);
		return -1;
	}
	snprintf(ad->a[ad->n].name, sizeof ad->a[ad->n].name, "%s", name);
	snprintf(ad->a[ad->n].token, sizeof ad->a[ad->n].token, "%s", token);
	ad->n++;
	return 0;
}

/*
 * One line (number no, the first that counts when ad is empty) into ad;
 * 1 when the file ends there (a bare token), 0 to read on, -1 with why.
 */
static int
admins_line(struct admins *ad, char *line, char *why, size_t whylen)
{
	char *f[3];
	int n = admins_words(line, f);

	if (n == 0 || f[0][0] == '#')
		return 0;
	if (n == 1 && ad->n == 0)
		return admins_add(ad, "admin", f[0], why, whylen) == 0 ? 1 : -1;
	if (n != 2) {
		snprintf(why, whylen, "each line is NAME TOKEN (or the file "
		    "holds one bare token on its first line)");
		return -1;
	}
	return admins_add(ad, f[0], f[1], why, whylen);
}

/* Read f into ad; -1 with err. */
static int
admins_read(FILE *f, const char *path, struct admins *ad, char *err,
    size_t errlen)
{
	char line[ADMINS_LINE_MAX], why[160];
	int no = 0, r = 0;

	while (r == 0 && fgets(line, sizeof line, f) != NULL) {
		no++;
		if (strchr(line, '\n') == NULL && !feof(f)) {
			snprintf(why, sizeof why, "the line is too long");
			r = -1;
		} else
			r = admins_line(ad, line, why, sizeof why);
	}
	explicit_bzero(line, sizeof line);
	if (r == -1) {
		snprintf(err, errlen, "admin_token_file %s:%d: %s", path, no,
		    why);
		return -1;
	}
	if (ad->n > 0)
		return 0;
	snprintf(err, errlen, "admin_token_file %s: no token: the first line "
	    "holds the token (%d to %d visible ASCII characters, no spaces), "
	    "or each line NAME TOKEN", path, AUTH_TOKEN_MIN, AUTH_TOKEN_MAX);
	return -1;
}

struct admins *
admins_load(const char *path, char *err, size_t errlen)
{
	struct admins *ad = calloc(1, sizeof *ad);
	FILE *f;

	if (ad == NULL) {
		snprintf(err, errlen, "admin_token_file %s: out of memory",
		    path);
		return NULL;
	}
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "admin_token_file %s: cannot read: %s",
		    path, strerror(errno));
		free(ad);
		return NULL;
	}
	if (admins_read(f, path, ad, err, errlen) == -1) {
		admins_free(ad);
		ad = NULL;
	}
	fclose(f);
	return ad;
}

void
admins_free(struct admins *ad)
{
	if (ad == NULL)
		return;
	explicit_bzero(ad, sizeof *ad);
	free(ad);
}

const char *
admins_find(const struct admins *ad, const char *header)
{
	const char *found = NULL;

	if (ad == NULL)
		return NULL;
	/* Every token is compared: the time does not say which matched. */
	for (size_t i = 0; i < ad->n; i++)
		if (auth_check(header, ad->a[i].token) && found == NULL)
			found = ad->a[i].name;
	return found;
}
