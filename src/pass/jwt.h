/*
 * jwt.h: the JWS compact serialization with HS256 (RFC 7515, RFC 7518
 * section 3.2): splitting "header.payload.signature", decoding a part, and
 * HMAC-SHA256 signatures made and checked with OpenSSL's libcrypto. The
 * signature check compares in constant time. Pure: no I/O.
 */
#ifndef WR_JWT_H
#define WR_JWT_H

#include <stddef.h>

#include <jansson.h>

#define JWT_SIG_LEN 43		/* base64url of the 32 bytes of SHA-256 */

struct jwt_parts {
	const char *header, *payload, *sig;
	size_t hlen, plen, slen;
	size_t signed_len;	/* header "." payload: what the MAC covers */
};

/* Split s into its three parts; -1 unless it has exactly two dots. */
int jwt_split(const char *s, size_t len, struct jwt_parts *p);

/* A base64url part holding a JSON object; NULL when it is anything else. */
json_t *jwt_part_json(const char *part, size_t len);

/* The base64url HMAC-SHA256 of input under key into out; -1 on failure. */
int jwt_hs256(const unsigned char *key, size_t keylen, const char *input,
    size_t len, char out[JWT_SIG_LEN + 1]);

/* 1 when sig (base64url) is the HS256 signature of input under key. */
int jwt_hs256_ok(const unsigned char *key, size_t keylen, const char *input,
    size_t len, const char *sig, size_t siglen);

#endif
