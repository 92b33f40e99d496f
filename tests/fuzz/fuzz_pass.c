/*
 * fuzz_pass.c: the pass verifier (pass.c, jwt.c, b64url.c) with a fixed
 * key set. The low bit of the first input byte picks a mode:
 *
 *   0: the rest is a pass, as a client sends it;
 *   1: the rest is one byte picking the key, then "HEADER\xffPAYLOAD":
 *      this file encodes both and signs them with one of our keys or with
 *      an outsider's, so the verifier reaches the claims; then one byte of
 *      the pass is changed, which it must notice.
 *
 * The invariants: nothing crashes or leaks, and PASS_OK only for a pass
 * whose signature an independent check (OpenSSL's HMAC and base64, not
 * jwt.c or b64url.c) finds to be one of our keys' over exactly the bytes
 * before the last dot, with claims that admit at the fixed time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "pass.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

#define FAIL(...) do { fprintf(stderr, "fuzz_pass: " __VA_ARGS__); \
	fputc('\n', stderr); abort(); } while (0)

#define NOW 1800000000LL
#define S1 "0123456789abcdef0123456789abcdef-k1"
#define S2 "fedcba9876543210fedcba9876543210-k2"
#define OUTSIDER "an attacker's secret, 32 bytes or more"

static struct passkeys *keys;

/* base64url without padding, by OpenSSL: out holds 4 * n / 3 + 4 bytes. */
static size_t
b64url(const unsigned char *in, size_t n, char *out)
{
	int len = EVP_EncodeBlock((unsigned char *)out, in, (int)n);

	while (len > 0 && out[len - 1] == '=')
		len--;
	out[len] = '\0';
	for (int i = 0; i < len; i++)
		out[i] = out[i] == '+' ? '-' : out[i] == '/' ? '_' : out[i];
	return (size_t)len;
}

/* Is s signed by secret: the b64url HMAC of what precedes its last dot? */
static int
signed_by(const char *secret, const char *s, size_t len)
{
	unsigned char mac[32];
	unsigned int maclen = 0;
	char sig[48];
	const char *dot = memrchr(s, '.', len);
	size_t n;

	if (dot == NULL)
		return 0;
	HMAC(EVP_sha256(), secret, (int)strlen(secret),
	    (const unsigned char *)s, (size_t)(dot - s), mac, &maclen);
	n = b64url(mac, maclen, sig);
	return (size_t)(s + len - dot - 1) == n && memcmp(dot + 1, sig, n) == 0;
}

static enum pass_verdict
verify(const char *s, size_t len)
{
	struct pass_claims c;
	enum pass_verdict v = pass_verify(keys, s, len, NOW, NULL, &c), vq;

	if (pass_verdict_text(v) == NULL)
		FAIL("no text for verdict %d", v);
	if (v == PASS_OK) {
		if (!signed_by(S1, s, len) && !signed_by(S2, s, len))
			FAIL("accepted a pass none of our keys signed: %.*s",
			    (int)len, s);
		if (!valid_queue_id(c.queue) || !valid_token(c.token) ||
		    NOW >= c.exp + PASS_LEEWAY || c.nbf > NOW + PASS_LEEWAY ||
		    c.iat > NOW + PASS_LEEWAY)
			FAIL("accepted bad claims: %.*s", (int)len, s);
	}
	/* a queue given: only its own passes */
	vq = pass_verify(keys, s, len, NOW, "concert", &c);
	if (vq == PASS_OK && (v != PASS_OK || strcmp(c.queue, "concert") != 0))
		FAIL("accepted for queue concert: %.*s", (int)len, s);
	return v;
}

/* Mode 1: sign header and payload, verify, then tamper with one byte. */
static void
signed_pass(const uint8_t *in, size_t size)
{
	static const char *secrets[] = { S1, S2, OUTSIDER };
	const uint8_t *sep;
	const char *secret;
	size_t hlen, plen, n, at;
	unsigned char mac[32];
	unsigned int maclen = 0;
	char *pass;
	enum pass_verdict v;

	if (size < 2 || (sep = memchr(in + 1, 0xff, size - 1)) == NULL)
		return;
	secret = secrets[in[0] % 3];
	hlen = (size_t)(sep - in - 1);
	plen = size - hlen - 2;
	if ((pass = malloc(2 * size + 64)) == NULL)
		abort();
	n = b64url(in + 1, hlen, pass);
	pass[n++] = '.';
	n += b64url(sep + 1, plen, pass + n);
	HMAC(EVP_sha256(), secret, (int)strlen(secret),
	    (const unsigned char *)pass, n, mac, &maclen);
	pass[n++] = '.';
	n += b64url(mac, maclen, pass + n);
	v = verify(pass, n);
	if (secret == secrets[2] && v == PASS_OK)
		FAIL("accepted the outsider's signature: %s", pass);
	/* any changed byte: a changed claim, header or signature */
	at = (hlen * 31 + plen) % n;
	pass[at] = (char)(pass[at] ^ (in[0] | 1));
	if (verify(pass, n) == PASS_OK)
		FAIL("accepted a pass changed at byte %zu: %s", at, pass);
	free(pass);
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	char err[256];

	if (keys == NULL && (keys = passkeys_load_string("k1 " S1 "\nk2 " S2
	    "\n", "keys", err, sizeof err)) == NULL)
		FAIL("%s", err);
	if (size < 1)
		return 0;
	if (in[0] & 1)
		signed_pass(in + 1, size - 1);
	else
		verify((const char *)in + 1, size - 1);
	return 0;
}
