/* keys.c: every Redis key name; see keys.h for the layout. */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "validate.h"

int
keys_valid_prefix(const char *prefix)
{
	size_t n = strlen(prefix);

	return n >= 1 && n <= KEYS_PREFIX_MAX &&
	    strspn(prefix, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_.-") == n;
}

static int
keys_one(char *buf, const char *prefix, const char *queue, const char *what)
{
	int n = snprintf(buf, KEYS_MAX, "%s:{%s}:%s", prefix, queue, what);

	return n < 0 || n >= KEYS_MAX ? -1 : 0;
}

int
keys_queue(struct queue_keys *k, const char *prefix, const char *queue)
{
	if (!keys_valid_prefix(prefix) || !valid_queue_id(queue))
		return -1;
	return keys_one(k->config, prefix, queue, "config") |
	    keys_one(k->seq, prefix, queue, "seq") |
	    keys_one(k->waiting, prefix, queue, "waiting") |
	    keys_one(k->active, prefix, queue, "active") |
	    keys_one(k->seen, prefix, queue, "seen") |
	    keys_one(k->stats, prefix, queue, "stats") |
	    keys_one(k->tick, prefix, queue, "tick") |
	    keys_one(k->events, prefix, queue, "events");
}

int
keys_user(char *buf, size_t size, const char *prefix, const char *queue,
    const char *user)
{
	int n = snprintf(buf, size, "%s:{%s}:user:%s", prefix, queue, user);

	return n < 0 || (size_t)n >= size ? -1 : n;
}

int
keys_registry(char buf[KEYS_MAX], const char *prefix)
{
	if (!keys_valid_prefix(prefix))
		return -1;
	snprintf(buf, KEYS_MAX, "%s:queues", prefix);
	return 0;
}

int
keys_revoked(char *buf, size_t size, const char *prefix, const char *queue,
    const char *token)
{
	int n = snprintf(buf, size, "%s:{%s}:revoked:%s", prefix, queue, token);

	return n < 0 || (size_t)n >= size ? -1 : n;
}
