/* standing.c: a token's standing as the status object; see standing.h. */
#include <string.h>

#include "standing.h"
#include "ticket.h"

/* st emptied, for token of queue. */
static void
status_init(struct token_status *st, const char *queue, const char *token)
{
	memset(st, 0, sizeof *st);
	st->queue = queue;
	st->token = token;
}

void
standing_status(const struct standing *s, const char *queue,
    struct token_status *st)
{
	status_init(st, queue, s->token);
	st->waiting = s->waiting;
	if (s->active) {
		st->active = 1;
		st->active_until = s->n / 1000;
		st->redirect = s->redirect[0] ? s->redirect : NULL;
		return;
	}
	if (s->prequeue) {
		standing_prequeue(s, queue, s->token, s->n, st);
		return;
	}
	standing_waiting(s, queue, s->token, s->n, st);
}

void
standing_prequeue(const struct standing *s, const char *queue,
    const char *token, long long entrants, struct token_status *st)
{
	status_init(st, queue, token);
	st->prequeue = 1;
	st->opens_at = s->opens_at;
	st->entrants = entrants;
	ticket_of(token, st->ticket);
}

void
standing_waiting(const struct standing *s, const char *queue,
    const char *token, long long rank, struct token_status *st)
{
	status_init(st, queue, token);
	st->waiting = s->waiting;
	st->position = rank + 1;
	st->eta_seconds = eta_seconds(&s->q, st->position);
	eta_range(&s->q, st->eta_seconds, &st->eta_low, &st->eta_high);
}
