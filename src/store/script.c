/*
 * script.c: the scripts' table (scripts.def) as data, and the builder of
 * a call; see script.h.
 *
 * Invariant: a call's values live in its own buffer, at offsets (the
 * buffer grows), and are laid out only by script_call_argv, after the
 * counts are appended: the pointers it hands out stay valid until the
 * call is freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "script.h"

#define SCRIPT_SLOTS_MAX 32	/* in one script's KEYS and ARGV */

/* Each script's slots, in the table's order. */
#define ONE(n, k) { #n, k, 0, 0, 0, 0 }
#define SCRIPT(ID, name) static const struct script_slot ID##_slot[] = {
#define KEY(ID, SLOT, name) ONE(name, 1),
#define KEYS(ID, SLOT, name, COUNT) { #name, 1, 1, ID##_A_##COUNT, 1, 0 },
#define QUEUES(ID, SLOT, name) { #name, 1, 1, -1, SCRIPT_QUEUE_KEYS, 1 },
#define ARG(ID, SLOT, name) ONE(name, 0),
#define ARGS(ID, SLOT, name, COUNT, WIDTH) \
	{ #name, 0, 1, ID##_A_##COUNT, WIDTH, 0 },
#define END_SCRIPT(ID) };
#include "scripts.def"

/* Each script's shapes of replies, ended by -1. */
#define SCRIPT(ID, name) static const int ID##_replies[] = {
#define REPLY(ID, S) SHAPE_##S,
#define END_SCRIPT(ID) -1 };
#include "scripts.def"

static const struct script_info scripts[LUA_NSCRIPTS] = {
#define SCRIPT(ID, name) [LUA_##ID] = { #name, ID##_slot, ID##_SLOTS, \
	ID##_replies },
#include "scripts.def"
};

/* Each shape's field names; and 1 when its last is every element left. */
#define SHAPE(S) static const char *const S##_field[] = {
#define FIELD(S, F, name) #name,
#define FIELDS(S, F, name) #name,
#define END_SHAPE(S) };
#include "scripts.def"

#define SHAPE(S) static const int S##_rest = 0
#define FIELDS(S, F, name) + 1
#define END_SHAPE(S) ;
#include "scripts.def"

static const struct script_shape shapes[SHAPE_COUNT] = {
#define SHAPE(S) [SHAPE_##S] = { #S, S##_field, S##_FIELDS, S##_rest },
#include "scripts.def"
};

const char *const script_queue_keys[] = {
#define KEY(ID, SLOT, name) #name,
	QUEUE_KEYS(_)
#undef KEY
};

const struct script_info *
script_info(enum lua_script_id id)
{
	return (unsigned)id < LUA_NSCRIPTS ? &scripts[id] : NULL;
}

const struct script_shape *
script_shape(enum script_shape_id id)
{
	return (unsigned)id < SHAPE_COUNT ? &shapes[id] : NULL;
}

/* ---- the table's own rules ------------------------------------------- */

/* Slot i of s, against the slots before it; NULL when it keeps the rules. */
static const char *
slot_wrong(const struct script_info *s, int i)
{
	const struct script_slot *p = &s->slot[i], *prev = i ? p - 1 : NULL;
	const struct script_slot *n;

	if (prev && p->key && !prev->key)
		return "a key after an argument";
	if (prev && prev->key == p->key && prev->run && !p->run)
		return "one value after a run";
	if (prev && prev->key == p->key && prev->run && prev->count == -1)
		return "a slot after the rest";
	if (!p->run || p->count == -1)
		return NULL;
	if (p->count < 0 || p->count >= s->nslots)
		return "a count that is no slot";
	n = &s->slot[p->count];
	if (n->key || n->run)
		return "a count that is not one argument";
	return NULL;
}

int
script_table_check(char *err, size_t size)
{
	for (int id = 0; id < LUA_NSCRIPTS; id++)
		for (int i = 0; i < scripts[id].nslots; i++) {
			const char *why = i < SCRIPT_SLOTS_MAX ?
			    slot_wrong(&scripts[id], i) : "too many slots";

			if (why != NULL) {
				snprintf(err, size, "scripts.def: %s.lua's %s: "
				    "%s", scripts[id].name,
				    scripts[id].slot[i].name, why);
				return -1;
			}
		}
	return 0;
}

/* ---- a call ------------------------------------------------------------- */

struct value {
	int slot;
	size_t off, len;	/* in the call's buffer */
};

struct script_call {
	const struct script_info *s;
	enum lua_script_id id;
	int failed;
	char *buf;		/* every value, each ended by a NUL */
	size_t len, size;
	struct value *v;	/* in the order set */
	size_t n, cap;
	const char **argv;	/* script_call_argv's */
	size_t *lens;
};

struct script_call *
script_call_new(enum lua_script_id id)
{
	struct script_call *c = calloc(1, sizeof *c);

	if (c == NULL || (c->s = script_info(id)) == NULL) {
		free(c);
		return NULL;
	}
	c->id = id;
	return c;
}

void
script_call_free(struct script_call *c)
{
	if (c == NULL)
		return;
	free(c->buf);
	free(c->v);
	free(c->argv);
	free(c->lens);
	free(c);
}

enum lua_script_id
script_call_id(const struct script_call *c)
{
	return c->id;
}

/* Room for one more value of len bytes; -1 when out of memory. */
static int
grow(struct script_call *c, size_t len)
{
	if (c->len + len + 1 > c->size) {
		size_t size = c->size ? c->size : 256;
		char *b;

		while (size < c->len + len + 1)
			size *= 2;
		if ((b = realloc(c->buf, size)) == NULL)
			return -1;
		c->buf = b, c->size = size;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct value *v = realloc(c->v, cap * sizeof *v);

		if (v == NULL)
			return -1;
		c->v = v, c->cap = cap;
	}
	return 0;
}

static void
put(struct script_call *c, int slot, const char *value)
{
	size_t len = strlen(value);

	if (grow(c, len) == -1) {
		c->failed = 1;
		return;
	}
	memcpy(c->buf + c->len, value, len + 1);
	c->v[c->n++] = (struct value){ slot, c->len, len };
	c->len += len + 1;
}

/* Is slot one of c's, and a run (run 1) or one value (run 0)? */
static int
slot_is(struct script_call *c, int slot, int run)
{
	if (slot < 0 || slot >= c->s->nslots || c->s->slot[slot].run != run) {
		c->failed = 1;
		return 0;
	}
	return 1;
}

void
script_set(struct script_call *c, int slot, const char *value)
{
	if (slot_is(c, slot, 0))
		put(c, slot, value);
}

void
script_add(struct script_call *c, int slot, const char *value)
{
	if (slot_is(c, slot, 1))
		put(c, slot, value);
}

void
script_set_num(struct script_call *c, int slot, long long v)
{
	char num[DECIMAL_MAX + 1];

	script_set(c, slot, decimal_str(num, v));
}

void
script_add_num(struct script_call *c, int slot, long long v)
{
	char num[DECIMAL_MAX + 1];

	script_add(c, slot, decimal_str(num, v));
}

/* k's keys by the table's names, in QUEUE_KEYS' order. */
static void
queue_values(const struct queue_keys *k, const char *v[SCRIPT_QUEUE_KEYS])
{
	const char *const in[] = {
#define KEY(ID, SLOT, name) k->name,
		QUEUE_KEYS(_)
#undef KEY
	};

	memcpy(v, in, sizeof in);
}

void
script_set_queue(struct script_call *c, int first, const struct queue_keys *k)
{
	const char *v[SCRIPT_QUEUE_KEYS];

	queue_values(k, v);
	for (int i = 0; i < SCRIPT_QUEUE_KEYS; i++) {
		if (first + i >= c->s->nslots || strcmp(c->s->slot[first +
		    i].name, script_queue_keys[i]) != 0) {
			c->failed = 1;
			return;
		}
		script_set(c, first + i, v[i]);
	}
}

void
script_add_queue(struct script_call *c, int run, const struct queue_keys *k)
{
	const char *v[SCRIPT_QUEUE_KEYS];

	if (!slot_is(c, run, 1) || !c->s->slot[run].queues)
		return;
	queue_values(k, v);
	for (int i = 0; i < SCRIPT_QUEUE_KEYS; i++)
		put(c, run, v[i]);
}

/* How many values each slot has, into per[]; -1 when a slot's are wrong. */
static int
tally(struct script_call *c, size_t *per)
{
	const struct script_info *s = c->s;

	memset(per, 0, (size_t)s->nslots * sizeof *per);
	for (size_t i = 0; i < c->n; i++)
		per[c->v[i].slot]++;
	for (int i = 0; i < s->nslots; i++) {
		const struct script_slot *p = &s->slot[i];

		if (p->run && per[i] % (size_t)p->width != 0)
			return -1;
		if (p->run && p->count >= 0 && per[p->count] != 0)
			return -1;	/* counts are the builder's */
	}
	return 0;
}

/*
 * Each count slot's value: what the runs it counts hold (each run's
 * values over its width), which must agree.
 */
static int
fill_counts(struct script_call *c, size_t *per)
{
	const struct script_info *s = c->s;
	long long count[SCRIPT_SLOTS_MAX];

	for (int i = 0; i < s->nslots; i++)
		count[i] = -1;
	for (int i = 0; i < s->nslots; i++) {
		const struct script_slot *p = &s->slot[i];
		long long n = p->run ? (long long)(per[i] / (size_t)p->width) : 0;

		if (!p->run || p->count < 0)
			continue;
		if (count[p->count] >= 0 && count[p->count] != n)
			return -1;
		count[p->count] = n;
	}
	for (int i = 0; i < s->nslots; i++)
		if (count[i] >= 0) {
			script_set_num(c, i, count[i]);
			per[i] = 1;
		}
	return c->failed ? -1 : 0;
}

int
script_call_argv(struct script_call *c, int *nkeys, int *argc,
    const char *const **argv, const size_t **lens)
{
	size_t per[SCRIPT_SLOTS_MAX], at[SCRIPT_SLOTS_MAX + 1];
	const struct script_info *s = c->s;

	if (c->argv != NULL || c->failed || s->nslots > SCRIPT_SLOTS_MAX ||
	    tally(c, per) == -1 || fill_counts(c, per) == -1)
		return -1;
	*nkeys = 0, at[0] = 0;
	for (int i = 0; i < s->nslots; i++) {
		if (!s->slot[i].run && per[i] != 1)
			return -1;	/* one value, exactly */
		if (s->slot[i].key)
			*nkeys += (int)per[i];
		at[i + 1] = at[i] + per[i];
	}
	c->argv = malloc((c->n ? c->n : 1) * sizeof *c->argv);
	c->lens = malloc((c->n ? c->n : 1) * sizeof *c->lens);
	if (c->argv == NULL || c->lens == NULL)
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		size_t to = at[c->v[i].slot]++;

		c->argv[to] = c->buf + c->v[i].off;
		c->lens[to] = c->v[i].len;
	}
	*argc = (int)c->n;
	*argv = c->argv;
	*lens = c->lens;
	return 0;
}
