/* facts.c: read the shared script reply of lua/lib.lua's facts(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "facts.h"
#include "text.h"

enum {
	F_RESULT, F_TOKEN, F_STATUS, F_N, F_WAITING, F_NOW, F_TICK, F_RATE,
	F_MODE, F_STATE, F_BATCH, F_INTERVAL, F_MAX_ACTIVE, F_ACTIVE_TTL,
	F_REDIRECT, F_COUNT
};

static int
elem_str(const redisReply *r, int i, char *buf, size_t size)
{
	const redisReply *e = r->element[i];

	if (e->type != REDIS_REPLY_STRING && e->type != REDIS_REPLY_STATUS)
		return -1;
	if (e->len >= size)
		return -1;
	memcpy(buf, e->str, e->len);
	buf[e->len] = '\0';
	return 0;
}

/* An integer reply, or a string holding a decimal number. */
static int
elem_num(const redisReply *r, int i, long long *out)
{
	const redisReply *e = r->element[i];
	char buf[32], *end;

	if (e->type == REDIS_REPLY_INTEGER) {
		*out = e->integer;
		return 0;
	}
	if (elem_str(r, i, buf, sizeof buf) == -1)
		return -1;
	*out = strtoll(buf, &end, 10);
	return end == buf || *end != '\0' ? -1 : 0;
}

/* The queue's part of the reply, at index F_NOW + off onward. */
static int
facts_queue(const redisReply *r, int off, struct facts *f)
{
	struct queue_facts *q = &f->q;
	char mode[16], state[16], rate[32];
	long long v[4];

	if (elem_str(r, F_MODE + off, mode, sizeof mode) == -1 ||
	    elem_str(r, F_STATE + off, state, sizeof state) == -1 ||
	    elem_str(r, F_RATE + off, rate, sizeof rate) == -1 ||
	    elem_str(r, F_REDIRECT + off, f->redirect,
	    sizeof f->redirect) == -1 ||
	    elem_num(r, F_NOW + off, &q->now_ms) == -1 ||
	    elem_num(r, F_TICK + off, &q->last_tick_ms) == -1)
		return -1;
	for (int i = 0; i < 4; i++)
		if (elem_num(r, F_BATCH + off + i, &v[i]) == -1)
			return -1;
	q->mode = strcmp(mode, "capacity") == 0 ? MODE_CAPACITY : MODE_RATE;
	q->state = strcmp(state, "paused") == 0 ? STATE_PAUSED :
	    strcmp(state, "closed") == 0 ? STATE_CLOSED : STATE_OPEN;
	q->batch = (long)v[0], q->interval = (long)v[1];
	q->max_active = (long)v[2], q->active_ttl = (long)v[3];
	q->rate = strtod(rate, NULL);
	return 0;
}

/*
 * The token's part: result, then (when r has more than a result and a
 * word) token, status, n and waiting. 1 when it had them, 0 when not.
 */
static int
facts_token(const redisReply *r, struct facts *f)
{
	if (r->type != REDIS_REPLY_ARRAY || r->elements < 1 ||
	    elem_str(r, F_RESULT, f->result, sizeof f->result) == -1)
		return -1;
	f->token[0] = f->status[0] = '\0';
	f->n = f->waiting = 0;
	if (r->elements <= F_WAITING)
		return 0;	/* { 'gone' }, { 'left', 'active' }... */
	if (elem_str(r, F_TOKEN, f->token, sizeof f->token) == -1 ||
	    elem_str(r, F_STATUS, f->status, sizeof f->status) == -1 ||
	    elem_num(r, F_N, &f->n) == -1 ||
	    elem_num(r, F_WAITING, &f->waiting) == -1)
		return -1;
	return 1;
}

int
facts_parse(const redisReply *r, struct facts *f)
{
	int rc;

	memset(f, 0, sizeof *f);
	if ((rc = facts_token(r, f)) <= 0)
		return rc;
	if (r->elements < F_COUNT)
		return -1;
	return facts_queue(r, 0, f);
}

int
facts_parse_head(const redisReply *r, struct facts *f)
{
	memset(f, 0, sizeof *f);
	if (r->type != REDIS_REPLY_ARRAY)
		return -1;
	if (r->elements == 0)
		return 0;
	if (r->elements != F_COUNT - F_WAITING)
		return -1;
	if (elem_num(r, 0, &f->waiting) == -1 || f->waiting < 0)
		return -1;
	return facts_queue(r, -F_WAITING, f);
}

/*
 * The word at *s (words end at one space, or at end) into buf, and *s past
 * it; -1 when it is empty, too long, or the last one yet ends in a space.
 */
static int
next_word(const char **s, const char *end, char *buf, size_t size)
{
	const char *w = *s, *sp = memchr(w, ' ', (size_t)(end - w));
	size_t len = (size_t)((sp ? sp : end) - w);

	if (len == 0 || len >= size || (sp && sp + 1 == end))
		return -1;
	memcpy(buf, w, len);
	buf[len] = '\0';
	*s = sp ? sp + 1 : end;
	return 0;
}

static int
next_num(const char **s, const char *end, long long *out)
{
	char buf[32], *e;

	if (next_word(s, end, buf, sizeof buf) == -1)
		return -1;
	*out = strtoll(buf, &e, 10);
	return *e != '\0' ? -1 : 0;
}

/* A bare "new": token took the next place, behind *line others. */
static void
next_place(const char *token, long long *line, struct facts *f)
{
	text_copy(f->token, sizeof f->token, token);
	text_copy(f->status, sizeof f->status, "waiting");
	f->n = (*line)++;
	f->waiting = *line;
}

int
facts_parse_entry(const redisReply *r, const char *token, long long *line,
    struct facts *f)
{
	const char *s, *end;

	if (r->type != REDIS_REPLY_STRING)
		return -1;
	s = r->str, end = r->str + r->len;
	f->token[0] = f->status[0] = '\0';
	f->n = f->waiting = 0;
	if (next_word(&s, end, f->result, sizeof f->result) == -1)
		return -1;
	if (s == end && strcmp(f->result, "new") == 0) {
		if (strlen(token) >= sizeof f->token)
			return -1;
		next_place(token, line, f);
		return 0;
	}
	if (s == end)
		return 0;	/* 'full', 'closed', 'no_queue' */
	if (next_word(&s, end, f->token, sizeof f->token) == -1 ||
	    next_word(&s, end, f->status, sizeof f->status) == -1 ||
	    next_num(&s, end, &f->n) == -1 ||
	    next_num(&s, end, &f->waiting) == -1)
		return -1;
	return s == end ? 0 : -1;
}

void
facts_status(const struct facts *f, const char *queue,
    struct token_status *st)
{
	memset(st, 0, sizeof *st);
	st->queue = queue;
	st->token = f->token;
	st->waiting = f->waiting;
	if (strcmp(f->status, "active") == 0) {
		st->active = 1;
		st->active_until = f->n / 1000;
		st->redirect = f->redirect[0] ? f->redirect : NULL;
		return;
	}
	st->position = f->n + 1;
	st->eta_seconds = queue_eta(&f->q, st->position);
}
