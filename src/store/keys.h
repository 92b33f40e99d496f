/*
 * keys.h: every Redis key and channel name, built in one place. All keys of
 * one queue share the hash tag {queue}, so a Redis Cluster keeps a queue on
 * one node: <prefix>:{<queue>}:<what>.
 */
#ifndef WR_KEYS_H
#define WR_KEYS_H

#include <stddef.h>

#include "validate.h"

#define KEYS_PREFIX_MAX VALID_KEY_PREFIX_MAX
#define KEYS_MAX 128		/* prefix + queue + the longest suffix */
#define KEYS_USER_MAX (KEYS_MAX + 6 + 4 * 128)

struct queue_keys {
	char config[KEYS_MAX];
	char seq[KEYS_MAX];
	char waiting[KEYS_MAX];
	char active[KEYS_MAX];
	char seen[KEYS_MAX];
	char stats[KEYS_MAX];
	char tick[KEYS_MAX];
	char unchecked[KEYS_MAX];
	char line[KEYS_MAX];
	char places[KEYS_MAX];
	char events[KEYS_MAX];
};

/* Fill every key of queue; -1 when prefix or queue is not valid. */
int keys_queue(struct queue_keys *k, const char *prefix, const char *queue);
/*
 * <prefix>:queues, the set of every queue's name, so every instance ticks
 * the queues the admin API created too; -1 when the prefix is not valid.
 */
int keys_registry(char buf[KEYS_MAX], const char *prefix);
/* <prefix>:{<queue>}:user:<user>; -1 when it does not fit. */
int keys_user(char *buf, size_t size, const char *prefix, const char *queue,
    const char *user);

/*
 * <prefix>:{<queue>}:used:<kind>:<id>, how many joins carried the use
 * key id of kind (a challenge, an invitation: join.lua); kind is 1 to 16
 * of [a-z], id 1 to KEYS_USED_ID_MAX of [A-Za-z0-9_-] (a random part or a
 * hash, never raw input). -1 when either is not, or it does not fit. The
 * kind in the name keeps kinds apart; join.lua is told it as an argument
 * and never reads it from the name.
 */
#define KEYS_USED_ID_MAX 64
#define KEYS_USED_MAX (KEYS_MAX + 24 + KEYS_USED_ID_MAX)
int keys_used(char buf[KEYS_USED_MAX], const char *prefix, const char *queue,
    const char *kind, const char *id);
/* Are kind and id as keys_used takes them? */
int keys_valid_used(const char *kind, const char *id);

/*
 * <prefix>:trail, the admin writes of the installation, newest first, one
 * JSON text each, the last 10,000 kept (lib.lua's trail_add).
 */
int keys_trail(char buf[KEYS_MAX], const char *prefix);

/* <prefix>:{<queue>}:revoked:<token>: a pass that no longer admits. */
int keys_revoked(char *buf, size_t size, const char *prefix,
    const char *queue, const char *token);
/*
 * <prefix>:{<queue>}:dropped: when the queue was last dropped (ms), so
 * the passes it issued before open nothing.
 */
int keys_dropped(char buf[KEYS_MAX], const char *prefix, const char *queue);

/* <prefix>:epoch, the marker of Redis's data (epoch.lua). */
int keys_epoch(char buf[KEYS_MAX], const char *prefix);

/*
 * <prefix>:powkey, the HMAC key of the proof-of-work challenges that
 * every instance shares (64 hex digits, written once: challenge.c).
 */
int keys_powkey(char buf[KEYS_MAX], const char *prefix);

/* <prefix>:{<queue>}:full: when Redis was last seen full (tick.lua). */
int keys_full(char buf[KEYS_MAX], const char *prefix, const char *queue);

/*
 * A scheduled queue's draw (draw_step.lua): <prefix>:{<queue>}:draw, a
 * hash (seed, commit, beacon, state, phase...), :draw:sorted (the
 * entrants by HMAC while drawing), :draw:order (the tickets in drawn
 * order, one a line) and :draw:lock (the drawing instance's id, with a
 * TTL). -1 when prefix or queue is not valid.
 */
struct draw_keys {
	char draw[KEYS_MAX];
	char sorted[KEYS_MAX];
	char order[KEYS_MAX];
	char lock[KEYS_MAX];
};
int keys_draw(struct draw_keys *k, const char *prefix, const char *queue);

/*
 * The console's keys of a queue (room_beat.lua, room_read.lua,
 * tick.lua): :series, a sorted set of one sample a second, the last 30
 * minutes; :joins, marks "by this time (member, ms) the tickets had
 * reached this score", so a ticket's join time is known to a second;
 * :waits, a list of the last admissions' times in line; :history, the
 * report's minute rows, kept report_ttl (room_beat.lua, report_read.lua).
 */
struct room_keys {
	char series[KEYS_MAX];
	char joins[KEYS_MAX];
	char waits[KEYS_MAX];
	char history[KEYS_MAX];
};
int keys_room_queue(struct room_keys *k, const char *prefix,
    const char *queue);
/*
 * The installation's room: <prefix>:room (hash: process id -> its last
 * report), <prefix>:room:seen (sorted set: id -> when, ms) and
 * <prefix>:room:second (the last second whose samples were written).
 */
struct room_names {
	char room[KEYS_MAX];
	char seen[KEYS_MAX];
	char second[KEYS_MAX];
};
int keys_room(struct room_names *k, const char *prefix);

/* <prefix>:{*}:events, what the subscriber connection listens to. */
int keys_events_pattern(char buf[KEYS_MAX], const char *prefix);
/*
 * The queue's name in an events channel <prefix>:{<queue>}:events, as a
 * pointer into channel and a length; -1 when channel is not one.
 */
int keys_channel_queue(const char *channel, const char **queue,
    size_t *len);

#endif
