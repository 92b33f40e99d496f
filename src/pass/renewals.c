/* renewals.c: the recent answers of renew.lua; see renewals.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "hash.h"
#include "renewals.h"
#include "validate.h"

struct renewal_slot {
	char queue[CONF_QUEUE_ID_MAX + 1];
	char token[VALID_TOKEN_LEN + 1];
	long long at_ms;	/* when Redis answered; 0: empty */
	struct renewal rn;
};

struct renewals {
	struct renewal_slot slot[RENEWALS_SLOTS];
};

struct renewals *
renewals_new(void)
{
	return calloc(1, sizeof(struct renewals));
}

void
renewals_free(struct renewals *r)
{
	free(r);
}

static struct renewal_slot *
slot_of(const struct renewals *r, const char *queue, const char *token)
{
	unsigned long h = hash_str(hash_str(HASH_SEED, queue), token);

	return (struct renewal_slot *)&r->slot[h % RENEWALS_SLOTS];
}

int
renewals_get(const struct renewals *r, const char *queue, const char *token,
    long long now_ms, struct renewal *rn)
{
	const struct renewal_slot *s = slot_of(r, queue, token);

	if (s->at_ms == 0 || now_ms - s->at_ms >= RENEWALS_FRESH_MS ||
	    now_ms < s->at_ms || strcmp(s->token, token) != 0 ||
	    strcmp(s->queue, queue) != 0)
		return 0;
	*rn = s->rn;
	return 1;
}

void
renewals_put(struct renewals *r, const char *queue, const char *token,
    const struct renewal *rn, long long now_ms)
{
	struct renewal_slot *s = slot_of(r, queue, token);

	snprintf(s->queue, sizeof s->queue, "%s", queue);
	snprintf(s->token, sizeof s->token, "%s", token);
	s->at_ms = now_ms;
	s->rn = *rn;
}

/* The queue's own entry is the one of the empty token, which no pass has. */
void
renewals_put_fixed(struct renewals *r, const char *queue, long long now_ms)
{
	static const struct renewal fixed = { 0, 0 };

	renewals_put(r, queue, "", &fixed, now_ms);
}

int
renewals_fixed(const struct renewals *r, const char *queue, long long now_ms)
{
	struct renewal rn;

	return renewals_get(r, queue, "", now_ms, &rn) && !rn.renews;
}
