/* ticket.c: the draw's arithmetic; see ticket.h. */
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "hex.h"
#include "sha256.h"
#include "ticket.h"

void
ticket_of(const char *token, char *out)
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	char hex[TICKET_HEX + 1];

	if (sha256(token, strlen(token), md) == -1)
		SHA256((const unsigned char *)token, strlen(token), md);
	hex_encode(md, sizeof md, hex);
	memcpy(out, hex, TICKET_LEN);
	out[TICKET_LEN] = '\0';
}

int
ticket_commit(const char *seed_hex, char commit_hex[TICKET_HEX + 1])
{
	unsigned char seed[TICKET_SEED], md[SHA256_DIGEST_LENGTH];

	if (hex_decode(seed_hex, seed, sizeof seed) != TICKET_SEED)
		return -1;
	SHA256(seed, sizeof seed, md);
	hex_encode(md, sizeof md, commit_hex);
	return 0;
}

int
ticket_new_seed(char seed_hex[TICKET_HEX + 1],
    char commit_hex[TICKET_HEX + 1])
{
	if (hex_random(TICKET_SEED, seed_hex) == -1)
		return -1;
	return ticket_commit(seed_hex, commit_hex);
}

int
ticket_draw_key(const char *seed_hex, const char *beacon_hex,
    unsigned char key[32])
{
	unsigned char buf[TICKET_SEED + TICKET_BEACON_MAX];
	int nb;

	if (hex_decode(seed_hex, buf, TICKET_SEED) != TICKET_SEED ||
	    (nb = hex_decode(beacon_hex, buf + TICKET_SEED,
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
	hex_encode(mac, 32, out);
	memcpy(out + TICKET_HEX, t, TICKET_LEN);
	memcpy(out + TICKET_HEX + TICKET_LEN, token, tl);
	out[TICKET_HEX + TICKET_LEN + tl] = '\0';
	return TICKET_HEX + TICKET_LEN + tl;
}

/* The lines of order from at: each a ticket, each HMAC(m's key, ticket)
 * above the one before; see ticket_check_order. */
static long
check_lines(struct sha256_mac *m, const char *order, size_t len,
    const char *ticket, long *place)
{
	unsigned char prev[SHA256_LEN], cur[SHA256_LEN];
	long n = 0;

	for (size_t at = 0; at < len; at += TICKET_LEN + 1) {
		if (len - at < TICKET_LEN + 1 || order[at + TICKET_LEN] != '\n')
			return -1;
		for (size_t i = 0; i < TICKET_LEN; i++)
			if (!((order[at + i] >= '0' && order[at + i] <= '9') ||
			    (order[at + i] >= 'a' && order[at + i] <= 'f')))
				return -1;
		if (sha256_mac(m, order + at, TICKET_LEN, cur) == -1 ||
		    (n > 0 && memcmp(prev, cur, sizeof cur) >= 0))
			return -1;
		memcpy(prev, cur, sizeof prev);
		n++;
		if (ticket && memcmp(order + at, ticket, TICKET_LEN) == 0)
			*place = n;
	}
	return n;
}

long
ticket_check_order(const unsigned char key[32], const char *order,
    size_t len, const char *ticket, long *place)
{
	struct sha256_mac *m = sha256_mac_new(key, 32);
	long n = -1;

	*place = 0;
	if (m != NULL)
		n = check_lines(m, order, len, ticket, place);
	sha256_mac_free(m);
	return n;
}
