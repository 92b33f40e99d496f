/*
 * fuzz_pow.c: the proof-of-work challenge's parser and checker (pow.c)
 * with a fixed key. The low bit of the first input byte picks a mode:
 *
 *   0: the rest is "CHALLENGE\xffNONCE", as a join sends them;
 *   1: the rest is one byte of bits, then a queue name: this file issues
 *      a challenge for it, which must parse back to what was issued and
 *      fit POW_CHALLENGE_MAX; then one byte of it is changed, which the
 *      checker must notice.
 *
 * The invariants: nothing crashes or leaks; a parsed challenge has a
 * valid queue name, bits 0 to 32 and a 22-character random part; and
 * POW_OK only for a challenge whose tag an independent check (OpenSSL's
 * HMAC and base64, not pow.c or b64url.c) finds over exactly the bytes
 * before the last dot, with enough work in an independent SHA-256.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "pow.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

#define FAIL(...) do { fprintf(stderr, "fuzz_pow: " __VA_ARGS__); \
	fputc('\n', stderr); abort(); } while (0)

#define NOW 1800000000LL

static const unsigned char key[POW_KEY_LEN] = "0123456789abcdef0123456789abcdef";

/* The tag as OpenSSL computes it and encodes it, in base64url. */
static int
tag_ok(const char *ch)
{
	const char *dot = strrchr(ch, '.');
	unsigned char mac[EVP_MAX_MD_SIZE], b64[64];
	unsigned int len = 0;
	int n;

	if (dot == NULL || HMAC(EVP_sha256(), key, POW_KEY_LEN,
	    (const unsigned char *)ch, (size_t)(dot - ch), mac, &len) == NULL)
		return 0;
	n = EVP_EncodeBlock(b64, mac, 16);
	while (n > 0 && b64[n - 1] == '=')
		n--;
	for (int i = 0; i < n; i++)
		b64[i] = b64[i] == '+' ? '-' : b64[i] == '/' ? '_' : b64[i];
	return strlen(dot + 1) == (size_t)n && memcmp(dot + 1, b64, n) == 0;
}

static int
work_ok(const char *ch, const char *nonce, int bits)
{
	unsigned char h[SHA256_DIGEST_LENGTH], buf[POW_CHALLENGE_MAX + 64];
	size_t a = strlen(ch), b = strlen(nonce);
	int z = 0;

	memcpy(buf, ch, a);
	memcpy(buf + a, nonce, b);
	SHA256(buf, a + b, h);
	for (int i = 0; i < 256 && !(h[i / 8] & (0x80 >> (i % 8))); i++)
		z++;
	return z >= bits;
}

static void
check_parsed(const struct pow_challenge *c)
{
	if (!valid_queue_id(c->queue) || c->bits < 0 || c->bits > 32 ||
	    strlen(c->random) != 22)
		FAIL("parsed fields out of range");
}

static void
given(const char *ch, size_t chlen, const char *nonce)
{
	struct pow_challenge c;
	enum pow_verdict v;

	if (pow_parse(ch, chlen, &c) == 0)
		check_parsed(&c);
	if (strlen(ch) != chlen)
		return;		/* a NUL inside: a join's JSON cannot carry it */
	v = pow_check(key, "q", ch, nonce, NOW, &c);
	if (v == POW_OK && (!tag_ok(ch) || !work_ok(ch, nonce, c.bits) ||
	    strcmp(c.queue, "q") != 0 || c.expires <= NOW))
		FAIL("accepted %s with %s", ch, nonce);
}

static void
issued(const uint8_t *in, size_t size)
{
	char q[65], ch[POW_CHALLENGE_MAX + 1];
	unsigned char rnd[POW_RANDOM_LEN] = { 0 };
	struct pow_challenge c;
	size_t n, qlen = size > 1 ? size - 1 : 0;
	int bits;

	if (size < 1)
		return;
	bits = in[0] % 34;
	if (qlen > 64)
		qlen = 64;
	memcpy(q, in + 1, qlen);
	q[qlen] = '\0';
	memcpy(rnd, in, size < sizeof rnd ? size : sizeof rnd);
	if (pow_issue(ch, key, q, bits, NOW + 60, rnd) == -1) {
		if (valid_queue_id(q) && bits <= 32)
			FAIL("refused to issue for %s at %d", q, bits);
		return;
	}
	n = strlen(ch);
	if (n > POW_CHALLENGE_MAX || pow_parse(ch, n, &c) == -1 ||
	    strcmp(c.queue, q) != 0 || c.bits != bits || c.expires != NOW + 60)
		FAIL("issued %s does not parse back", ch);
	if (!tag_ok(ch))
		FAIL("issued %s has a tag OpenSSL disagrees with", ch);
	ch[in[0] % n] ^= 0x01;
	if (pow_check(key, q, ch, "0", NOW, &c) == POW_OK)
		FAIL("changed %s still checks", ch);
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	char buf[512], *sep;

	if (size < 1)
		return 0;
	if (in[0] & 1) {
		issued(in + 1, size - 1);
		return 0;
	}
	size = size - 1 < sizeof buf - 1 ? size - 1 : sizeof buf - 1;
	memcpy(buf, in + 1, size);
	buf[size] = '\0';
	if ((sep = memchr(buf, '\xff', size)) == NULL)
		return 0;
	*sep = '\0';
	given(buf, (size_t)(sep - buf), sep + 1);
	return 0;
}
