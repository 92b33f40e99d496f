/* qstore_reply.c: read the scripts' replies; see qstore_reply.h. */
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "qstore_draw.h"
#include "qstore_reply.h"
#include "text.h"

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

static int
state_of(const char *state)
{
	return strcmp(state, "paused") == 0 ? STATE_PAUSED :
	    strcmp(state, "closed") == 0 ? STATE_CLOSED : STATE_OPEN;
}

/* The queue's part of the reply, at index F_NOW + off onward. */
static int
facts_queue(const redisReply *r, int off, struct standing *s)
{
	struct queue_facts *q = &s->q;
	char mode[16], state[16], rate[32];
	long long v[4];

	if (elem_str(r, F_MODE + off, mode, sizeof mode) == -1 ||
	    elem_str(r, F_STATE + off, state, sizeof state) == -1 ||
	    elem_str(r, F_RATE + off, rate, sizeof rate) == -1 ||
	    elem_str(r, F_REDIRECT + off, s->redirect,
	    sizeof s->redirect) == -1 ||
	    elem_num(r, F_NOW + off, &q->now_ms) == -1 ||
	    elem_num(r, F_TICK + off, &q->last_tick_ms) == -1 ||
	    elem_num(r, F_OPENS_AT + off, &s->opens_at) == -1 ||
	    elem_num(r, F_PREQUEUE_FROM + off, &s->prequeue_from) == -1 ||
	    elem_num(r, F_ENTRANTS + off, &s->entrants) == -1)
		return -1;
	for (int i = 0; i < 4; i++)
		if (elem_num(r, F_BATCH + off + i, &v[i]) == -1)
			return -1;
	q->mode = strcmp(mode, "capacity") == 0 ? MODE_CAPACITY :
	    strcmp(mode, "passthrough") == 0 ? MODE_PASSTHROUGH : MODE_RATE;
	q->state = state_of(state);
	q->batch = (long)v[0], q->interval = (long)v[1];
	q->max_active = (long)v[2], q->active_ttl = (long)v[3];
	q->rate = strtod(rate, NULL);
	return 0;
}

static enum result
word_result(const char *w)
{
	return result_parse(w, strlen(w));
}

/*
 * The token's part: result, then (when r has more than a result and a
 * word) token, status, n and waiting. 1 when it had them, 0 when not.
 */
static int
facts_token(const redisReply *r, enum result *res, struct standing *s)
{
	char result[16], status[16];

	if (r->type != REDIS_REPLY_ARRAY || r->elements < 1 ||
	    elem_str(r, F_RESULT, result, sizeof result) == -1)
		return -1;
	*res = word_result(result);
	if (r->elements <= F_WAITING)
		return 0;	/* { 'gone' }, { 'left', 'active' }... */
	if (elem_str(r, F_TOKEN, s->token, sizeof s->token) == -1 ||
	    elem_str(r, F_STATUS, status, sizeof status) == -1 ||
	    elem_num(r, F_N, &s->n) == -1 ||
	    elem_num(r, F_WAITING, &s->waiting) == -1)
		return -1;
	s->active = strcmp(status, "active") == 0;
	s->prequeue = strcmp(status, "prequeue") == 0;
	return 1;
}

int
qreply_standing(const redisReply *r, enum result *res, struct standing *s)
{
	int rc;

	memset(s, 0, sizeof *s);
	*res = RESULT_ERROR;
	if ((rc = facts_token(r, res, s)) <= 0)
		return rc;
	if (r->elements < FACTS_FIELDS)
		return -1;
	return facts_queue(r, 0, s);
}

/* The full head's last fields: what the daemon may hold (qstore_held.h). */
static int
join_head_held(const redisReply *r, struct held_head *hh)
{
	return elem_str(r, JH_VER, hh->ver, sizeof hh->ver) == -1 ||
	    elem_num(r, JH_MAX_WAITING, &hh->max_waiting) == -1 ||
	    elem_num(r, JH_CLOSES_AT, &hh->closes_at_ms) == -1 ? -1 : 0;
}

