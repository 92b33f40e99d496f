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

/*
 * A tenth of the wait, never less than a stream's push: a waiter asks
 * about ten times whatever its wait, and as often as a stream would near
 * the front. Without an estimate (a paused queue) the position stands in
 * for the wait: push seconds a place. Half of waiting_ttl leaves a poll
 * that came late, or a slow answer, a margin before the sweep.
 */
long
standing_poll_after(long push, long waiting_ttl, long long wait_s,
    long long position)
{
	long long want;

	if (push < 1)
		push = 1;
	if (wait_s >= 0)
		want = wait_s / 10 > push ? wait_s / 10 : push;
	else
		want = position > STANDING_POLL_MAX ? STANDING_POLL_MAX :
		    push * (position > 1 ? position : 1);
	if (want > STANDING_POLL_MAX)
		want = STANDING_POLL_MAX;
	if (waiting_ttl > 0 && want > waiting_ttl / 2)
		want = waiting_ttl / 2;
	return want < 1 ? 1 : (long)want;
}

void
standing_status(const struct standing *s, const char *queue, long push,
    struct token_status *st)
{
	status_init(st, queue, s->token);
	st->waiting = s->waiting;
	if (s->active) {
		st->active = 1;
		st->active_until = s->n / 1000;
		st->redirect = s->redirect[0] ? s->redirect : NULL;
		st->poll_after = standing_poll_after(push, 0, 0, 1);
		return;
	}
	if (s->prequeue) {
		standing_prequeue(s, queue, s->token, s->n, push, st);
		return;
	}
	standing_waiting(s, queue, s->token, s->n, push, st);
}

void
standing_prequeue(const struct standing *s, const char *queue,
    const char *token, long long entrants, long push,
    struct token_status *st)
{
	long long left = s->opens_at - s->q.now_ms / 1000;

	status_init(st, queue, token);
	st->prequeue = 1;
	st->opens_at = s->opens_at;
	st->entrants = entrants;
	ticket_of(token, st->ticket);
	/* the wait is the time to the opening, where the draw is */
	st->poll_after = standing_poll_after(push, s->q.waiting_ttl,
	    left > 0 ? left : 0, 1);
}

void
standing_waiting(const struct standing *s, const char *queue,
    const char *token, long long rank, long push, struct token_status *st)
{
	status_init(st, queue, token);
	st->waiting = s->waiting;
	st->position = rank + 1;
	st->eta_seconds = eta_seconds(&s->q, st->position);
	eta_range(&s->q, st->eta_seconds, &st->eta_low, &st->eta_high);
	st->poll_after = standing_poll_after(push, s->q.waiting_ttl,
	    st->eta_seconds, st->position);
}
