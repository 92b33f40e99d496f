/*
 * conf.c: waitroom.conf and the keys it holds. One table (conf_keys) says,
 * for every key, where it may appear, what it accepts, its default and where
 * it is stored; conf_init, the file parser (conf_file.c), the command line
 * and the admin API all go through it, so they share rules and messages.
 *
 * A failed set leaves the field as it was, so a struct conf is always safe
 * to use and to conf_free. The keys of queue scope only are the queue's
 * shared configuration (its Redis hash); page_template is local to a host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "conf_check.h"
#include "log.h"
#include "msg.h"
#include "validate.h"

enum { SC_GLOBAL = 1, SC_QUEUE = 2, SC_BOTH = 3 };
enum key_type { T_INT, T_STR, T_ENUM, T_LEVEL, T_TIME };

struct conf_key {
	const char *name;
	int scope;
	enum key_type type;
	long min, max;			/* T_INT */
	int autozero;			/* T_INT: "auto" is accepted, as 0 */
	const char *const *names;	/* T_ENUM, NULL-terminated */
	int (*check)(const char *);	/* T_STR: 1 when valid */
	const char *accepted;		/* T_STR: what check accepts */
	const char *def;		/* as written in the file; NULL: none */
	size_t goff, qoff;		/* in struct conf, struct queue_conf */
	int restart;			/* a reload keeps the value in force */
};

static const char *const mode_names[] = { "rate", "capacity", "passthrough",
	NULL };
static const char *const state_names[] = { "open", "paused", "closed", NULL };
static const char *const bool_names[] = { "no", "yes", NULL };
static const char *const challenge_names[] = { "off", "pow", NULL };
static const char *const access_names[] = { "open", "invite", NULL };

#define G(f) .goff = offsetof(struct conf, f)
#define Q(f) .qoff = offsetof(struct queue_conf, f)
#define INT(lo, hi) .type = T_INT, .min = (lo), .max = (hi)
#define STR(fn, acc) .type = T_STR, .check = (fn), .accepted = (acc)
#define ENUM(list) .type = T_ENUM, .names = (list)
#define PATH STR(conf_check_text, "a file path")
#define TIME .type = T_TIME
#define RESTART .restart = 1

/*
 * Every key, with every property as a column: the file, the command line,
 * the admin PUT, --list-keys and a reload (restart) all read this table,
 * so a new key is one row here and nothing elsewhere (the idea of
 * Redis's createIntConfig).
 */
