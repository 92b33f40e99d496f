/* standing.c: a token's standing as the status object; see standing.h. */
#include <string.h>

#include "standing.h"

void
standing_status(const struct standing *s, const char *queue,
    struct token_status *st)
{
	memset(st, 0, sizeof *st);
	st->queue = queue;
	st->token = s->token;
	st->waiting = s->waiting;
	if (s->active) {
		st->active = 1;
		st->active_until = s->n / 1000;
		st->redirect = s->redirect[0] ? s->redirect : NULL;
		return;
	}
	st->position = s->n + 1;
	st->eta_seconds = eta_seconds(&s->q, st->position);
}
