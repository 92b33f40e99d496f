/* sha256.c: SHA-256 and prepared HMAC-SHA256; see sha256.h. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "sha256.h"

#define BLOCK 64		/* SHA-256's block, HMAC's pad */

struct sha256_mac {
	EVP_MD_CTX *inner, *outer;	/* after the key's pads */
	EVP_MD_CTX *work;
};

/* The digest, fetched once for the process; NULL when OpenSSL fails. */
static EVP_MD *
md(void)
{
	static EVP_MD *sha;

	if (sha == NULL)
		sha = EVP_MD_fetch(NULL, "SHA256", NULL);
	return sha;
}

int
sha256(const void *p, size_t n, unsigned char out[SHA256_LEN])
{
	static EVP_MD_CTX *ctx;

	if ((ctx == NULL && (ctx = EVP_MD_CTX_new()) == NULL) || md() == NULL ||
	    !EVP_DigestInit_ex(ctx, md(), NULL) ||
	    !EVP_DigestUpdate(ctx, p, n) || !EVP_DigestFinal_ex(ctx, out, NULL))
		return -1;
	return 0;
}

/* ctx begun with the key XORed into a block of pad. */
static int
pad_begin(EVP_MD_CTX *ctx, const unsigned char *key, size_t len,
    unsigned char pad)
{
	unsigned char block[BLOCK];
	int ok;

	memset(block, pad, sizeof block);
	for (size_t i = 0; i < len; i++)
		block[i] ^= key[i];
	ok = EVP_DigestInit_ex(ctx, md(), NULL) &&
	    EVP_DigestUpdate(ctx, block, sizeof block);
	OPENSSL_cleanse(block, sizeof block);
	return ok ? 0 : -1;
}

struct sha256_mac *
sha256_mac_new(const unsigned char *key, size_t len)
{
	struct sha256_mac *m;

	if (len > BLOCK || md() == NULL || (m = calloc(1, sizeof *m)) == NULL)
		return NULL;
	if ((m->inner = EVP_MD_CTX_new()) == NULL ||
	    (m->outer = EVP_MD_CTX_new()) == NULL ||
	    (m->work = EVP_MD_CTX_new()) == NULL ||
	    pad_begin(m->inner, key, len, 0x36) == -1 ||
	    pad_begin(m->outer, key, len, 0x5c) == -1) {
		sha256_mac_free(m);
		return NULL;
	}
	return m;
}

void
sha256_mac_free(struct sha256_mac *m)
{
	if (m == NULL)
		return;
	EVP_MD_CTX_free(m->inner);
	EVP_MD_CTX_free(m->outer);
	EVP_MD_CTX_free(m->work);
	free(m);
}

int
sha256_mac(struct sha256_mac *m, const void *p, size_t n,
    unsigned char out[SHA256_LEN])
{
	unsigned char in[SHA256_LEN];

	if (!EVP_MD_CTX_copy_ex(m->work, m->inner) ||
	    !EVP_DigestUpdate(m->work, p, n) ||
	    !EVP_DigestFinal_ex(m->work, in, NULL) ||
	    !EVP_MD_CTX_copy_ex(m->work, m->outer) ||
	    !EVP_DigestUpdate(m->work, in, sizeof in) ||
	    !EVP_DigestFinal_ex(m->work, out, NULL))
		return -1;
	return 0;
}
