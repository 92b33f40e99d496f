/* passkeys.c: the pass_key_file; see passkeys.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "passkeys.h"

#define PASSKEYS_FILE_MAX 65536
#define KID_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
	"0123456789._-"

static void passkeys_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
passkeys_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Split line into kid and secret at the run of blanks between them. */
static int
passkeys_line(struct passkeys *k, char *line, const char *fname, int lineno,
    char *err, size_t errlen)
{
	size_t kl = strcspn(line, " \t"), sl;
	char *secret = line + kl + strspn(line + kl, " \t");
	struct passkey *p;

	line[kl] = '\0';
	sl = strcspn(secret, " \t");
	if (*secret == '\0' || secret[sl + strspn(secret + sl, " \t")] != '\0')
		return passkeys_err(err, errlen, "%s:%d: expected 'KID SECRET' "
		    "(two words)", fname, lineno), -1;
	secret[sl] = '\0';
	if (kl > PASSKEYS_KID_MAX || strspn(line, KID_CHARS) != kl)
		return passkeys_err(err, errlen, "%s:%d: bad key id (accepted: "
		    "1 to %d of A-Z a-z 0-9 . _ -)", fname, lineno,
		    PASSKEYS_KID_MAX), -1;
	if (sl < PASSKEYS_SECRET_MIN || sl > PASSKEYS_SECRET_MAX)
		return passkeys_err(err, errlen, "%s:%d: the secret of key '%s' "
		    "is %zu characters (accepted: %d to %d)", fname, lineno,
		    line, sl, PASSKEYS_SECRET_MIN, PASSKEYS_SECRET_MAX), -1;
	if (passkeys_find(k, line, kl) != NULL)
		return passkeys_err(err, errlen, "%s:%d: duplicate key id '%s'",
		    fname, lineno, line), -1;
	if (k->n == PASSKEYS_MAX)
		return passkeys_err(err, errlen, "%s:%d: more than %d keys",
		    fname, lineno, PASSKEYS_MAX), -1;
	p = &k->keys[k->n++];
	memcpy(p->kid, line, kl + 1);
	memcpy(p->secret, secret, sl);
	p->len = sl;
	return 0;
}

static int
passkeys_parse(struct passkeys *k, char *text, const char *fname, char *err,
    size_t errlen)
{
	char *line, *next, *s;
	int lineno = 0;
	size_t n;

	for (line = text; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		lineno++;
		s = line + strspn(line, " \t");
		n = strlen(s);
		while (n > 0 && strchr(" \t\r", s[n - 1]) != NULL)
			s[--n] = '\0';
		if (*s == '\0' || *s == '#')
			continue;
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
				return passkeys_err(err, errlen, "%s:%d: "
				    "control character in line", fname,
				    lineno), -1;
		if (passkeys_line(k, s, fname, lineno, err, errlen) == -1)
			return -1;
	}
	if (k->n == 0)
		return passkeys_err(err, errlen, "%s: no keys (expected lines "
		    "'KID SECRET', secret of %d or more characters)", fname,
		    PASSKEYS_SECRET_MIN), -1;
	return 0;
}

struct passkeys *
passkeys_load_string(const char *text, const char *fname, char *err,
    size_t errlen)
{
	struct passkeys *k = calloc(1, sizeof *k);
	char *copy = strdup(text);

	if (k == NULL || copy == NULL) {
		passkeys_err(err, errlen, "%s: out of memory", fname);
		goto fail;
	}
	if (passkeys_parse(k, copy, fname, err, errlen) == -1)
		goto fail;
	OPENSSL_cleanse(copy, strlen(text));
	free(copy);
	return k;
fail:
	if (copy)
		OPENSSL_cleanse(copy, strlen(text));
	free(copy);
	passkeys_free(k);
	return NULL;
}

struct passkeys *
passkeys_load_file(const char *path, char *err, size_t errlen)
{
	char *text = malloc(PASSKEYS_FILE_MAX + 1);
	struct passkeys *k = NULL;
	size_t n = 0;
	FILE *f;

	if (text == NULL || (f = fopen(path, "r")) == NULL) {
		passkeys_err(err, errlen, "%s: cannot read: %s", path,
		    text ? strerror(errno) : "out of memory");
		goto done;
	}
	n = fread(text, 1, PASSKEYS_FILE_MAX + 1, f);
	if (ferror(f)) {
		passkeys_err(err, errlen, "%s: cannot read: %s", path,
		    strerror(errno));
		fclose(f);
		goto done;
	}
	fclose(f);
	if (n > PASSKEYS_FILE_MAX || memchr(text, '\0', n) != NULL) {
		passkeys_err(err, errlen, "%s: cannot read: %s", path,
		    n > PASSKEYS_FILE_MAX ? "larger than 64 KiB" :
		    "holds a NUL byte");
		goto done;
	}
	text[n] = '\0';
	k = passkeys_load_string(text, path, err, errlen);
done:
	if (text)
		OPENSSL_cleanse(text, n);
	free(text);
	return k;
}

void
passkeys_free(struct passkeys *k)
{
	if (k == NULL)
		return;
	OPENSSL_cleanse(k, sizeof *k);
	free(k);
}

const struct passkey *
passkeys_signer(const struct passkeys *k)
{
	return k && k->n > 0 ? &k->keys[k->n - 1] : NULL;
}

const struct passkey *
passkeys_find(const struct passkeys *k, const char *kid, size_t len)
{
	for (size_t i = 0; k && i < k->n; i++)
		if (strlen(k->keys[i].kid) == len &&
		    memcmp(k->keys[i].kid, kid, len) == 0)
			return &k->keys[i];
	return NULL;
}