static const struct conf_key conf_keys[] = {
	{ "listen", SC_GLOBAL, G(listen), .def = "127.0.0.1:8080",
	  STR(conf_check_listen, "host:port, host an IPv4 address, localhost or "
	  "[IPv6], port 0 to 65535"), RESTART },
	{ "admin_listen", SC_GLOBAL, G(admin_listen),
	  STR(conf_check_listen, "host:port, host an IPv4 address, localhost "
	  "or [IPv6], port 0 to 65535"), RESTART },
	{ "redis", SC_GLOBAL, G(redis), .def = "127.0.0.1:6379",
	  STR(conf_check_redis, "host:port with port 1 to 65535, "
	  "unix:/absolute/path, or sentinel://host:port,host:port/master"),
	  RESTART },
	{ "key_prefix", SC_GLOBAL, G(key_prefix), .def = "wr",
	  STR(valid_key_prefix, "1 to 32 of A-Z a-z 0-9 _ . -"), RESTART },
	{ "workers", SC_GLOBAL, G(workers), .def = "1", INT(1, 64),
	  .autozero = 1, RESTART },
	{ "push_interval", SC_GLOBAL, G(push_interval), .def = "3",
	  INT(1, 300) },
	{ "max_streams", SC_GLOBAL, G(max_streams), .def = "0",
	  INT(0, 10000000) },
	{ "max_streams_per_ip", SC_GLOBAL, G(max_streams_per_ip), .def = "0",
	  INT(0, 1000000) },
	{ "admin_token_file", SC_GLOBAL, G(admin_token_file), PATH, RESTART },
	{ "cors_origins", SC_GLOBAL, G(cors_origins),
	  STR(conf_check_text, "origins such as https://shop.example, or *") },
	{ "log_level", SC_GLOBAL, G(log_level), .def = "info",
	  .type = T_LEVEL },
	{ "pass_key_file", SC_GLOBAL, G(pass_key_file), PATH, RESTART },
	{ "pass_cookie", SC_GLOBAL, G(pass_cookie), .def = "waitroom_pass",
	  STR(conf_check_cookie, "1 to 64 cookie-name characters: A-Z a-z 0-9 "
	  "and ! # $ % & ' * + - . ^ _ ` | ~") },
	{ "pass_cookie_secure", SC_GLOBAL, G(pass_cookie_secure), .def = "yes",
	  ENUM(bool_names) },
	{ "pass_cookie_domain", SC_GLOBAL, G(pass_cookie_domain),
	  STR(conf_check_domain, "a domain name such as shop.example") },
	{ "join_rate_per_ip", SC_GLOBAL, G(join_rate_per_ip), .def = "0",
	  INT(0, 1000000), RESTART },
	{ "trusted_proxies", SC_GLOBAL, G(trusted_proxies),
	  STR(conf_check_proxies, "IPv4 or IPv6 addresses or CIDR blocks "
	  "separated by spaces or commas"), RESTART },
	{ "max_body", SC_GLOBAL, G(max_body), .def = "4096",
	  INT(64, 1048576) },
	{ "keepalive_interval", SC_GLOBAL, G(keepalive_interval), .def = "15",
	  INT(1, 300) },
	{ "stream_buffer", SC_GLOBAL, G(stream_buffer), .def = "65536",
	  INT(1024, 16777216) },
	{ "sentinel_password_file", SC_GLOBAL, G(sentinel_password_file),
	  PATH, RESTART },
	{ "redis_wait_replicas", SC_GLOBAL, G(redis_wait_replicas),
	  .def = "0", INT(0, 16), RESTART },
	{ "header_timeout", SC_GLOBAL, G(header_timeout), .def = "10",
	  INT(1, 3600) },
	{ "body_timeout", SC_GLOBAL, G(body_timeout), .def = "10",
	  INT(1, 3600) },
	{ "max_conns_per_ip", SC_GLOBAL, G(max_conns_per_ip), .def = "256",
	  INT(0, 1000000) },
	{ "fd_reserve", SC_GLOBAL, G(fd_reserve), .def = "5", INT(0, 50) },
	{ "mode", SC_QUEUE, Q(mode), .def = "rate", ENUM(mode_names) },
	{ "batch", SC_QUEUE, Q(batch), .def = "0", INT(0, 1000000) },
	{ "interval", SC_QUEUE, Q(interval), .def = "10", INT(1, 86400) },
	{ "max_active", SC_QUEUE, Q(max_active), .def = "0",
	  INT(0, 100000000) },
	{ "active_ttl", SC_QUEUE, Q(active_ttl), .def = "300",
	  INT(1, 604800) },
	{ "waiting_ttl", SC_QUEUE, Q(waiting_ttl), .def = "120",
	  INT(5, 86400) },
	{ "max_waiting", SC_QUEUE, Q(max_waiting), .def = "0",
	  INT(0, 1000000000) },
	{ "state", SC_QUEUE, Q(state), .def = "open", ENUM(state_names) },
	{ "redirect", SC_QUEUE, Q(redirect),
	  STR(conf_check_redirect, "a URL starting with http://, https:// or /, "
	  "in UTF-8 without spaces or control characters, at most 2048 bytes") },
	{ "join_challenge", SC_QUEUE, Q(join_challenge), .def = "off",
	  ENUM(challenge_names) },
	{ "pow_bits", SC_QUEUE, Q(pow_bits), .def = "auto", INT(1, 32),
	  .autozero = 1 },
	{ "pow_ttl", SC_QUEUE, Q(pow_ttl), .def = "300", INT(1, 86400) },
	{ "pow_start_bits", SC_QUEUE, Q(pow_start_bits), .def = "16",
	  INT(1, 32) },
	{ "pow_max_bits", SC_QUEUE, Q(pow_max_bits), .def = "22",
	  INT(1, 32) },
	{ "pow_calm_rate", SC_QUEUE, Q(pow_calm_rate), .def = "10",
	  INT(1, 1000000) },
	{ "renew", SC_QUEUE, Q(renew), .def = "no", ENUM(bool_names) },
	{ "access", SC_QUEUE, Q(access), .def = "open", ENUM(access_names) },
	{ "opens_at", SC_QUEUE, Q(opens_at), .def = "", TIME },
	{ "prequeue_from", SC_QUEUE, Q(prequeue_from), .def = "", TIME },
	{ "closes_at", SC_QUEUE, Q(closes_at), .def = "", TIME },
	{ "report_ttl", SC_QUEUE, Q(report_ttl), .def = "2592000",
	  INT(3600, 31622400) },
	{ "beacon_round", SC_QUEUE, Q(beacon_round),
	  STR(conf_check_text, "a line of text naming a future public random "
	  "value, such as drand quicknet round 12345678") },
	{ "noshow_after", SC_QUEUE, Q(noshow_after), .def = "0",
	  INT(0, 86400) },
	{ "noshow_refill", SC_QUEUE, Q(noshow_refill), .def = "no",
	  ENUM(bool_names) },
	{ "page_template", SC_BOTH, G(page_template), Q(page_template),
	  PATH, RESTART },
};

