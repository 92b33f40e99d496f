/*
 * conf.h: waitroom.conf, the global keys and one [queue NAME] section per
 * queue. Parsing is driven by one table of keys (name, scope, type, range,
 * default), so the file, the command line and the admin API (which sets queue
 * keys one at a time with conf_queue_set) share the same rules and messages.
 */
#ifndef WR_CONF_H
#define WR_CONF_H

#include <stddef.h>

#include "conf_addr.h"	/* CONF_ADDR_MAX, conf_addr_split */
#include "validate.h"

#define CONF_QUEUE_ID_MAX VALID_QUEUE_ID_MAX
#define CONF_ERR_MAX 512

enum queue_mode { MODE_RATE, MODE_CAPACITY, MODE_PASSTHROUGH };
enum queue_state { STATE_OPEN, STATE_PAUSED, STATE_CLOSED };

struct queue_conf {
	char name[CONF_QUEUE_ID_MAX + 1];
	int mode;		/* enum queue_mode */
	long batch;		/* admit batch every interval s; 0: unset */
	long interval;
	long max_active;	/* most active at once; 0: unset */
	long active_ttl;	/* seconds a session lasts */
	long waiting_ttl;	/* seconds a waiter may go unseen */
	long max_waiting;	/* 0: unlimited */
	int state;		/* enum queue_state */
	char *redirect;		/* NULL: none */
	int renew;		/* 1: a session slides to active_ttl after use */
	int access;		/* 0: open, 1: invite (joins need an invitation) */
	char *page_template;	/* NULL: the global one or built-in */
	int join_challenge;	/* 0 off, 1 pow (a proof of work) */
	long pow_bits;		/* 0: auto */
	long pow_ttl;		/* seconds a challenge stays valid */
	long pow_start_bits;	/* auto: the bits just above pow_calm_rate */
	long pow_max_bits;	/* auto: the cap */
	long pow_calm_rate;	/* auto: joins/s that ask no work */
	long opens_at;		/* unix seconds; 0: no schedule */
	long prequeue_from;	/* unix seconds; 0: any time before */
	long closes_at;		/* unix seconds; 0: never by itself */
	char *beacon_round;	/* the announced public random value; NULL */
	long noshow_after;	/* s after admission an unused pass is a
				 * no-show; 0: off */
	int noshow_refill;	/* 1: a rate queue's no-shows grow its batches */
	long report_ttl;	/* seconds the report's history is kept */
};

struct conf {
	char *listen;
	char *admin_listen;	/* NULL: the admin API on listen */
	char *redis;
	char *key_prefix;
	long workers;		/* 0: auto (number of cores) */
	long push_interval;
	long max_streams;	/* 0: sized to the fd limit */
	long max_streams_per_ip;
	char *admin_token_file;
	char *cors_origins;
	int log_level;		/* enum log_level */
	char *page_template;
	char *pass_key_file;
	char *pass_cookie;
	int pass_cookie_secure;	/* 1: the cookie says Secure (HTTPS only) */
	char *pass_cookie_domain; /* NULL: host-only cookie */
	long join_rate_per_ip;
	char *trusted_proxies;
	long max_body;		/* bytes accepted in a public request body */
	long keepalive_interval; /* seconds of silence before ": keepalive" */
	long stream_buffer;	/* most unsent bytes a stream may hold */
	char *sentinel_password_file;	/* NULL: sentinels need no AUTH */
	long redis_wait_replicas;	/* joins, leaves, ticks wait for */
	long header_timeout;	/* seconds from accept to a whole request head */
	long body_timeout;	/* seconds from the head to the whole body */
	long max_conns_per_ip;	/* connections per peer address; 0: no cap */
	long fd_reserve;	/* percent of the descriptor limit kept free */
	struct queue_conf *queues;
	size_t nqueues;
};

/* Fill with the defaults of the key table. */
void conf_init(struct conf *c);
void conf_free(struct conf *c);

/*
 * Parse a file (or text, named fname in messages) into c, which holds
 * defaults or earlier values. On error returns -1 and writes one line into
 * err naming file, line, key, value and what is accepted; c is then
 * unspecified but safe to conf_free.
 */
int conf_load_file(struct conf *c, const char *path, char *err, size_t errlen);
int conf_load_string(struct conf *c, const char *text, const char *fname,
    char *err, size_t errlen);

/* Set one key, with the table's rules; err names key, value, accepted. */
int conf_global_set(struct conf *c, const char *key, const char *value,
    char *err, size_t errlen);
int conf_queue_set(struct queue_conf *q, const char *key, const char *value,
    char *err, size_t errlen);

/*
 * What a queue key is, for the admin API (which sets the shared fields of
 * the Redis hash and shows them typed): CONF_SHARED_INT or CONF_SHARED_TEXT
 * for a key of the hash, CONF_LOCAL for a queue key each host keeps for
 * itself (page_template), CONF_UNKNOWN for anything else.
 */
enum conf_key_kind { CONF_UNKNOWN, CONF_LOCAL, CONF_SHARED_INT,
	CONF_SHARED_TEXT };
enum conf_key_kind conf_queue_key_kind(const char *key);

/*
 * The value of q's key as its Redis hash holds it (a time in unix
 * seconds, whatever form it was given in), into buf; "" when unset.
 */
const char *conf_queue_value(const struct queue_conf *q, const char *key,
    char *buf, size_t size);

/* A queue with the defaults, named name. */
void conf_queue_init(struct queue_conf *q, const char *name);
void conf_queue_free(struct queue_conf *q);

const struct queue_conf *conf_queue_find(const struct conf *c,
    const char *name);

/*
 * Call fn for every field of q that belongs in its Redis config hash, as
 * strings ("mode" -> "rate", "batch" -> "100", ...). Unset optional
 * strings (redirect) are skipped.
 */
void conf_queue_fields(const struct queue_conf *q,
    void (*fn)(const char *key, const char *value, void *arg), void *arg);

/*
 * The cap a queue's mode takes for its key when that is 0 (unset): batch
 * in rate mode, max_active in capacity mode. fn hears each, as the
 * scripts apply them (mode, key and value as the file writes them).
 */
void conf_mode_caps(void (*fn)(const char *mode, const char *key,
    const char *value, void *arg), void *arg);

/*
 * The key table, for waitroomd --list-keys (and the tests of the man page
 * and design.md): key i's name, with *scope "global", "queue" or "both"
 * and *restart 1 when a reload keeps its value; NULL past the end.
 */
const char *conf_key_at(size_t i, const char **scope, int *restart);

/*
 * A reload: fresh takes old's value of every key that changes only with
 * a restart (the table's restart column), and kept (unless NULL) hears
 * each such key whose value differed. Strings are swapped, so freeing old
 * frees the value fresh brought.
 */
void conf_keep_restart(struct conf *fresh, struct conf *old,
    void (*kept)(const char *key, void *arg), void *arg);

/* Names for the enums, as written in the file. */
const char *conf_mode_name(int mode);
const char *conf_state_name(int state);
/* The enums by those names; -1 for a word that is none of them. */
int conf_mode_by_name(const char *name);
int conf_state_by_name(const char *name);

#endif