/* The short head: the line, the clock, the last tick and the state. */
static int
join_head_short(const redisReply *r, struct standing *s)
{
	char state[16];

	if (elem_num(r, JS_WAITING, &s->waiting) == -1 || s->waiting < 0 ||
	    elem_num(r, JS_NOW, &s->q.now_ms) == -1 ||
	    elem_num(r, JS_TICK, &s->q.last_tick_ms) == -1 ||
	    elem_str(r, JS_STATE, state, sizeof state) == -1)
		return -1;
	s->q.state = state_of(state);
	return JOIN_HEAD_HELD;
}

int
qreply_join_head(const redisReply *r, struct standing *s,
    struct held_head *hh)
{
	memset(s, 0, sizeof *s);
	memset(hh, 0, sizeof *hh);
	if (r->type != REDIS_REPLY_ARRAY)
		return -1;
	if (r->elements == 0)
		return JOIN_HEAD_NO_QUEUE;
	if (r->elements == JS_FIELDS)
		return join_head_short(r, s);
	if (r->elements != JH_FIELDS)
		return -1;
	if (elem_num(r, 0, &s->waiting) == -1 || s->waiting < 0 ||
	    facts_queue(r, -F_WAITING, s) == -1 || join_head_held(r, hh) == -1)
		return -1;
	return JOIN_HEAD_FULL;
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

int
qreply_join_entry(const redisReply *r, const char *token, long long *line,
    enum result *res, struct standing *s)
{
	const char *p, *end;
	char word[16], status[16];

	*res = RESULT_ERROR;
	if (r->type != REDIS_REPLY_STRING)
		return -1;
	p = r->str, end = r->str + r->len;
	s->token[0] = '\0';
	s->active = s->prequeue = 0;
	s->n = s->waiting = 0;
	if (next_word(&p, end, word, sizeof word) == -1)
		return -1;
	*res = word_result(word);
	if (p == end && *res == RESULT_NEW) {
		/* A bare "new": token took the next place, behind *line. */
		if (strlen(token) >= sizeof s->token)
			return -1;
		text_copy(s->token, sizeof s->token, token);
		s->n = (*line)++;
		s->waiting = *line;
		return 0;
	}
	if (p == end)
		return 0;	/* 'full', 'closed', 'no_queue' */
	if (next_word(&p, end, s->token, sizeof s->token) == -1 ||
	    next_word(&p, end, status, sizeof status) == -1 ||
	    next_num(&p, end, &s->n) == -1 ||
	    next_num(&p, end, &s->waiting) == -1)
		return -1;
	s->active = strcmp(status, "active") == 0;
	s->prequeue = strcmp(status, "prequeue") == 0;
	return p == end ? 0 : -1;
}

int
qreply_ranks(const redisReply *r, size_t n, struct standing *s,
    const char **kinds, long long *values)
{
	const redisReply *k, *v;
	enum result res;

	if (qreply_standing(r, &res, s) == -1 || r->elements != RANKS_FIELDS ||
	    (k = r->element[RANKS_KINDS])->type != REDIS_REPLY_STRING ||
	    (v = r->element[RANKS_VALUES])->type != REDIS_REPLY_ARRAY ||
	    k->len != n || v->elements != n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v->element[i]->type != REDIS_REPLY_INTEGER)
			return -1;
		values[i] = v->element[i]->integer;
	}
	*kinds = k->str;
	return 0;
}

int
qreply_tick(const redisReply *r, struct tick_figures *t)
{
	long long v[TICK_RATE];
	char rate[32], *end;

	if (r->type != REDIS_REPLY_ARRAY || r->elements != TICK_FIELDS ||
	    elem_str(r, TICK_RATE, rate, sizeof rate) == -1 ||
	    elem_str(r, TICK_VER, t->ver, sizeof t->ver) == -1)
		return -1;
	t->rate = strtod(rate, &end);
	if (end == rate || *end != '\0')
		return -1;
	for (int i = 0; i < TICK_RATE; i++) {
		if (r->element[i]->type != REDIS_REPLY_INTEGER)
			return -1;
		v[i] = r->element[i]->integer;
	}
	t->expired = v[TICK_EXPIRED], t->abandoned = v[TICK_ABANDONED];
	t->admitted = v[TICK_ADMITTED], t->waiting = v[TICK_WAITING];
	t->full_ms = v[TICK_FULL];
	t->pow_bits = (int)v[TICK_POW_BITS], t->pow_ttl = v[TICK_POW_TTL];
	t->draw = (int)v[TICK_DRAW];
	return 0;
}

