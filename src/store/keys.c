/* keys.c: every Redis key name; see keys.h for the layout. */
#include <string.h>

#include "keys.h"
#include "validate.h"

/*
 * The NULL-ended pieces, one after another, into buf of size bytes; the
 * length, or -1 when they do not fit. (snprintf's parsing of a format cost
 * more than a join's whole key building.)
 */
static int
keys_join(char *buf, size_t size, const char *const *piece)
{
	size_t n = 0, len;

	for (; *piece; piece++) {
		len = strlen(*piece);
		if (len >= size - n)
			return -1;
		memcpy(buf + n, *piece, len);
		n += len;
	}
	buf[n] = '\0';
	return (int)n;
}

static int
keys_one(char *buf, const char *prefix, const char *queue, const char *what)
{
	const char *piece[] = { prefix, ":{", queue, "}:", what, NULL };

	return keys_join(buf, KEYS_MAX, piece) == -1 ? -1 : 0;
}

/* A name of the whole prefix, no queue's: prefix:name. */
static int
keys_global(char buf[KEYS_MAX], const char *prefix, const char *name)
{
	const char *piece[] = { prefix, ":", name, NULL };

	if (!valid_key_prefix(prefix))
		return -1;
	return keys_join(buf, KEYS_MAX, piece) == -1 ? -1 : 0;
}

int
keys_queue(struct queue_keys *k, const char *prefix, const char *queue)
{
	if (!valid_key_prefix(prefix) || !valid_queue_id(queue))
		return -1;
	return keys_one(k->config, prefix, queue, "config") |
	    keys_one(k->seq, prefix, queue, "seq") |
	    keys_one(k->waiting, prefix, queue, "waiting") |
	    keys_one(k->active, prefix, queue, "active") |
	    keys_one(k->seen, prefix, queue, "seen") |
	    keys_one(k->stats, prefix, queue, "stats") |
	    keys_one(k->tick, prefix, queue, "tick") |
	    keys_one(k->unchecked, prefix, queue, "unchecked") |
	    keys_one(k->line, prefix, queue, "line") |
	    keys_one(k->places, prefix, queue, "places") |
	    keys_one(k->events, prefix, queue, "events");
}

int
keys_user(char *buf, size_t size, const char *prefix, const char *queue,
    const char *user)
{
	const char *piece[] = { prefix, ":{", queue, "}:user:", user, NULL };

	return keys_join(buf, size, piece);
}

/* 1 to max characters, all from set. */
static int
keys_word(const char *s, size_t max, const char *set)
{
	size_t n = strlen(s);

	return n >= 1 && n <= max && strspn(s, set) == n;
}

int
keys_valid_used(const char *kind, const char *id)
{
	return keys_word(kind, 16, "abcdefghijklmnopqrstuvwxyz") &&
	    keys_word(id, KEYS_USED_ID_MAX, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_-");
}

int
keys_used(char buf[KEYS_USED_MAX], const char *prefix, const char *queue,
    const char *kind, const char *id)
{
	const char *piece[] = { prefix, ":{", queue, "}:used:", kind, ":", id,
	    NULL };

	if (!keys_valid_used(kind, id))
		return -1;
	return keys_join(buf, KEYS_USED_MAX, piece) == -1 ? -1 : 0;
}

int
keys_registry(char buf[KEYS_MAX], const char *prefix)
{
	return keys_global(buf, prefix, "queues");
}

int
keys_trail(char buf[KEYS_MAX], const char *prefix)
{
	return keys_global(buf, prefix, "trail");
}

int
keys_revoked(char *buf, size_t size, const char *prefix, const char *queue,
    const char *token)
{
	const char *piece[] = { prefix, ":{", queue, "}:revoked:", token,
	    NULL };

	return keys_join(buf, size, piece);
}

int
keys_dropped(char buf[KEYS_MAX], const char *prefix, const char *queue)
{
	return keys_one(buf, prefix, queue, "dropped");
}

int
keys_events_pattern(char buf[KEYS_MAX], const char *prefix)
{
	return keys_global(buf, prefix, "{*}:events");
}

int
keys_channel_queue(const char *channel, const char **queue, size_t *len)
{
	const char *open = strchr(channel, '{'), *close;

	if (open == NULL || (close = strchr(open, '}')) == NULL ||
	    strcmp(close, "}:events") != 0 ||
	    close - open - 1 < 1 || close - open - 1 > VALID_QUEUE_ID_MAX)
		return -1;
	*queue = open + 1;
	*len = (size_t)(close - open - 1);
	return 0;
}

int
keys_full(char buf[KEYS_MAX], const char *prefix, const char *queue)
{
	return keys_one(buf, prefix, queue, "full");
}

int
keys_epoch(char buf[KEYS_MAX], const char *prefix)
{
	return keys_global(buf, prefix, "epoch");
}

int
keys_powkey(char buf[KEYS_MAX], const char *prefix)
{
	return keys_global(buf, prefix, "powkey");
}

int
keys_draw(struct draw_keys *k, const char *prefix, const char *queue)
{
	if (!valid_key_prefix(prefix) || !valid_queue_id(queue))
		return -1;
	return keys_one(k->draw, prefix, queue, "draw") |
	    keys_one(k->sorted, prefix, queue, "draw:sorted") |
	    keys_one(k->order, prefix, queue, "draw:order") |
	    keys_one(k->lock, prefix, queue, "draw:lock");
}

int
keys_room_queue(struct room_keys *k, const char *prefix, const char *queue)
{
	if (!valid_key_prefix(prefix) || !valid_queue_id(queue))
		return -1;
	return keys_one(k->series, prefix, queue, "series") |
	    keys_one(k->joins, prefix, queue, "joins") |
	    keys_one(k->waits, prefix, queue, "waits") |
	    keys_one(k->history, prefix, queue, "history");
}

int
keys_room(struct room_names *k, const char *prefix)
{
	return keys_global(k->room, prefix, "room") |
	    keys_global(k->seen, prefix, "room:seen") |
	    keys_global(k->second, prefix, "room:second");
}
