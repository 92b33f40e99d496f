/*
 * pow.h: the proof-of-work challenge of a join, issued and checked with
 * no I/O. A challenge is the ASCII string
 *
 *   1.<queue>.<bits>.<expires>.<random>.<tag>
 *
 * with bits 0 to 32 and expires (unix seconds) in decimal without leading
 * zeros, random 16 random bytes and tag the first 16 bytes of
 * HMAC-SHA256(key, everything before ".<tag>"), both base64url without
 * padding (22 characters). A join answers it with a nonce (1 to 32 ASCII
 * letters or digits) such that SHA-256 of the ASCII string challenge +
 * nonce starts with at least bits zero bits.
 */
#ifndef WR_POW_H
#define WR_POW_H

#include <stddef.h>

#define POW_KEY_LEN 32		/* bytes of the HMAC key */
#define POW_RANDOM_LEN 16
#define POW_TAG_LEN 16
#define POW_CHALLENGE_MAX 200	/* characters, without the NUL */
#define POW_NONCE_MAX 32
#define POW_BITS_MAX 32

struct pow_challenge {
	char queue[65];
	int bits;
	long long expires;		/* unix s */
	char random[23];		/* base64url: the challenge's use id */
};

enum pow_verdict {
	POW_OK,
	POW_FAILED,	/* malformed, forged, another queue's, or no work */
	POW_EXPIRED	/* authentic, for this queue, but past expires */
};

/*
 * A challenge for queue at bits, valid until expires, with the random
 * bytes rnd, into out (POW_CHALLENGE_MAX + 1 bytes); -1 when queue is not
 * a valid queue name or bits is out of range.
 */
int pow_issue(char *out, const unsigned char key[POW_KEY_LEN],
    const char *queue, int bits, long long expires,
    const unsigned char rnd[POW_RANDOM_LEN]);

/*
 * Read the fields of the len characters s into c, without checking the
 * tag; -1 when s is not shaped as a challenge.
 */
int pow_parse(const char *s, size_t len, struct pow_challenge *c);

/*
 * Is nonce the answer to challenge (NUL-terminated), an authentic one for
 * queue that has not expired at now (unix s)? *c holds its fields when
 * the verdict is POW_OK or POW_EXPIRED.
 */
enum pow_verdict pow_check(const unsigned char key[POW_KEY_LEN],
    const char *queue, const char *challenge, const char *nonce,
    long long now, struct pow_challenge *c);

/*
 * Does a challenge of bits (its stated bits, c->bits) pay for a join while
 * its queue asks asked? Only if bits >= asked, however many zero bits its
 * answer's hash happens to have: work done while a queue asks little
 * cannot be banked and spent once it asks more.
 */
int pow_enough(int bits, int asked);

/* 1 to POW_NONCE_MAX of [A-Za-z0-9]? */
int pow_valid_nonce(const char *s, size_t len);

/* Leading zero bits of the n bytes h. */
int pow_zero_bits(const unsigned char *h, size_t n);

#endif
