/*
 * draw_sort.h: the daemon's side of the draw's order (doc/api.md, "The
 * draw"): the entrants read from Redis, each chunk sorted by HMAC(K,
 * ticket) as it arrives, and the chunks merged into the one order a
 * chunk at a time, so that no step holds the event loop for long (a
 * million entrants arrive as a hundred chunks; one sort of all of them
 * would stop every stream for half a second). Pure; libcrypto only.
 */
#ifndef WR_DRAW_SORT_H
#define WR_DRAW_SORT_H

#include <stddef.h>

#include "ticket.h"

/* ticket .. token: draw.c hands draw_step.lua the tickets as the
 * order's piece and the tokens apart. */
#define DRAW_MEMBER_MAX (TICKET_LEN + 64)

struct draw_set;

struct draw_set *draw_set_new(const unsigned char key[32]);
void draw_set_free(struct draw_set *s);

/* n more entrants (tokens of at most 64 bytes; longer ones are cut as
 * ticket_member cuts them), sorted among themselves; -1 out of memory. */
int draw_set_add(struct draw_set *s, const char *const *tokens, size_t n);

/* Entrants added so far. */
size_t draw_set_size(const struct draw_set *s);

/*
 * The next at most max entrants of the whole order, each "ticket token"
 * without a space, into buf (max * (DRAW_MEMBER_MAX + 1) bytes) and
 * members[0..], and the order in which each was read (by its score in
 * line) into seq[0..]; how many (0: every one was handed out). Adding
 * after the first call is not allowed.
 */
size_t draw_set_next(struct draw_set *s, size_t max, char *buf,
    const char **members, unsigned long *seq);

#endif