/*
 * A cap of 0 is unset: the mode's own cap then takes this value, and the
 * other cap is off (doc/design.md's key table; lib.lua's load_conf).
 */
static const struct {
	int mode;
	const char *key, *value;
} mode_caps[] = {
	{ MODE_RATE, "batch", "100" },
	{ MODE_CAPACITY, "max_active", "1000" },
};

#define NKEYS (sizeof conf_keys / sizeof conf_keys[0])
const char *
conf_key_at(size_t i, const char **scope, int *restart)
{
	if (i >= NKEYS)
		return NULL;
	*restart = conf_keys[i].restart;
	*scope = conf_keys[i].scope == SC_BOTH ? "both" :
	    conf_keys[i].scope == SC_QUEUE ? "queue" : "global";
	return conf_keys[i].name;
}

#define KEY_OFF(k, scope) ((scope) == SC_GLOBAL ? (k)->goff : (k)->qoff)

static const struct conf_key *
key_find(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(conf_keys[i].name, name) == 0)
			return &conf_keys[i];
	return NULL;
}

/* Append s to the list in buf, separated by ", ". */
static void
list_add(char *buf, size_t size, const char *s)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, "%s%s", n > 0 ? ", " : "", s);
}

/* The names of the keys of scope, in table order. */
static const char *
key_list(char *buf, size_t size, int scope)
{
	buf[0] = '\0';
	for (size_t i = 0; i < NKEYS; i++)
		if (conf_keys[i].scope & scope)
			list_add(buf, size, conf_keys[i].name);
	return buf;
}

/* What k accepts, for messages. */
static const char *
key_accepted(const struct conf_key *k, char *buf, size_t size)
{
	buf[0] = '\0';
	switch (k->type) {
	case T_INT:
		snprintf(buf, size, "an integer from %ld to %ld%s", k->min,
		    k->max, k->autozero ? ", or auto" : "");
		break;
	case T_ENUM:
		for (const char *const *n = k->names; *n != NULL; n++)
			list_add(buf, size, *n);
		break;
	case T_LEVEL:
		for (int l = LOGL_DEBUG; l <= LOGL_ERROR; l++)
			list_add(buf, size, log_level_name(l));
		break;
	case T_STR:
		snprintf(buf, size, "%s%s", k->accepted,
		    k->def == NULL ? ", or empty for none" : "");
		break;
	case T_TIME:
		snprintf(buf, size, "%s", "a time in UTC such as "
		    "2026-12-01T10:00:00Z (RFC 3339), unix seconds, or empty "
		    "for none");
		break;
	}
	return buf;
}

static int
set_int(const struct conf_key *k, long *dst, const char *v, const char **why)
{
	long n;
	int rc;

	if (k->autozero && strcmp(v, "auto") == 0) {
		*dst = 0;
		return 0;
	}
	if ((rc = conf_parse_long(v, &n)) == -1) {
		*why = "is not an integer";
		return -1;
	}
	if (rc == -2 || n < k->min || n > k->max) {
		*why = "is out of range";
		return -1;
	}
	*dst = n;
	return 0;
}

/* The index of v in the NULL-ended names; -1 when it is none of them. */
static int
name_index(const char *const *names, const char *v)
{
	for (int i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], v) == 0)
			return i;
	return -1;
}

/* An enum of the table, or the log level by log.h's names. */
static int
set_enum(const struct conf_key *k, int *dst, const char *v)
{
	int i = k->type == T_LEVEL ? log_level_parse(v) :
	    name_index(k->names, v);

	if (i < 0)
		return -1;
	*dst = i;
	return 0;
}

/* An empty value clears a key that has no default. */
static int
set_str(const struct conf_key *k, char **dst, const char *v, const char **why)
{
	char *copy = NULL;

	if (*v != '\0' || k->def != NULL) {
		if (!k->check(v))
			return -1;
		if ((copy = strdup(v)) == NULL) {
			*why = "cannot be stored (out of memory)";
			return -1;
		}
	}
	free(*dst);
	*dst = copy;
	return 0;
}

