/*
 * script.h: the Lua scripts' contract (scripts.def) in C. Which script is
 * which (LUA_JOIN...), the slots of each one's KEYS and ARGV (JOIN_K_USERS,
 * JOIN_A_TOKENS...), the fields of each reply shape (FACTS_NOW_MS...), and
 * a call's builder: a caller sets values by slot, in any order, and the
 * builder lays them out as the script reads them, counts included. Pure,
 * so the unit tests and the build's generator of the scripts' Lua side
 * (script_lua.c) read the same table.
 */
#ifndef WR_SCRIPT_H
#define WR_SCRIPT_H

#include <stddef.h>

#include "keys.h"

enum lua_script_id {
#define SCRIPT(ID, name) LUA_##ID,
#include "scripts.def"
	LUA_NSCRIPTS
};

/* Each script's slots, from 0: keys first, then arguments. */
#define SCRIPT(ID, name) enum { ID##_A_REST = -1,
#define KEY(ID, SLOT, name) ID##_K_##SLOT,
#define KEYS(ID, SLOT, name, COUNT) ID##_K_##SLOT,
#define QUEUES(ID, SLOT, name) ID##_K_##SLOT,
#define ARG(ID, SLOT, name) ID##_A_##SLOT,
#define ARGS(ID, SLOT, name, COUNT, WIDTH) ID##_A_##SLOT,
#define END_SCRIPT(ID) ID##_SLOTS };
#include "scripts.def"

/* Each shape's fields, from 0, and how many (FACTS_FIELDS). */
#define SHAPE(S) enum {
#define FIELD(S, F, name) S##_##F,
#define FIELDS(S, F, name) S##_##F,
#define END_SHAPE(S) S##_FIELDS };
#include "scripts.def"

enum script_shape_id {
#define SHAPE(S) SHAPE_##S,
#include "scripts.def"
	SHAPE_COUNT
};

/* A slot of a script's KEYS or ARGV, as the table gives it. */
struct script_slot {
	const char *name;	/* K_name or A_name in Lua */
	int key;		/* 1: in KEYS, 0: in ARGV */
	int run;		/* 1: any number of values, 0: one */
	int count;		/* a run's: the slot counting it; -1: the rest */
	int width;		/* a run's: values per one counted */
	int queues;		/* a run of queue keys, ten a queue */
};

struct script_info {
	const char *name;	/* lua/<name>.lua */
	const struct script_slot *slot;
	int nslots;
	const int *replies;	/* its shapes, ended by -1 */
};

struct script_shape {
	const char *name;	/* FACTS... */
	const char *const *field;
	int nfields;
	int rest;		/* the last field is every element left */
};

const struct script_info *script_info(enum lua_script_id id);
const struct script_shape *script_shape(enum script_shape_id id);

/* The order of the queue keys, as names ("config" ...). */
extern const char *const script_queue_keys[];
#define SCRIPT_QUEUE_KEYS 10

/*
 * Is the table well formed (keys before arguments, a run after the one
 * values of its kind, a count an argument before the runs, the rest
 * last)? 0, or -1 with what is wrong in err.
 */
int script_table_check(char *err, size_t size);

/* A script's full text as loaded into Redis: built by embed.sh. */
extern const char *const lua_script_body[LUA_NSCRIPTS];

/*
 * A call of script id being built. Every value set is copied into the
 * call; a failure (out of memory, a slot of another kind, a count set by
 * hand, a value too many) is kept and reported by script_call_argv, so a
 * caller sets all and checks once.
 */
struct script_call;
struct script_call *script_call_new(enum lua_script_id id);
void script_call_free(struct script_call *c);
enum lua_script_id script_call_id(const struct script_call *c);

/* slot's one value, or one more value of a run. */
void script_set(struct script_call *c, int slot, const char *value);
void script_set_num(struct script_call *c, int slot, long long v);
void script_add(struct script_call *c, int slot, const char *value);
void script_add_num(struct script_call *c, int slot, long long v);
/* The queue's ten keys into the slots from first on (QUEUE_KEYS'
 * order), or ten more of the QUEUES run first. */
void script_set_queue(struct script_call *c, int first,
    const struct queue_keys *k);
void script_add_queue(struct script_call *c, int run,
    const struct queue_keys *k);

/*
 * The call's keys and arguments in the order the script reads them, its
 * counts filled, borrowed from c: *nkeys keys then the arguments, *argc
 * in all. Once a call. -1 when a value is missing, or runs that share a
 * count differ, or anything set failed.
 */
int script_call_argv(struct script_call *c, int *nkeys, int *argc,
    const char *const **argv, const size_t **lens);

#endif
