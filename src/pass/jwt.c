/* jwt.c: JWS compact serialization with HS256; see jwt.h. */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "b64url.h"
#include "jwt.h"

#define JWT_PART_MAX 1024	/* decoded bytes of a header or payload */

int
jwt_split(const char *s, size_t len, struct jwt_parts *p)
{
	const char *d1 = memchr(s, '.', len), *d2;

	if (d1 == NULL)
		return -1;
	d2 = memchr(d1 + 1, '.', len - (size_t)(d1 + 1 - s));
	if (d2 == NULL || memchr(d2 + 1, '.', len - (size_t)(d2 + 1 - s)))
		return -1;
	p->header = s, p->hlen = (size_t)(d1 - s);
	p->payload = d1 + 1, p->plen = (size_t)(d2 - d1 - 1);
	p->sig = d2 + 1, p->slen = len - (size_t)(d2 + 1 - s);
	p->signed_len = (size_t)(d2 - s);
	return 0;
}

json_t *
jwt_part_json(const char *part, size_t len)
{
	unsigned char buf[JWT_PART_MAX];
	long n = b64url_decode(part, len, buf, sizeof buf);
	json_t *j;

	if (n <= 0)
		return NULL;
	j = json_loadb((const char *)buf, (size_t)n, JSON_REJECT_DUPLICATES,
	    NULL);
	if (j != NULL && !json_is_object(j)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static int
jwt_mac(const unsigned char *key, size_t keylen, const char *input,
    size_t len, unsigned char mac[32])
{
	unsigned int maclen = 0;

	if (HMAC(EVP_sha256(), key, (int)keylen, (const unsigned char *)input,
	    len, mac, &maclen) == NULL || maclen != 32)
		return -1;
	return 0;
}

int
jwt_hs256(const unsigned char *key, size_t keylen, const char *input,
    size_t len, char out[JWT_SIG_LEN + 1])
{
	unsigned char mac[32];

	if (jwt_mac(key, keylen, input, len, mac) == -1)
		return -1;
	b64url_encode(mac, sizeof mac, out);
	return 0;
}

int
jwt_hs256_ok(const unsigned char *key, size_t keylen, const char *input,
    size_t len, const char *sig, size_t siglen)
{
	unsigned char want[32], got[32];

	if (siglen != JWT_SIG_LEN ||
	    b64url_decode(sig, siglen, got, sizeof got) != 32 ||
	    jwt_mac(key, keylen, input, len, want) == -1)
		return 0;
	return CRYPTO_memcmp(want, got, sizeof want) == 0;
}