int
qreply_lookup(const redisReply *r, struct revoke_facts *f)
{
	if (r->type != REDIS_REPLY_ARRAY || r->elements != LOOKUP_FIELDS)
		return -1;
	f->revoked = r->element[LOOKUP_REVOKED]->type != REDIS_REPLY_NIL;
	f->dropped_ms = 0;
	if (r->element[LOOKUP_DROPPED]->type != REDIS_REPLY_NIL &&
	    (elem_num(r, LOOKUP_DROPPED, &f->dropped_ms) == -1 ||
	    f->dropped_ms <= 0))
		return -1;
	return 0;
}

enum result
qreply_renewal(const redisReply *r, struct renewal *rn)
{
	const char *w = qreply_str(r, 0);

	if (w == NULL)
		return RESULT_ERROR;
	if (strcmp(w, "renewed") != 0 && strcmp(w, "fixed") != 0) {
		enum result res = word_result(w);

		return res == RESULT_GONE || res == RESULT_NO_QUEUE ? res :
		    RESULT_ERROR;
	}
	if (r->elements != 2 || elem_num(r, 1, &rn->expiry_ms) == -1 ||
	    rn->expiry_ms <= 0)
		return RESULT_ERROR;
	rn->renews = w[0] == 'r';
	return RESULT_OK;
}

int
qreply_config(const redisReply *r, struct qconfig *c)
{
	c->n = 0;
	if (r->type != REDIS_REPLY_ARRAY || r->elements % 2 != 0)
		return -1;
	for (size_t i = 0; i + 1 < r->elements && c->n < QCONFIG_MAX; i += 2) {
		const redisReply *k = r->element[i], *v = r->element[i + 1];

		if (k->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING)
			continue;
		c->key[c->n] = k->str;
		c->value[c->n] = v->str;
		c->len[c->n++] = v->len;
	}
	return 0;
}

static int
is_int(const redisReply *e)
{
	return e->type == REDIS_REPLY_INTEGER;
}

int
qreply_figures(const redisReply *e, struct queue_figures *f)
{
	const redisReply *t;

	memset(f, 0, sizeof *f);
	if (e->type != REDIS_REPLY_ARRAY)
		return -1;
	if (e->elements == 0)
		return 0;
	if (e->elements != SHOW_FIELDS ||
	    qreply_config(e->element[SHOW_CONFIG], &f->config) == -1 ||
	    !is_int(e->element[SHOW_WAITING]) ||
	    !is_int(e->element[SHOW_ACTIVE]) ||
	    !is_int(e->element[SHOW_LAST_MINUTE]) ||
	    !is_int(e->element[SHOW_PREQUEUE]) ||
	    !is_int(e->element[SHOW_DRAW_MS]) ||
	    (t = e->element[SHOW_TOTALS])->type != REDIS_REPLY_ARRAY ||
	    t->elements != SHOW_NTOTALS)
		return -1;
	for (size_t i = 0; i < SHOW_NTOTALS; i++) {
		if (!is_int(t->element[i]))
			return -1;
		f->totals[i] = t->element[i]->integer;
	}
	f->exists = 1;
	f->waiting = e->element[SHOW_WAITING]->integer;
	f->active = e->element[SHOW_ACTIVE]->integer;
	f->last_minute = e->element[SHOW_LAST_MINUTE]->integer;
	f->prequeue = e->element[SHOW_PREQUEUE]->integer;
	f->draw_ms = e->element[SHOW_DRAW_MS]->integer;
	return 0;
}

enum result
qreply_first(const redisReply *r)
{
	const char *w = qreply_str(r, 0);

	return w ? word_result(w) : RESULT_ERROR;
}

