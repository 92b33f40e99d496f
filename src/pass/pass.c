/*
 * pass.c: entry passes; see pass.h. Checks run cheapest and least trusting
 * first: shape, header, key, signature; the payload is parsed only once the
 * signature says we wrote it.
 */
#include <stdio.h>
#include <string.h>

#include "b64url.h"
#include "jwt.h"
#include "pass.h"
#include "validate.h"

#define PASS_JSON_MAX 320

int
pass_sign(const struct passkeys *k, const struct pass_claims *c, char *out,
    size_t size)
{
	const struct passkey *key = passkeys_signer(k);
	char hdr[PASS_JSON_MAX], body[PASS_JSON_MAX], sig[JWT_SIG_LEN + 1];
	int hn, bn;
	size_t n;

	if (key == NULL)
		return -1;
	/* kid, aud and sub are of plain characters: no JSON escaping needed */
	hn = snprintf(hdr, sizeof hdr, "{\"alg\":\"HS256\",\"kid\":\"%s\","
	    "\"typ\":\"JWT\"}", key->kid);
	bn = snprintf(body, sizeof body, "{\"aud\":\"%s\",\"sub\":\"%s\","
	    "\"iat\":%lld,\"nbf\":%lld,\"exp\":%lld}", c->queue, c->token,
	    c->iat, c->nbf, c->exp);
	if (hn < 0 || bn < 0 || (size_t)hn >= sizeof hdr ||
	    (size_t)bn >= sizeof body)
		return -1;
	n = B64URL_LEN((size_t)hn) + 1 + B64URL_LEN((size_t)bn);
	if (n + 1 + JWT_SIG_LEN + 1 > size)
		return -1;
	b64url_encode((const unsigned char *)hdr, (size_t)hn, out);
	out[B64URL_LEN((size_t)hn)] = '.';
	b64url_encode((const unsigned char *)body, (size_t)bn,
	    out + B64URL_LEN((size_t)hn) + 1);
	if (jwt_hs256(key->secret, key->len, out, n, sig) == -1)
		return -1;
	out[n] = '.';
	memcpy(out + n + 1, sig, JWT_SIG_LEN + 1);
	return 0;
}

/* The header: HS256, no crit, typ JWT if any, and a key we hold. */
enum pass_verdict
pass_header(const struct passkeys *k, const struct jwt_parts *p,
    const struct passkey **key)
{
	json_t *h = jwt_part_json(p->header, p->hlen), *alg, *kid, *typ;
	enum pass_verdict v = PASS_OK;

	if (h == NULL)
		return PASS_MALFORMED;
	alg = json_object_get(h, "alg");
	kid = json_object_get(h, "kid");
	typ = json_object_get(h, "typ");
	if (!json_is_string(alg) || strcmp(json_string_value(alg), "HS256") ||
	    json_object_get(h, "crit") != NULL)
		v = PASS_BAD_ALG;
	else if (typ && (!json_is_string(typ) ||
	    strcmp(json_string_value(typ), "JWT") != 0))
		v = PASS_MALFORMED;
	else if (!json_is_string(kid))
		v = PASS_NO_KID;
	else if ((*key = passkeys_find(k, json_string_value(kid),
	    json_string_length(kid))) == NULL)
		v = PASS_UNKNOWN_KID;
	json_decref(h);
	return v;
}

static int
claim_time(json_t *j, const char *name, long long *out)
{
	json_t *v = json_object_get(j, name);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = json_integer_value(v);
	return 0;
}

static int
claim_str(json_t *j, const char *name, int (*valid)(const char *),
    char *out, size_t size)
{
	json_t *v = json_object_get(j, name);

	if (!json_is_string(v) || json_string_length(v) >= size ||
	    strlen(json_string_value(v)) != json_string_length(v) ||
	    !valid(json_string_value(v)))
		return -1;
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

static enum pass_verdict
pass_claims(const struct jwt_parts *p, long long now, const char *queue,
    struct pass_claims *c)
{
	json_t *j = jwt_part_json(p->payload, p->plen);
	enum pass_verdict v = PASS_OK;

	if (j == NULL)
		return PASS_MALFORMED;
	if (claim_str(j, "aud", valid_queue_id, c->queue, sizeof c->queue) ||
	    claim_str(j, "sub", valid_token, c->token, sizeof c->token) ||
	    claim_time(j, "iat", &c->iat) || claim_time(j, "nbf", &c->nbf) ||
	    claim_time(j, "exp", &c->exp))
		v = PASS_BAD_CLAIMS;
	else if (queue != NULL && strcmp(queue, c->queue) != 0)
		v = PASS_WRONG_QUEUE;
	else if (now >= c->exp + PASS_LEEWAY)
		v = PASS_EXPIRED;
	else if (c->nbf > now + PASS_LEEWAY || c->iat > now + PASS_LEEWAY)
		v = PASS_NOT_YET;
	json_decref(j);
	return v;
}

enum pass_verdict
pass_verify(const struct passkeys *k, const char *s, size_t len,
    long long now, const char *queue, struct pass_claims *c)
{
	const struct passkey *key = NULL;
	struct jwt_parts p;
	enum pass_verdict v;

	memset(c, 0, sizeof *c);
	if (len == 0)
		return PASS_MISSING;
	if (len > PASS_MAX || jwt_split(s, len, &p) == -1)
		return PASS_MALFORMED;
	if ((v = pass_header(k, &p, &key)) != PASS_OK)
		return v;
	if (!jwt_hs256_ok(key->secret, key->len, s, p.signed_len, p.sig,
	    p.slen))
		return PASS_BAD_SIGNATURE;
	return pass_claims(&p, now, queue, c);
}

const char *
pass_verdict_text(enum pass_verdict v)
{
	switch (v) {
	case PASS_OK: return "the pass is valid";
	case PASS_MISSING: return "no pass: send it as the pass cookie or "
	    "as Authorization: Bearer";
	case PASS_MALFORMED: return "the pass is not a well-formed JWT";
	case PASS_BAD_ALG: return "the pass is not signed with HS256";
	case PASS_NO_KID: return "the pass names no key (kid)";
	case PASS_UNKNOWN_KID: return "the pass is signed with a key this "
	    "server does not hold";
	case PASS_BAD_SIGNATURE: return "the signature of the pass is wrong";
	case PASS_BAD_CLAIMS: return "the pass lacks a valid aud, sub, iat, "
	    "nbf or exp";
	case PASS_WRONG_QUEUE: return "the pass is for another queue";
	case PASS_EXPIRED: return "the pass has expired";
	case PASS_NOT_YET: return "the pass is not valid yet";
	case PASS_REVOKED: return "the session of this pass was ended";
	case PASS_DROPPED: return "the queue of this pass was dropped";
	}
	return "the pass is not valid";
}

int
pass_attach(const struct passkeys *k, struct token_status *st, long long now,
    char *buf)
{
	struct pass_claims c;

	if (k == NULL || !st->active)
		return 0;
	snprintf(c.queue, sizeof c.queue, "%s", st->queue);
	snprintf(c.token, sizeof c.token, "%s", st->token);
	c.iat = c.nbf = now;
	c.exp = st->active_until;
	if (pass_sign(k, &c, buf, PASS_MAX) == -1)
		return -1;
	st->pass = buf;
	return 0;
}
