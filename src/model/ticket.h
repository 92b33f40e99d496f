/*
 * ticket.h: the draw's arithmetic (doc/api.md, "The draw"), pure: an
 * entrant's public ticket, the seed's commitment, the draw's key and the
 * sort key of each entrant. No I/O; libcrypto only.
 *
 *   ticket = first 32 hex of SHA-256(token)
 *   commit = hex(SHA-256(seed))
 *   K      = SHA-256(seed || beacon)     (raw bytes; beacon may be empty)
 *   order  = ascending hex(HMAC-SHA256(K, ticket))
 */
#ifndef WR_TICKET_H
#define WR_TICKET_H

#include <stddef.h>

#define TICKET_LEN 32		/* hex characters */
#define TICKET_SEED 32		/* bytes of a seed */
#define TICKET_HEX (2 * 32)	/* a SHA-256 as hex */
#define TICKET_BEACON_MAX 256	/* bytes of a beacon */
/* A member of the draw's sorted set: hmac hex, ticket, token. */
#define TICKET_MEMBER_MAX (TICKET_HEX + TICKET_LEN + 64)

/* The ticket of token into out (TICKET_LEN + 1 bytes). */
void ticket_of(const char *token, char *out);

/* A fresh seed (getrandom) as hex, and its commitment; -1 on failure. */
int ticket_new_seed(char seed_hex[TICKET_HEX + 1],
    char commit_hex[TICKET_HEX + 1]);
/* hex(SHA-256(bytes of seed_hex)) into commit_hex; -1: not a seed. */
int ticket_commit(const char *seed_hex, char commit_hex[TICKET_HEX + 1]);

/* K from the seed's and the beacon's hex; -1 when either is bad. */
int ticket_draw_key(const char *seed_hex, const char *beacon_hex,
    unsigned char key[32]);
/* token's member of the draw's sorted set into out: hex(HMAC(K, ticket))
 * then the ticket then the token; its length. */
size_t ticket_member(const unsigned char key[32], const char *token,
    char out[TICKET_MEMBER_MAX + 1]);

/*
 * Check a drawn order (lines of a ticket and "\n"): every line a ticket,
 * each HMAC(K, ticket) above the one before. The number of lines, or -1
 * when it is not so; *place is ticket's place (1-based), 0 when it is not
 * there or ticket is NULL.
 */
long ticket_check_order(const unsigned char key[32], const char *order,
    size_t len, const char *ticket, long *place);

#endif