const char *
qreply_str(const redisReply *r, size_t i)
{
	if (r->type != REDIS_REPLY_ARRAY || i >= r->elements ||
	    r->element[i]->type != REDIS_REPLY_STRING)
		return NULL;
	return r->element[i]->str;
}

/* ---- the draw ----------------------------------------------------------- */

static const char *const draw_kinds[] = {
	[QS_DRAW_BUSY] = "busy", [QS_DRAW_IDLE] = "idle",
	[QS_DRAW_HASH] = "hash", [QS_DRAW_MORE] = "more",
	[QS_DRAW_SUM] = "sum", [QS_DRAW_BYTES] = "bytes",
	[QS_DRAW_DRAWN] = "drawn",
};

static int
draw_hash(const redisReply *r, struct qs_draw_step *d, const char ***list)
{
	size_t n = (r->elements - 3) / 2;

	if (r->elements < 5 || (r->elements - 3) % 2 != 0 ||
	    (d->seed = qreply_str(r, 1)) == NULL ||
	    (d->beacon = qreply_str(r, 2)) == NULL ||
	    (*list = calloc(2 * n, sizeof **list)) == NULL)
		return -1;
	d->tokens = *list, d->scores = *list + n, d->n = n;
	for (size_t i = 0; i < n; i++)
		if ((d->tokens[i] = qreply_str(r, 3 + 2 * i)) == NULL ||
		    (d->scores[i] = qreply_str(r, 4 + 2 * i)) == NULL)
			return -1;
	return 0;
}

int
qreply_draw_step(const redisReply *r, struct qs_draw_step *d,
    const char ***list)
{
	const char *w = qreply_str(r, 0);
	size_t k;

	memset(d, 0, sizeof *d);
	*list = NULL;
	if (w == NULL)
		return -1;
	for (k = 0; k < sizeof draw_kinds / sizeof draw_kinds[0]; k++)
		if (strcmp(w, draw_kinds[k]) == 0)
			break;
	d->kind = (enum qs_draw_kind)k;
	switch (k) {
	case QS_DRAW_HASH:
		return draw_hash(r, d, list);
	case QS_DRAW_BYTES:
		if (r->elements != 2 ||
		    r->element[1]->type != REDIS_REPLY_STRING)
			return -1;
		d->bytes = r->element[1]->str, d->len = r->element[1]->len;
		return 0;
	case QS_DRAW_DRAWN:
		return r->elements == 4 && elem_num(r, 1, &d->entrants) == 0 &&
		    elem_num(r, 2, &d->started_ms) == 0 &&
		    elem_num(r, 3, &d->now_ms) == 0 ? 0 : -1;
	case QS_DRAW_MORE:
		if (r->elements != 3 ||
		    r->element[1]->type != REDIS_REPLY_STRING ||
		    elem_num(r, 2, &d->index) == -1)
			return -1;
		d->bytes = r->element[1]->str, d->len = r->element[1]->len;
		return 0;
	case QS_DRAW_SUM:
		return r->elements == 2 && elem_num(r, 1, &d->index) == 0 ?
		    0 : -1;
	case QS_DRAW_BUSY: case QS_DRAW_IDLE:
		return 0;
	}
	return -1;
}

/* A string element, or "" for a nil (an unset field). */
static const char *
str_or_empty(const redisReply *r, size_t i)
{
	const char *s = qreply_str(r, i);

	return s ? s : "";
}

int
qreply_draw_view(const redisReply *r, struct qs_draw_view *v)
{
	memset(v, 0, sizeof *v);
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 11 ||
	    elem_num(r, 3, &v->opens_at) == -1 ||
	    elem_num(r, 4, &v->entrants) == -1 ||
	    elem_num(r, 8, &v->drawn_at) == -1 ||
	    elem_num(r, 10, &v->ms) == -1 ||
	    (v->state = qreply_str(r, 1)) == NULL ||
	    (v->commit = qreply_str(r, 2)) == NULL)
		return -1;
	v->beacon_round = str_or_empty(r, 5);
	v->seed = str_or_empty(r, 6);
	v->beacon = str_or_empty(r, 7);
	v->order_sha256 = str_or_empty(r, 9);
	return 0;
}
