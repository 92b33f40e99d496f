/*
 * invite.c: invitations; see invite.h. As with passes, the checks run
 * cheapest and least trusting first, and the payload is read only once
 * the signature says one of our keys made it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/sha.h>

#include "b64url.h"
#include "invite.h"
#include "jwt.h"
#include "pass.h"
#include "validate.h"

/* The id of a use key: base64url of SHA-256(jti), never the raw text. */
static void
invite_id(const char *jti, size_t len, char out[INVITE_ID_LEN + 1])
{
	unsigned char md[SHA256_DIGEST_LENGTH];

	SHA256((const unsigned char *)jti, len, md);
	b64url_encode(md, sizeof md, out);
	out[INVITE_ID_LEN] = '\0';
}

static const char *
invite_header_why(enum pass_verdict v)
{
	switch (v) {
	case PASS_BAD_ALG: return "the invitation is not signed with HS256";
	case PASS_NO_KID: return "the invitation names no key (kid)";
	case PASS_UNKNOWN_KID: return "the invitation is signed with a key "
	    "this server does not hold";
	default: return "the invitation is not a well-formed JWT";
	}
}

/* The claims, once the signature is good. */
static const char *
invite_claims(json_t *j, long long now, const char *queue, struct invite *iv)
{
	json_t *aud = json_object_get(j, "aud"), *jti = json_object_get(j, "jti");
	json_t *exp = json_object_get(j, "exp"), *uses, *nbf;

	if (!json_is_string(aud) || !valid_queue_id(json_string_value(aud)) ||
	    !json_is_string(jti) || json_string_length(jti) < 1 ||
	    json_string_length(jti) > INVITE_JTI_MAX || !json_is_integer(exp) ||
	    json_integer_value(exp) < 0 ||
	    json_integer_value(exp) > INVITE_EXP_MAX)
		return "the invitation lacks a valid aud, jti or exp";
	uses = json_object_get(j, "max_uses");
	if (uses && (!json_is_integer(uses) || json_integer_value(uses) < 1 ||
	    json_integer_value(uses) > INVITE_USES_MAX))
		return "the invitation's max_uses is not an integer from 1 to "
		    "1000000";
	if (strcmp(json_string_value(aud), queue) != 0)
		return "the invitation is for another queue";
	if (now >= json_integer_value(exp) + PASS_LEEWAY)
		return "the invitation has expired";
	nbf = json_object_get(j, "nbf");
	if (nbf && (!json_is_integer(nbf) ||
	    json_integer_value(nbf) > now + PASS_LEEWAY))
		return "the invitation is not valid yet";
	snprintf(iv->queue, sizeof iv->queue, "%s", queue);
	invite_id(json_string_value(jti), json_string_length(jti), iv->id);
	iv->exp = json_integer_value(exp);
	iv->max_uses = uses ? (long)json_integer_value(uses) : 1;
	return NULL;
}

int
invite_verify(const struct passkeys *k, const char *s, size_t len,
    long long now, const char *queue, struct invite *iv, const char **why)
{
	const struct passkey *key = NULL;
	struct jwt_parts p;
	enum pass_verdict v;
	json_t *j;

	memset(iv, 0, sizeof *iv);
	*why = "the invitation is not a well-formed JWT";
	if (k == NULL) {
		*why = "this server has no pass_key_file to check invitations";
		return -1;
	}
	if (len == 0 || len > INVITE_MAX || jwt_split(s, len, &p) == -1)
		return -1;
	if ((v = pass_header(k, &p, &key)) != PASS_OK) {
		*why = invite_header_why(v);
		return -1;
	}
	if (!jwt_hs256_ok(key->secret, key->len, s, p.signed_len, p.sig,
	    p.slen)) {
		*why = "the signature of the invitation is wrong";
		return -1;
	}
	if ((j = jwt_part_json(p.payload, p.plen)) == NULL)
		return -1;
	*why = invite_claims(j, now, queue, iv);
	json_decref(j);
	return *why == NULL ? 0 : -1;
}

int
invite_sign(const struct passkeys *k, const char *queue, const char *jti,
    long long exp, long max_uses, char *out, size_t size)
{
	const struct passkey *key = passkeys_signer(k);
	json_t *hdr = NULL, *body = NULL;
	char *h = NULL, *b = NULL, sig[JWT_SIG_LEN + 1];
	size_t hn, bn, n;
	int rc = -1;

	if (key == NULL || strlen(jti) < 1 || strlen(jti) > INVITE_JTI_MAX)
		return -1;
	hdr = json_pack("{s:s, s:s, s:s}", "alg", "HS256", "kid", key->kid,
	    "typ", "JWT");
	body = json_pack("{s:s, s:s, s:I, s:I}", "aud", queue, "jti", jti,
	    "exp", (json_int_t)exp, "max_uses", (json_int_t)max_uses);
	if (hdr == NULL || body == NULL ||
	    (h = json_dumps(hdr, JSON_COMPACT)) == NULL ||
	    (b = json_dumps(body, JSON_COMPACT)) == NULL)
		goto done;
	hn = strlen(h), bn = strlen(b);
	n = B64URL_LEN(hn) + 1 + B64URL_LEN(bn);
	if (n + 1 + JWT_SIG_LEN + 1 > size)
		goto done;
	b64url_encode((const unsigned char *)h, hn, out);
	out[B64URL_LEN(hn)] = '.';
	b64url_encode((const unsigned char *)b, bn, out + B64URL_LEN(hn) + 1);
	if (jwt_hs256(key->secret, key->len, out, n, sig) == -1)
		goto done;
	out[n] = '.';
	memcpy(out + n + 1, sig, JWT_SIG_LEN + 1);
	rc = 0;
done:
	free(h);
	free(b);
	json_decref(hdr);
	json_decref(body);
	return rc;
}
