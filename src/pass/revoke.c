/* revoke.c: the cache of ended sessions and dropped queues; see revoke.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "hash.h"
#include "revoke.h"
#include "validate.h"

#define REVOKE_SETS (REVOKE_SLOTS / REVOKE_WAYS)

struct revoke_entry {
	char queue[CONF_QUEUE_ID_MAX + 1];
	char token[VALID_TOKEN_LEN + 1];
	struct revoke_facts f;
	long long until_ms;
};

struct revoke {
	struct revoke_entry e[REVOKE_SETS][REVOKE_WAYS];
};

struct revoke *
revoke_new(void)
{
	return calloc(1, sizeof(struct revoke));
}

void
revoke_free(struct revoke *r)
{
	free(r);
}

/* The set of token (random bits) in queue. */
static struct revoke_entry *
revoke_set(const struct revoke *r, const char *queue, const char *token)
{
	unsigned long h = hash_str(hash_str(HASH_SEED, token), queue);

	return (struct revoke_entry *)r->e[h % REVOKE_SETS];
}

/* The live entry of queue and token in set, or NULL. */
static struct revoke_entry *
revoke_find(struct revoke_entry *set, const char *queue, const char *token,
    long long now_ms)
{
	for (int i = 0; i < REVOKE_WAYS; i++)
		if (now_ms < set[i].until_ms &&
		    strcmp(set[i].token, token) == 0 &&
		    strcmp(set[i].queue, queue) == 0)
			return &set[i];
	return NULL;
}

/* The way to fill: the one that expires first (an expired one, if any). */
static struct revoke_entry *
revoke_victim(struct revoke_entry *set)
{
	struct revoke_entry *v = &set[0];

	for (int i = 1; i < REVOKE_WAYS; i++)
		if (set[i].until_ms < v->until_ms)
			v = &set[i];
	return v;
}

enum pass_verdict
revoke_verdict(const struct revoke_facts *f, long long iat)
{
	if (f->revoked)
		return PASS_REVOKED;
	if (f->dropped_ms > 0 &&
	    iat * 1000 <= f->dropped_ms + PASS_LEEWAY * 1000)
		return PASS_DROPPED;
	return PASS_OK;
}

int
revoke_get(const struct revoke *r, const char *queue, const char *token,
    long long iat, long long now_ms)
{
	const struct revoke_entry *e = revoke_find(revoke_set(r, queue, token),
	    queue, token, now_ms);

	return e ? (int)revoke_verdict(&e->f, iat) : -1;
}

void
revoke_put(struct revoke *r, const char *queue, const char *token,
    const struct revoke_facts *f, long long now_ms)
{
	struct revoke_entry *set = revoke_set(r, queue, token);
	struct revoke_entry *e = revoke_find(set, queue, token, now_ms);
	struct revoke_facts known = *f;

	/* A fresh answer never hides a revocation or a drop known here. */
	if (e) {
		known.revoked |= e->f.revoked;
		if (e->f.dropped_ms > known.dropped_ms)
			known.dropped_ms = e->f.dropped_ms;
	} else
		e = revoke_victim(set);
	snprintf(e->queue, sizeof e->queue, "%s", queue);
	snprintf(e->token, sizeof e->token, "%s", token);
	e->f = known;
	e->until_ms = now_ms + (known.revoked ? REVOKE_KEEP_MS :
	    REVOKE_FRESH_MS);
}

void
revoke_forget(struct revoke *r, const char *queue)
{
	for (size_t i = 0; i < REVOKE_SETS; i++)
		for (int w = 0; w < REVOKE_WAYS; w++) {
			struct revoke_entry *e = &r->e[i][w];

			if (!e->f.revoked && strcmp(e->queue, queue) == 0)
				e->until_ms = 0;
		}
}
