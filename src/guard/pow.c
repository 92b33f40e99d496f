/*
 * pow.c: see pow.h. Checking costs a few compressions of SHA-256, so it
 * runs in the loop before a join goes to Redis: a refused proof never
 * reaches it. The HMAC's key is prepared once (sha256.c) for the last key
 * used: one per process, the key every instance shares.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>

#include "b64url.h"
#include "pow.h"
#include "sha256.h"
#include "validate.h"

#define B64_RANDOM B64URL_LEN(POW_RANDOM_LEN)
#define B64_TAG B64URL_LEN(POW_TAG_LEN)

int
pow_zero_bits(const unsigned char *h, size_t n)
{
	int bits = 0;

	for (size_t i = 0; i < n; i++) {
		if (h[i] != 0) {
			for (unsigned char b = h[i]; !(b & 0x80); b <<= 1)
				bits++;
			return bits;
		}
		bits += 8;
	}
	return bits;
}

int
pow_enough(int bits, int asked)
{
	return bits >= asked;
}

int
pow_valid_nonce(const char *s, size_t len)
{
	if (len < 1 || len > POW_NONCE_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

/* The HMAC of the last key used (one per process: the key every
 * instance shares), prepared. */
static struct {
	struct sha256_mac *mac;
	unsigned char key[POW_KEY_LEN];
} pc;

/* pc ready for key; -1 when OpenSSL fails. */
static int
pow_prepare(const unsigned char key[POW_KEY_LEN])
{
	if (pc.mac != NULL && memcmp(pc.key, key, POW_KEY_LEN) == 0)
		return 0;
	sha256_mac_free(pc.mac);
	if ((pc.mac = sha256_mac_new(key, POW_KEY_LEN)) == NULL)
		return -1;
	memcpy(pc.key, key, POW_KEY_LEN);
	return 0;
}

/* The tag of the len bytes signed, base64url, into out. */
static int
pow_tag(const unsigned char key[POW_KEY_LEN], const char *signed_part,
    size_t len, char out[B64_TAG + 1])
{
	unsigned char mac[SHA256_LEN];

	if (pow_prepare(key) == -1 ||
	    sha256_mac(pc.mac, signed_part, len, mac) == -1)
		return -1;
	b64url_encode(mac, POW_TAG_LEN, out);
	return 0;
}

int
pow_issue(char *out, const unsigned char key[POW_KEY_LEN], const char *queue,
    int bits, long long expires, const unsigned char rnd[POW_RANDOM_LEN])
{
	char r[B64_RANDOM + 1];
	int n;

	if (!valid_queue_id(queue) || bits < 0 || bits > POW_BITS_MAX ||
	    expires < 0)
		return -1;
	b64url_encode(rnd, POW_RANDOM_LEN, r);
	n = snprintf(out, POW_CHALLENGE_MAX + 1, "1.%s.%d.%lld.%s.", queue,
	    bits, expires, r);
	if (n < 0 || n + B64_TAG > POW_CHALLENGE_MAX)
		return -1;
	return pow_tag(key, out, (size_t)n - 1, out + n);
}

/*
 * A decimal of 1 to max digits without a leading zero (but "0") at *p,
 * ending at '.'; *p past the dot. -1 when not.
 */
static int
field_num(const char **p, const char *end, int max, long long *v)
{
	const char *s = *p;
	int n = 0;

	*v = 0;
	while (s < end && *s >= '0' && *s <= '9' && n < max) {
		*v = *v * 10 + (*s++ - '0');
		n++;
	}
	if (n == 0 || s == end || *s != '.' || (n > 1 && **p == '0'))
		return -1;
	*p = s + 1;
	return 0;
}

int
pow_parse(const char *s, size_t len, struct pow_challenge *c)
{
	const char *end = s + len, *p = s, *dot;
	unsigned char raw[POW_TAG_LEN];
	long long bits;
	size_t qlen;

	memset(c, 0, sizeof *c);
	if (len > POW_CHALLENGE_MAX || len < 2 || memcmp(s, "1.", 2) != 0)
		return -1;
	p += 2;
	if ((dot = memchr(p, '.', (size_t)(end - p))) == NULL ||
	    (qlen = (size_t)(dot - p)) >= sizeof c->queue)
		return -1;
	memcpy(c->queue, p, qlen);
	c->queue[qlen] = '\0';
	if (!valid_queue_id(c->queue))
		return -1;
	p = dot + 1;
	if (field_num(&p, end, 2, &bits) == -1 || bits > POW_BITS_MAX ||
	    field_num(&p, end, 12, &c->expires) == -1)
		return -1;
	c->bits = (int)bits;
	/* random, a dot, the tag, and nothing more */
	if (end - p != B64_RANDOM + 1 + B64_TAG || p[B64_RANDOM] != '.' ||
	    b64url_decode(p, B64_RANDOM, raw, sizeof raw) != POW_RANDOM_LEN ||
	    b64url_decode(p + B64_RANDOM + 1, B64_TAG, raw, sizeof raw) !=
	    POW_TAG_LEN)
		return -1;
	memcpy(c->random, p, B64_RANDOM);
	c->random[B64_RANDOM] = '\0';
	return 0;
}

/* Does SHA-256 of challenge + nonce start with bits zero bits? */
static int
pow_work(const char *challenge, const char *nonce, int bits)
{
	char text[POW_CHALLENGE_MAX + POW_NONCE_MAX + 1];
	unsigned char h[SHA256_LEN];
	int n = snprintf(text, sizeof text, "%s%s", challenge, nonce);

	return n > 0 && (size_t)n < sizeof text &&
	    sha256(text, (size_t)n, h) == 0 && pow_zero_bits(h, sizeof h) >= bits;
}

enum pow_verdict
pow_check(const unsigned char key[POW_KEY_LEN], const char *queue,
    const char *challenge, const char *nonce, long long now,
    struct pow_challenge *c)
{
	size_t len = strlen(challenge);
	char want[B64_TAG + 1];

	if (pow_parse(challenge, len, c) == -1 ||
	    pow_tag(key, challenge, len - B64_TAG - 1, want) == -1 ||
	    CRYPTO_memcmp(want, challenge + len - B64_TAG, B64_TAG) != 0 ||
	    strcmp(c->queue, queue) != 0 ||
	    !pow_valid_nonce(nonce, strlen(nonce)))
		return POW_FAILED;
	if (now >= c->expires)
		return POW_EXPIRED;
	return pow_work(challenge, nonce, c->bits) ? POW_OK : POW_FAILED;
}