/* Set the field of k at base + off from its text v. */
static int
key_set(const struct conf_key *k, void *base, size_t off, const char *v,
    char *err, size_t errlen)
{
	void *dst = (char *)base + off;
	const char *why = "is not valid";
	char vbuf[MSG_SHOWN_SIZE], acc[CONF_ERR_MAX];
	int rc;

	if (k->type == T_INT)
		rc = set_int(k, dst, v, &why);
	else if (k->type == T_TIME)
		rc = *v == '\0' ? (*(long *)dst = 0, 0) :
		    conf_parse_time(v, dst);
	else if (k->type == T_STR)
		rc = set_str(k, dst, v, &why);
	else
		rc = set_enum(k, dst, v);
	if (rc == -1)
		msg_set(err, errlen, "key '%s': '%s' %s (accepted: %s)",
		    k->name, msg_shown(vbuf, v), why,
		    key_accepted(k, acc, sizeof acc));
	return rc;
}

/* The field of k at base + off as text, NULL when unset. */
static const char *
key_format(const struct conf_key *k, const void *base, size_t off,
    char *buf, size_t size)
{
	const void *src = (const char *)base + off;

	switch (k->type) {
	case T_TIME:
		if (*(const long *)src == 0)
			return NULL;	/* none: not in the hash */
		/* FALLTHROUGH */
	case T_INT:
		snprintf(buf, size, "%ld", *(const long *)src);
		return buf;
	case T_ENUM:
		for (int i = 0; k->names[i] != NULL; i++)
			if (i == *(const int *)src)
				return k->names[i];
		return "unknown";
	case T_LEVEL:
		return log_level_name(*(const int *)src);
	case T_STR:
		return *(char *const *)src;
	}
	return NULL;
}

static void
keys_default(int scope, void *base)
{
	for (size_t i = 0; i < NKEYS; i++) {
		const struct conf_key *k = &conf_keys[i];

		if ((k->scope & scope) && k->def != NULL)
			key_set(k, base, KEY_OFF(k, scope), k->def, NULL, 0);
	}
}

static void
keys_free(int scope, void *base)
{
	for (size_t i = 0; i < NKEYS; i++) {
		const struct conf_key *k = &conf_keys[i];
		char **s = (char **)((char *)base + KEY_OFF(k, scope));

		if ((k->scope & scope) && k->type == T_STR) {
			free(*s);
			*s = NULL;
		}
	}
}

void
conf_init(struct conf *c)
{
	memset(c, 0, sizeof *c);
	keys_default(SC_GLOBAL, c);
}

void
conf_free(struct conf *c)
{
	if (c == NULL)
		return;
	keys_free(SC_GLOBAL, c);
	for (size_t i = 0; i < c->nqueues; i++)
		conf_queue_free(&c->queues[i]);
	free(c->queues);
	c->queues = NULL;
	c->nqueues = 0;
}

void
conf_queue_init(struct queue_conf *q, const char *name)
{
	memset(q, 0, sizeof *q);
	snprintf(q->name, sizeof q->name, "%s", name);
	keys_default(SC_QUEUE, q);
}

void
conf_queue_free(struct queue_conf *q)
{
	if (q != NULL)
		keys_free(SC_QUEUE, q);
}

const struct queue_conf *
conf_queue_find(const struct conf *c, const char *name)
{
	for (size_t i = 0; i < c->nqueues; i++)
		if (strcmp(c->queues[i].name, name) == 0)
			return &c->queues[i];
	return NULL;
}

void
conf_queue_fields(const struct queue_conf *q,
    void (*fn)(const char *key, const char *value, void *arg), void *arg)
{
	char buf[32];
	const char *v;

	for (size_t i = 0; i < NKEYS; i++) {
		const struct conf_key *k = &conf_keys[i];

		if (k->scope != SC_QUEUE)
			continue;
		if ((v = key_format(k, q, k->qoff, buf, sizeof buf)) != NULL)
			fn(k->name, v, arg);
	}
}

enum conf_key_kind
conf_queue_key_kind(const char *key)
{
	const struct conf_key *k = key_find(key);

	if (k == NULL || !(k->scope & SC_QUEUE))
		return CONF_UNKNOWN;
	if (k->scope != SC_QUEUE)
		return CONF_LOCAL;
	return k->type == T_INT || k->type == T_TIME ? CONF_SHARED_INT :
	    CONF_SHARED_TEXT;
}

