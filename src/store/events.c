/* events.c: the events channel's messages; see events.h and events.def. */
#include <string.h>

#include "events.h"

static const struct {
	const char *word, *arg;
	int tokens, lua;
} kinds[EVENT_KINDS] = {
#define EVENT(ID, word, arg, tokens, lua) \
	[EVENT_##ID] = { #word, #arg, tokens, lua },
#include "events.def"
#undef EVENT
};

const char *
event_word(enum event_kind kind)
{
	return (unsigned)kind < EVENT_KINDS ? kinds[kind].word : "";
}

const char *
event_arg_name(enum event_kind kind)
{
	return (unsigned)kind < EVENT_KINDS ? kinds[kind].arg : "";
}

int
event_has_tokens(enum event_kind kind)
{
	return (unsigned)kind < EVENT_KINDS && kinds[kind].tokens;
}

int
event_by_lua(enum event_kind kind)
{
	return (unsigned)kind < EVENT_KINDS && kinds[kind].lua;
}

/* The part at *p up to the next space or end, and *p past that space. */
static size_t
part(const char **p, const char *end, const char **at)
{
	const char *sp = memchr(*p, ' ', (size_t)(end - *p));

	*at = *p;
	*p = sp ? sp + 1 : end;
	return (size_t)((sp ? sp : end) - *at);
}

int
event_parse(const char *msg, size_t len, struct queue_event *e)
{
	const char *p = msg, *end = msg + len, *w;
	size_t n;
	int k;

	/* Parts split by single spaces, none empty. */
	if (len == 0 || msg[0] == ' ' || end[-1] == ' ' ||
	    memmem(msg, len, "  ", 2) != NULL)
		return -1;
	n = part(&p, end, &w);
	for (k = 0; k < EVENT_KINDS; k++)
		if (strlen(kinds[k].word) == n && memcmp(kinds[k].word, w,
		    n) == 0)
			break;
	if (k == EVENT_KINDS)
		return -1;
	e->kind = (enum event_kind)k;
	e->arg[0] = '\0';
	if (kinds[k].arg[0] != '\0') {
		if (p == end || (n = part(&p, end, &w)) >= sizeof e->arg)
			return -1;
		memcpy(e->arg, w, n);
		e->arg[n] = '\0';
	}
	e->next = p, e->end = end;
	return (p < end) == (kinds[k].tokens != 0) ? 0 : -1;
}

int
event_token(struct queue_event *e, char *tok, size_t size)
{
	const char *w;
	size_t n;

	if (e->next >= e->end)
		return 0;
	n = part(&e->next, e->end, &w);
	if (n >= size)
		return -1;
	memcpy(tok, w, n);
	tok[n] = '\0';
	return 1;
}

/* s and a space (last: no space) at buf + *at; -1 when it does not fit. */
static int
add(char *buf, size_t size, size_t *at, const char *s, int last)
{
	size_t n = strlen(s);

	if (n == 0 || *at + n + 1 > size)
		return -1;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[(*at)++] = last ? '\0' : ' ';
	return 0;
}

int
event_format(char *buf, size_t size, enum event_kind kind, const char *arg,
    const char *const *tokens, size_t n)
{
	size_t at = 0;

	if ((unsigned)kind >= EVENT_KINDS ||
	    (arg != NULL) != (kinds[kind].arg[0] != '\0') ||
	    (n > 0) != (kinds[kind].tokens != 0) ||
	    add(buf, size, &at, kinds[kind].word, arg == NULL && n == 0) ==
	    -1 || (arg && add(buf, size, &at, arg, n == 0) == -1))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (add(buf, size, &at, tokens[i], i + 1 == n) == -1)
			return -1;
	return (int)at - 1;
}
