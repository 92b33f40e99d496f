/*
 * store.h: the asynchronous Redis command connection. One pipelined
 * hiredis connection on the event loop, with a watchdog on connect, a
 * timeout per command, reconnection with backoff and jitter, and the Lua
 * scripts loaded after every (re)connect and called with EVALSHA.
 *
 * While Redis is unreachable or not answering (LOADING, BUSY, MISCONF,
 * OOM...), callers get STORE_UNAVAILABLE and answer 503: never a false
 * success.
 */
#ifndef WR_STORE_H
#define WR_STORE_H

#include <stddef.h>

#include <event2/event.h>
#include "script.h"

enum store_status {
	STORE_OK,		/* reply holds Redis's answer */
	STORE_UNAVAILABLE,	/* not connected, timed out, or not serving */
	STORE_ERROR		/* Redis answered an error we do not expect */
};

/*
 * Why a call was not answered with STORE_OK, classified here once (by
 * Redis's error code, or by what befell the call), so no caller reads an
 * error's text.
 */
enum store_error {
	STORE_ERR_NONE,
	STORE_ERR_OOM,		/* Redis refused a write for memory */
	STORE_ERR_NOT_SERVING,	/* LOADING, BUSY, MISCONF, MASTERDOWN... */
	STORE_ERR_READONLY,	/* a replica now: the master moved */
	STORE_ERR_NOSCRIPT,	/* the script cache was flushed */
	STORE_ERR_NO_ANSWER,	/* not connected, timed out, not confirmed */
	STORE_ERR_OTHER		/* an error we do not expect */
};

/* What Redis's error reply msg means to a caller (store_error.c). */
enum store_error store_error_of(const char *msg);

/* hiredis's reply; only the files of src/store read one. */
struct redisReply;

struct store_result {
	enum store_status status;
	const struct redisReply *reply;	/* borrowed: valid during the call */
	enum store_error code;		/* STORE_ERR_NONE when STORE_OK */
	const char *error;		/* for logs when status != STORE_OK */
};

typedef void store_cb(const struct store_result *res, void *arg);
typedef void store_ready_cb(int first, void *arg);

struct store;

/* What a store needs besides its address. */
struct store_opts {
	const char *sentinel_password;	/* NULL: the sentinels need none */
	long wait_replicas;	/* STORE_DURABLE calls wait for as many */
};

/*
 * addr is host:port, unix:/path or sentinel://host:port,.../master (the
 * master is asked of the sentinels at every connect, and followed on
 * +switch-master). Connecting starts at once. o may be NULL. (In
 * store_checks.c, which checks each new connection before it serves.)
 */
struct store *store_new(struct event_base *base, const char *addr,
    const struct store_opts *o, char *err, size_t errlen);
void store_free(struct store *s);

/* Connected, and every script loaded. */
int store_is_ready(const struct store *s);

/* The Redis reached is not a master (ROLE): its writes would fail. */
int store_is_readonly(const struct store *s);

/* Redis owes no answer to any call of s. */
int store_idle(const struct store *s);

/*
 * Writes are not known to be acknowledged as configured: wait_replicas is
 * above 0 and the last WAIT found fewer replicas (or none answered yet
 * since the connection was made), so a STORE_DURABLE call would fail.
 * Always 0 when wait_replicas is 0.
 */
int store_replicas_short(const struct store *s);

/* Called each time the store becomes ready; first is 1 the first time. */
void store_on_ready(struct store *s, store_ready_cb *cb, void *arg);

/*
 * Run script id with nkeys keys followed by the arguments (argc strings in
 * all). Returns -1 without calling cb when the store is not ready; else cb
 * runs exactly once, later, from the loop.
 */
int store_eval(struct store *s, enum lua_script_id id, int nkeys, int argc,
    const char *const *argv, const size_t *lens, store_cb *cb, void *arg);

/*
 * store_eval, and with STORE_DURABLE (when wait_replicas is above 0) the
 * call is answered only once WAIT confirms that many replicas have its
 * writes: one WAIT sent right behind it on the same connection, so a
 * batch pays one. When they do not confirm in time: STORE_UNAVAILABLE.
 */
#define STORE_DURABLE 1
int store_eval_flags(struct store *s, enum lua_script_id id, int nkeys,
    int argc, const char *const *argv, const size_t *lens, store_cb *cb,
    void *arg, int flags);

/*
 * Write the commands hiredis holds to Redis now, rather than once the loop
 * next reports the socket writable: a pass of the loop sooner, for callers
 * that have just queued what requests wait on. Redis failing meanwhile is
 * handled as always (callbacks answered, reconnection scheduled).
 */
void store_flush(struct store *s);

/* A plain command; same rules as store_eval. */
int store_command(struct store *s, int argc, const char *const *argv,
    const size_t *lens, store_cb *cb, void *arg);

typedef void store_message_cb(const char *channel, const char *message,
    size_t len, void *arg);

/*
 * A subscriber connection (SUBSCRIBE never shares a context with
 * commands): PSUBSCRIBE pattern after every (re)connect, and cb for every
 * message. store_is_ready says whether the subscription stands. Messages
 * published while it was down are lost: callers must not rely on them.
 */
struct store *store_new_subscriber(struct event_base *base, const char *addr,
    const struct store_opts *o, const char *pattern, store_message_cb *cb,
    void *arg, char *err, size_t errlen);

/* Counters for logs and, later, metrics. */
unsigned long store_reconnects(const struct store *s);

#endif
