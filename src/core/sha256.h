/*
 * sha256.h: SHA-256, and HMAC-SHA256 (RFC 2104) keyed once, for loops
 * that hash many short texts: a draw's million tickets, a proof of
 * work's checks. OpenSSL 3's one-shot SHA256() and HMAC() fetch the
 * digest behind a lock on every call, which costs more than the hash of
 * a ticket; these fetch it once per process and copy a prepared state.
 * One event loop per process: not for use from several threads.
 */
#ifndef WR_SHA256_H
#define WR_SHA256_H

#include <stddef.h>

#define SHA256_LEN 32

/* SHA-256 of the n bytes at p into out; -1 when OpenSSL fails. */
int sha256(const void *p, size_t n, unsigned char out[SHA256_LEN]);

/* An HMAC-SHA256 key, prepared. */
struct sha256_mac;

/* Prepared for a key of at most 64 bytes; NULL when out of memory. */
struct sha256_mac *sha256_mac_new(const unsigned char *key, size_t len);
void sha256_mac_free(struct sha256_mac *m);

/* HMAC(key, the n bytes at p) into out; -1 when OpenSSL fails. */
int sha256_mac(struct sha256_mac *m, const void *p, size_t n,
    unsigned char out[SHA256_LEN]);

#endif
