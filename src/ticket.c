/* ticket.c: the draw's arithmetic; see ticket.h. */
#include <string.h>
#include <sys/random.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "ticket.h"

void
ticket_hex(const unsigned char *b, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[2 * n] = '\0';
}

static int
nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
ticket_unhex(const char *s, unsigned char *out, size_t max)
{
	size_t n = strlen(s);

	if (n % 2 != 0 || n / 2 > max)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		int hi = nibble(s[i]), lo = nibble(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i / 2] = (unsigned char)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

void
ticket_of(const char *token, char *out)
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	char hex[TICKET_HEX + 1];

	SHA256((const unsigned char *)token, strlen(token), md);
	ticket_hex(md, sizeof md, hex);
	memcpy(out, hex, TICKET_LEN);
	out[TICKET_LEN] = '\0';
}

int
ticket_commit(const char *seed_hex, char commit_hex[TICKET_HEX + 1])
{
	unsigned char seed[TICKET_SEED], md[SHA256_DIGEST_LENGTH];

	if (ticket_unhex(seed_hex, seed, sizeof seed) != TICKET_SEED)
		return -1;
	SHA256(seed, sizeof seed, md);
	ticket_hex(md, sizeof md, commit_hex);
	return 0;
}

int
ticket_new_seed(char seed_hex[TICKET_HEX + 1],
    char commit_hex[TICKET_HEX + 1])
{
	unsigned char seed[TICKET_SEED];

	if (getrandom(seed, sizeof seed, 0) != (ssize_t)sizeof seed)
		return -1;
	ticket_hex(seed, sizeof seed, seed_hex);
	return ticket_commit(seed_hex, commit_hex);
}

int
ticket_draw_key(const char *seed_hex, const char *beacon_hex,
    unsigned char key[32])
{
	unsigned char buf[TICKET_SEED + TICKET_BEACON_MAX];
	int nb;

	if (ticket_unhex(seed_hex, buf, TICKET_SEED) != TICKET_SEED ||
	    (nb = ticket_unhex(beacon_hex, buf + TICKET_SEED,
	    TICKET_BEACON_MAX)) < 0)
		return -1;
	SHA256(buf, TICKET_SEED + (size_t)nb, key);
	return 0;
}

size_t
ticket_member(const unsigned char key[32], const char *token,
    char out[TICKET_MEMBER_MAX + 1])
{
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;
	char t[TICKET_LEN + 1];
	size_t tl = strlen(token);

	if (tl > TICKET_MEMBER_MAX - TICKET_HEX - TICKET_LEN)
		tl = TICKET_MEMBER_MAX - TICKET_HEX - TICKET_LEN;
	ticket_of(token, t);
	HMAC(EVP_sha256(), key, 32, (const unsigned char *)t, TICKET_LEN, mac,
	    &maclen);
	ticket_hex(mac, 32, out);
	memcpy(out + TICKET_HEX, t, TICKET_LEN);
	memcpy(out + TICKET_HEX + TICKET_LEN, token, tl);
	out[TICKET_HEX + TICKET_LEN + tl] = '\0';
	return TICKET_HEX + TICKET_LEN + tl;
}

/* hex(HMAC(K, the 32 bytes at t)) into out (65 bytes). */
static void
ticket_hmac(const unsigned char key[32], const char *t, char *out)
{
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;

	HMAC(EVP_sha256(), key, 32, (const unsigned char *)t, TICKET_LEN,
	    mac, &maclen);
	ticket_hex(mac, 32, out);
}

long
ticket_check_order(const unsigned char key[32], const char *order,
    size_t len, const char *ticket, long *place)
{
	char prev[TICKET_HEX + 1] = "", cur[TICKET_HEX + 1];
	long n = 0;

	*place = 0;
	for (size_t at = 0; at < len; at += TICKET_LEN + 1) {
		if (len - at < TICKET_LEN + 1 || order[at + TICKET_LEN] != '\n')
			return -1;
		for (size_t i = 0; i < TICKET_LEN; i++)
			if (!((order[at + i] >= '0' && order[at + i] <= '9') ||
			    (order[at + i] >= 'a' && order[at + i] <= 'f')))
				return -1;
		ticket_hmac(key, order + at, cur);
		if (n > 0 && strcmp(prev, cur) >= 0)
			return -1;
		memcpy(prev, cur, sizeof prev);
		n++;
		if (ticket && memcmp(order + at, ticket, TICKET_LEN) == 0)
			*place = n;
	}
	return n;
}