const char *
conf_queue_value(const struct queue_conf *q, const char *key, char *buf,
    size_t size)
{
	const struct conf_key *k = key_find(key);
	const char *v;

	if (k == NULL || !(k->scope & SC_QUEUE))
		return "";
	v = key_format(k, q, k->qoff, buf, size);
	return v ? v : "";
}

void
conf_mode_caps(void (*fn)(const char *mode, const char *key,
    const char *value, void *arg), void *arg)
{
	for (size_t i = 0; i < sizeof mode_caps / sizeof mode_caps[0]; i++)
		fn(mode_names[mode_caps[i].mode], mode_caps[i].key,
		    mode_caps[i].value, arg);
}

const char *
conf_mode_name(int mode)
{
	return mode == MODE_RATE || mode == MODE_CAPACITY ?
	    mode_names[mode] : "unknown";
}

const char *
conf_state_name(int state)
{
	return state >= STATE_OPEN && state <= STATE_CLOSED ?
	    state_names[state] : "unknown";
}

int
conf_mode_by_name(const char *name)
{
	return name_index(mode_names, name);
}

int
conf_state_by_name(const char *name)
{
	return name_index(state_names, name);
}

/* Set key in base, of scope; where names the section in messages. */
static int
scoped_set(int scope, void *base, const char *where, const char *key,
    const char *value, char *err, size_t errlen)
{
	const struct conf_key *k = key_find(key);
	char kbuf[MSG_SHOWN_SIZE], list[CONF_ERR_MAX];

	if (k == NULL) {
		msg_set(err, errlen, "unknown key '%s'%s (accepted: %s)",
		    msg_shown(kbuf, key), where, key_list(list, sizeof list, scope));
		return -1;
	}
	if (!(k->scope & scope)) {
		msg_set(err, errlen, scope == SC_QUEUE ? "key '%s' is global: "
		    "put it before the first [queue] section" : "key '%s' "
		    "belongs to a queue: put it in a [queue NAME] section",
		    k->name);
		return -1;
	}
	return key_set(k, base, KEY_OFF(k, scope), value, err, errlen);
}

int
conf_global_set(struct conf *c, const char *key, const char *value,
    char *err, size_t errlen)
{
	return scoped_set(SC_GLOBAL, c, "", key, value, err, errlen);
}

int
conf_queue_set(struct queue_conf *q, const char *key, const char *value,
    char *err, size_t errlen)
{
	char where[CONF_QUEUE_ID_MAX + 16];

	snprintf(where, sizeof where, " in [queue %s]", q->name);
	return scoped_set(SC_QUEUE, q, where, key, value, err, errlen);
}

/* Keep old's value of k at off in fresh's, and say so when they differ. */
static void
keep_one(const struct conf_key *k, void *fresh, void *old, size_t off,
    void (*kept)(const char *key, void *arg), void *arg)
{
	char *f = (char *)fresh + off, *o = (char *)old + off;
	int same;

	if (k->type == T_STR) {
		char **fs = (char **)f, **os = (char **)o, *t;

		same = (*fs == NULL) == (*os == NULL) &&
		    (*fs == NULL || strcmp(*fs, *os) == 0);
		/* Swapped: fresh holds the old string, old frees the new. */
		t = *fs, *fs = *os, *os = t;
	} else if (k->type == T_INT || k->type == T_TIME) {
		same = *(long *)f == *(long *)o;
		*(long *)f = *(long *)o;
	} else {
		same = *(int *)f == *(int *)o;
		*(int *)f = *(int *)o;
	}
	if (!same && kept)
		kept(k->name, arg);
}

void
conf_keep_restart(struct conf *fresh, struct conf *old,
    void (*kept)(const char *key, void *arg), void *arg)
{
	for (size_t i = 0; i < NKEYS; i++) {
		const struct conf_key *k = &conf_keys[i];

		if (!k->restart)
			continue;
		if (k->scope & SC_GLOBAL)
			keep_one(k, fresh, old, k->goff, kept, arg);
		if (!(k->scope & SC_QUEUE))
			continue;
		for (size_t j = 0; j < fresh->nqueues; j++) {
			struct queue_conf *q = (struct queue_conf *)
			    conf_queue_find(old, fresh->queues[j].name);

			if (q)
				keep_one(k, &fresh->queues[j], q, k->qoff,
				    kept, arg);
		}
	}
}
