/*
 * events.h: the messages of a queue's events channel (events.def), read
 * and written. Pure: the unit tests parse every producer's message.
 */
#ifndef WR_EVENTS_H
#define WR_EVENTS_H

#include <stddef.h>

enum event_kind {
#define EVENT(ID, word, arg, tokens, lua) EVENT_##ID,
#include "events.def"
#undef EVENT
	EVENT_KINDS
};

#define EVENT_ARG_MAX 32	/* an arg's bytes: a time in ms, a word */

/* A message read from a queue's events channel: its kind, its arg, and
 * the tokens still to read. */
struct queue_event {
	enum event_kind kind;
	char arg[EVENT_ARG_MAX];	/* "" for a kind without one */
	const char *next, *end;		/* the tokens left, in the message */
};

/* The word of kind, the name of its arg ("" for none), its tokens, and
 * whether the Lua scripts publish it. */
const char *event_word(enum event_kind kind);
const char *event_arg_name(enum event_kind kind);
int event_has_tokens(enum event_kind kind);
int event_by_lua(enum event_kind kind);

/*
 * msg (len bytes, borrowed until the tokens are read) into e; -1 when it
 * is not a message of events.def: an unknown word, a part missing or one
 * too many, an empty part.
 */
int event_parse(const char *msg, size_t len, struct queue_event *e);

/* The next token of e into tok; 1, 0 when none is left, -1 when one does
 * not fit in size bytes (it is skipped). */
int event_token(struct queue_event *e, char *tok, size_t size);

/*
 * kind's message into buf: arg (NULL for a kind without one) and n tokens
 * (none for a kind without them, else at least one). Its length, or -1
 * when it does not fit or the parts are not kind's.
 */
int event_format(char *buf, size_t size, enum event_kind kind,
    const char *arg, const char *const *tokens, size_t n);

#endif
