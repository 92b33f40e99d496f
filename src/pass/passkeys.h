/*
 * passkeys.h: the signing keys of entry passes, from pass_key_file. One
 * key a line, "KID SECRET"; blank lines and # comments are allowed. The
 * last key signs new passes, every key verifies, so a new key is rotated in
 * by appending it (old passes stay valid until they expire) and an old one
 * is retired by deleting its line once its passes have expired; SIGHUP
 * reads the file again (reload.c).
 */
#ifndef WR_PASSKEYS_H
#define WR_PASSKEYS_H

#include <stddef.h>

#define PASSKEYS_KID_MAX 64
#define PASSKEYS_SECRET_MIN 32
#define PASSKEYS_SECRET_MAX 512
#define PASSKEYS_MAX 64

struct passkey {
	char kid[PASSKEYS_KID_MAX + 1];
	unsigned char secret[PASSKEYS_SECRET_MAX];
	size_t len;
};

struct passkeys {
	struct passkey keys[PASSKEYS_MAX];
	size_t n;
};

/*
 * Read the keys from text (named fname in messages) or from the file at
 * path. NULL on error, with err naming the file, the line and what is
 * wrong (never the secret).
 */
struct passkeys *passkeys_load_string(const char *text, const char *fname,
    char *err, size_t errlen);
struct passkeys *passkeys_load_file(const char *path, char *err,
    size_t errlen);
/* Wipes the secrets. */
void passkeys_free(struct passkeys *k);

/* The key that signs (the last one). */
const struct passkey *passkeys_signer(const struct passkeys *k);
/* The key named kid (len bytes), NULL when none. */
const struct passkey *passkeys_find(const struct passkeys *k, const char *kid,
    size_t len);

#endif
