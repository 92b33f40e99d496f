/* revoke.c: the cache of revocations; see revoke.h. */
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "revoke.h"

struct revoke_entry {
	char queue[CONF_QUEUE_ID_MAX + 1];
	char token[37];
	int revoked;
	long long until_ms;
};

struct revoke {
	struct revoke_entry e[REVOKE_SLOTS];
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

/* FNV-1a over the token (random bits) and the queue. */
static size_t
revoke_slot(const char *queue, const char *token)
{
	unsigned long h = 2166136261UL;

	for (const char *p = token; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619UL;
	for (const char *p = queue; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619UL;
	return (size_t)(h % REVOKE_SLOTS);
}

int
revoke_get(const struct revoke *r, const char *queue, const char *token,
    long long now_ms)
{
	const struct revoke_entry *e = &r->e[revoke_slot(queue, token)];

	if (now_ms >= e->until_ms || strcmp(e->token, token) != 0 ||
	    strcmp(e->queue, queue) != 0)
		return -1;
	return e->revoked;
}

void
revoke_put(struct revoke *r, const char *queue, const char *token,
    int revoked, long long now_ms)
{
	struct revoke_entry *e = &r->e[revoke_slot(queue, token)];

	/* A fresh "not revoked" never hides a known revocation. */
	if (!revoked && e->revoked && now_ms < e->until_ms &&
	    strcmp(e->token, token) == 0 && strcmp(e->queue, queue) == 0)
		return;
	strncpy(e->queue, queue, sizeof e->queue - 1);
	e->queue[sizeof e->queue - 1] = '\0';
	strncpy(e->token, token, sizeof e->token - 1);
	e->token[sizeof e->token - 1] = '\0';
	e->revoked = revoked;
	e->until_ms = now_ms + (revoked ? REVOKE_KEEP_MS : REVOKE_FRESH_MS);
}
