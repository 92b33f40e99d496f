/*
 * qstore_reply.c: read the scripts' replies, field by field as scripts.def
 * names them; see qstore_reply.h.
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "qstore_reply.h"
#include "text.h"

/* Field i, a string or a status, into buf; -1 when not, or too long. */
static int
field_text(const redisReply *r, size_t i, char *buf, size_t size)
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

/* A decimal number, whole: -1 when s is anything else. */
static int
decimal_whole(const char *s, long long *out)
{
	char *end;

	*out = strtoll(s, &end, 10);
	return end == s || *end != '\0' ? -1 : 0;
}

int
qreply_num(const redisReply *r, size_t i, long long *out)
{
	char buf[32];

	if (r->type != REDIS_REPLY_ARRAY || i >= r->elements)
		return -1;
	if (r->element[i]->type == REDIS_REPLY_INTEGER) {
		*out = r->element[i]->integer;
		return 0;
	}
	if (field_text(r, i, buf, sizeof buf) == -1)
		return -1;
	return decimal_whole(buf, out);
}

/* A state or a mode as the scripts write it; an unknown word reads as
 * the default. */
static int
state_of(const char *state)
{
	int s = conf_state_by_name(state);

	return s < 0 ? STATE_OPEN : s;
}

static int
mode_of(const char *mode)
{
	int m = conf_mode_by_name(mode);

	return m < 0 ? MODE_RATE : m;
}

/* The queue's facts (shape QUEUE_FACTS), which start at field at of r. */
static int
facts_queue(const redisReply *r, size_t at, struct standing *s)
{
	struct queue_facts *q = &s->q;
	char mode[16], state[16], rate[32];
	long long batch, interval, max_active, active_ttl, waiting_ttl;

	if (r->elements < at + QUEUE_FACTS_FIELDS ||
	    field_text(r, at + QUEUE_FACTS_MODE, mode, sizeof mode) == -1 ||
	    field_text(r, at + QUEUE_FACTS_STATE, state, sizeof state) == -1 ||
	    field_text(r, at + QUEUE_FACTS_RATE, rate, sizeof rate) == -1 ||
	    field_text(r, at + QUEUE_FACTS_REDIRECT, s->redirect,
	    sizeof s->redirect) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_NOW_MS, &q->now_ms) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_LAST_TICK_MS,
	    &q->last_tick_ms) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_OPENS_AT, &s->opens_at) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_PREQUEUE_FROM,
	    &s->prequeue_from) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_ENTRANTS, &s->entrants) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_BATCH, &batch) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_INTERVAL, &interval) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_MAX_ACTIVE, &max_active) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_ACTIVE_TTL, &active_ttl) == -1 ||
	    qreply_num(r, at + QUEUE_FACTS_WAITING_TTL, &waiting_ttl) == -1)
		return -1;
	q->mode = mode_of(mode);
	q->state = state_of(state);
	q->batch = (long)batch, q->interval = (long)interval;
	q->max_active = (long)max_active, q->active_ttl = (long)active_ttl;
	q->waiting_ttl = (long)waiting_ttl;
	q->rate = strtod(rate, NULL);
	return 0;
}

/* The ETA's facts (shape ETA_FACTS, lib.lua's eta_facts()), which start
 * at field at of r. */
static int
facts_eta(const redisReply *r, size_t at, struct queue_facts *q)
{
	char keep[32], ends[ETA_ENDS_MAX * 16], band[64], ages[80];

	if (r->elements < at + ETA_FACTS_FIELDS ||
	    field_text(r, at + ETA_FACTS_KEEP, keep, sizeof keep) == -1 ||
	    qreply_num(r, at + ETA_FACTS_ACTIVE, &q->active) == -1 ||
	    field_text(r, at + ETA_FACTS_ENDS, ends, sizeof ends) == -1 ||
	    qreply_num(r, at + ETA_FACTS_LAST_END, &q->last_end) == -1 ||
	    field_text(r, at + ETA_FACTS_BAND, band, sizeof band) == -1 ||
	    qreply_num(r, at + ETA_FACTS_EARLY, &q->early) == -1 ||
	    qreply_num(r, at + ETA_FACTS_ENDED_MS, &q->ended_ms) == -1 ||
	    qreply_num(r, at + ETA_FACTS_LEAVERS, &q->leavers) == -1 ||
	    field_text(r, at + ETA_FACTS_AGES, ages, sizeof ages) == -1 ||
	    eta_ends_parse(q, ends) == -1 || eta_band_parse(q, band) == -1 ||
	    eta_ages_parse(q, ages) == -1)
		return -1;
	q->keep = strtod(keep, NULL);
	if (q->last_end > 0)		/* unix ms, as the ends */
		q->last_end = q->last_end > q->now_ms ?
		    q->last_end - q->now_ms : 0;
	return 0;
}

static enum result
word_result(const char *w)
{
	return result_parse(w, strlen(w));
}

/* The token's status word into s. */
static void
token_status(struct standing *s, const char *status)
{
	s->active = strcmp(status, "active") == 0;
	s->prequeue = strcmp(status, "prequeue") == 0;
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
	    field_text(r, FACTS_RESULT, result, sizeof result) == -1)
		return -1;
	*res = word_result(result);
	if (r->elements <= FACTS_WAITING)
		return 0;	/* { 'gone' }, { 'left', 'active' }... */
	if (field_text(r, FACTS_TOKEN, s->token, sizeof s->token) == -1 ||
	    field_text(r, FACTS_STATUS, status, sizeof status) == -1 ||
	    qreply_num(r, FACTS_N, &s->n) == -1 ||
	    qreply_num(r, FACTS_WAITING, &s->waiting) == -1)
		return -1;
	token_status(s, status);
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
	s->q.line = s->waiting;
	return facts_queue(r, FACTS_NOW_MS, s) == -1 ||
	    facts_eta(r, FACTS_KEEP, &s->q) == -1 ? -1 : 0;
}

int
qreply_summary(const redisReply *r, enum result *res, struct standing *s)
{
	if (qreply_standing(r, res, s) == -1)
		return -1;
	if (r->elements == 1)		/* { 'no_queue' } */
		return 0;
	return r->elements != SUMMARY_FIELDS ||
	    qreply_num(r, SUMMARY_FAIL_OPEN_UNTIL, &s->fail_open_until) == -1 ?
	    -1 : 0;
}

/* The full head's last fields: what the daemon may hold (qstore_held.h). */
static int
join_head_held(const redisReply *r, struct held_head *hh)
{
	return field_text(r, JOIN_HEAD_HELD_VER, hh->ver, sizeof hh->ver) ==
	    -1 || qreply_num(r, JOIN_HEAD_MAX_WAITING, &hh->max_waiting) == -1 ||
	    qreply_num(r, JOIN_HEAD_CLOSES_AT_MS, &hh->closes_at_ms) == -1 ?
	    -1 : 0;
}

/* The short head: the line, the clock, the last tick and the state. */
static int
join_head_short(const redisReply *r, struct standing *s)
{
	char state[16], band[64], ages[80];

	if (qreply_num(r, JOIN_SHORT_WAITING, &s->waiting) == -1 ||
	    s->waiting < 0 ||
	    qreply_num(r, JOIN_SHORT_NOW_MS, &s->q.now_ms) == -1 ||
	    qreply_num(r, JOIN_SHORT_LAST_TICK_MS, &s->q.last_tick_ms) == -1 ||
	    field_text(r, JOIN_SHORT_STATE, state, sizeof state) == -1 ||
	    field_text(r, JOIN_SHORT_BAND, band, sizeof band) == -1 ||
	    eta_band_parse(&s->q, band) == -1 ||
	    field_text(r, JOIN_SHORT_AGES, ages, sizeof ages) == -1 ||
	    eta_ages_parse(&s->q, ages) == -1)
		return -1;
	s->q.state = state_of(state);
	s->q.line = s->waiting;
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
	if (r->elements == JOIN_SHORT_FIELDS)
		return join_head_short(r, s);
	if (r->elements != JOIN_HEAD_FIELDS)
		return -1;
	if (qreply_num(r, JOIN_HEAD_WAITING, &s->waiting) == -1 ||
	    s->waiting < 0 || facts_queue(r, JOIN_HEAD_NOW_MS, s) == -1 ||
	    facts_eta(r, JOIN_HEAD_KEEP, &s->q) == -1 ||
	    join_head_held(r, hh) == -1)
		return -1;
	s->q.line = s->waiting;
	return JOIN_HEAD_FULL;
}

#define WORD_MAX 40	/* a token's 36 and one more: too long */

/*
 * The words of s (len bytes) into w[0 .. max - 1], split at single spaces: how many, or -1 when a word is empty
 * or too long, or there are more than max.
 */
static int
words(const char *s, size_t len, char (*w)[WORD_MAX], int max)
{
	const char *end = s + len, *sp;
	int n = 0;

	for (; n < max; n++) {
		size_t wl;

		sp = memchr(s, ' ', (size_t)(end - s));
		wl = (size_t)((sp ? sp : end) - s);
		if (wl == 0 || wl >= sizeof w[n])
			return -1;
		memcpy(w[n], s, wl);
		w[n][wl] = '\0';
		if (sp == NULL)
			return n + 1;
		s = sp + 1;
	}
	return -1;
}

int
qreply_join_entry(const redisReply *r, const char *token, long long *line,
    enum result *res, struct standing *s)
{
	char w[JOIN_ENTRY_FIELDS][WORD_MAX];
	int n;

	*res = RESULT_ERROR;
	if (r->type != REDIS_REPLY_STRING ||
	    (n = words(r->str, r->len, w, JOIN_ENTRY_FIELDS)) == -1 ||
	    (n != 1 && n != JOIN_ENTRY_FIELDS) ||
	    strlen(w[JOIN_ENTRY_RESULT]) >= 16 ||
	    (n > 1 && strlen(w[JOIN_ENTRY_STATUS]) >= 16))
		return -1;
	s->token[0] = '\0';
	s->active = s->prequeue = 0;
	s->n = s->waiting = 0;
	*res = word_result(w[JOIN_ENTRY_RESULT]);
	if (n == 1 && *res == RESULT_NEW) {
		/* A bare "new": token took the next place, behind *line. */
		if (strlen(token) >= sizeof s->token)
			return -1;
		text_copy(s->token, sizeof s->token, token);
		s->n = (*line)++;
		s->waiting = *line;
		return 0;
	}
	if (n == 1)
		return 0;	/* 'full', 'closed', 'no_queue' */
	if (strlen(w[JOIN_ENTRY_TOKEN]) >= sizeof s->token ||
	    decimal_whole(w[JOIN_ENTRY_N], &s->n) == -1 ||
	    decimal_whole(w[JOIN_ENTRY_WAITING], &s->waiting) == -1)
		return -1;
	text_copy(s->token, sizeof s->token, w[JOIN_ENTRY_TOKEN]);
	token_status(s, w[JOIN_ENTRY_STATUS]);
	return 0;
}

/* The n integers of array a into out. */
static int
int_array(const redisReply *a, size_t n, long long *out)
{
	if (a->type != REDIS_REPLY_ARRAY || a->elements != n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (a->element[i]->type != REDIS_REPLY_INTEGER)
			return -1;
		out[i] = a->element[i]->integer;
	}
	return 0;
}

int
qreply_ranks(const redisReply *r, size_t n, struct standing *s,
    const char **kinds, long long *values, long long *lines)
{
	const redisReply *k;
	enum result res;

	if (qreply_standing(r, &res, s) == -1 || r->elements != RANKS_FIELDS ||
	    (k = r->element[RANKS_KINDS])->type != REDIS_REPLY_STRING ||
	    k->len != n ||
	    int_array(r->element[RANKS_VALUES], n, values) == -1 ||
	    int_array(r->element[RANKS_LINES], n, lines) == -1)
		return -1;
	*kinds = k->str;
	return 0;
}

/* Field i, which must be an integer. */
static int
field_int(const redisReply *r, size_t i, long long *out)
{
	if (r->element[i]->type != REDIS_REPLY_INTEGER)
		return -1;
	*out = r->element[i]->integer;
	return 0;
}

int
qreply_tick(const redisReply *r, struct tick_figures *t)
{
	long long bits, draw;
	char rate[32], *end;

	if (r->type != REDIS_REPLY_ARRAY || r->elements != TICK_FIELDS ||
	    field_text(r, TICK_RATE, rate, sizeof rate) == -1 ||
	    field_text(r, TICK_VER, t->ver, sizeof t->ver) == -1 ||
	    field_int(r, TICK_EXPIRED, &t->expired) == -1 ||
	    field_int(r, TICK_ABANDONED, &t->abandoned) == -1 ||
	    field_int(r, TICK_ADMITTED, &t->admitted) == -1 ||
	    field_int(r, TICK_WAITING, &t->waiting) == -1 ||
	    field_int(r, TICK_FULL, &t->full_ms) == -1 ||
	    field_int(r, TICK_POW_BITS, &bits) == -1 ||
	    field_int(r, TICK_POW_TTL, &t->pow_ttl) == -1 ||
	    field_int(r, TICK_DRAW, &draw) == -1 ||
	    field_text(r, TICK_NOTICE, t->notice, sizeof t->notice) == -1 ||
	    field_int(r, TICK_FAIL_OPEN_UNTIL, &t->fail_open_until) == -1 ||
	    field_int(r, TICK_NOSHOWS, &t->noshows) == -1 ||
	    field_int(r, TICK_DRAW_IN, &t->draw_in) == -1)
		return -1;
	t->pow_bits = (int)bits, t->draw = (int)draw;
	t->rate = strtod(rate, &end);
	return end == rate || *end != '\0' ? -1 : 0;
}

int
qreply_lookup(const redisReply *r, struct revoke_facts *f)
{
	if (r->type != REDIS_REPLY_ARRAY || r->elements != LOOKUP_FIELDS)
		return -1;
	f->revoked = r->element[LOOKUP_REVOKED]->type != REDIS_REPLY_NIL;
	f->dropped_ms = 0;
	if (r->element[LOOKUP_DROPPED]->type != REDIS_REPLY_NIL &&
	    (qreply_num(r, LOOKUP_DROPPED, &f->dropped_ms) == -1 ||
	    f->dropped_ms <= 0))
		return -1;
	return 0;
}

enum result
qreply_renewal(const redisReply *r, struct renewal *rn)
{
	const char *w = qreply_str(r, RENEWAL_RESULT);

	if (w == NULL)
		return RESULT_ERROR;
	if (strcmp(w, "renewed") != 0 && strcmp(w, "fixed") != 0) {
		enum result res = word_result(w);

		return res == RESULT_GONE || res == RESULT_NO_QUEUE ? res :
		    RESULT_ERROR;
	}
	if (r->elements != RENEWAL_FIELDS ||
	    qreply_num(r, RENEWAL_EXPIRY_MS, &rn->expiry_ms) == -1 ||
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
	    field_int(e, SHOW_WAITING, &f->waiting) == -1 ||
	    field_int(e, SHOW_ACTIVE, &f->active) == -1 ||
	    field_int(e, SHOW_LAST_MINUTE, &f->last_minute) == -1 ||
	    field_int(e, SHOW_PREQUEUE, &f->prequeue) == -1 ||
	    field_int(e, SHOW_DRAW_MS, &f->draw_ms) == -1 ||
	    field_int(e, SHOW_ETA_NEW, &f->eta_new) == -1 ||
	    (t = e->element[SHOW_TOTALS])->type != REDIS_REPLY_ARRAY ||
	    t->elements != TOTALS_FIELDS)
		return -1;
	for (size_t i = 0; i < TOTALS_FIELDS; i++)
		if (field_int(t, i, &f->totals[i]) == -1)
			return -1;
	/* HMGET's: a bucket never touched is nil, 0 */
	if ((t = e->element[SHOW_WAIT])->type != REDIS_REPLY_ARRAY ||
	    t->elements != SHOW_NWAIT)
		return -1;
	for (size_t i = 0; i < SHOW_NWAIT; i++)
		if (t->element[i]->type != REDIS_REPLY_NIL &&
		    qreply_num(t, i, &f->wait[i]) == -1)
			return -1;
	f->exists = 1;
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

int
qreply_info(const redisReply *r, const char *field, long long *out)
{
	size_t n = strlen(field);
	const char *p, *end, *eol;
	char buf[32];

	if (r->type != REDIS_REPLY_STRING)
		return -1;
	for (p = r->str, end = r->str + r->len; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if ((size_t)(eol - p) > n && memcmp(p, field, n) == 0 &&
		    p[n] == ':') {
			size_t len = (size_t)(eol - p) - n - 1;

			if (len > 0 && p[n + len] == '\r')
				len--;
			if (len >= sizeof buf)
				return -1;
			memcpy(buf, p + n + 1, len);
			buf[len] = '\0';
			return decimal_whole(buf, out);
		}
	}
	return -1;
}

/* ---- the console (room_read.lua, room_history.lua) ---------------------- */

void
qreply_room_free(struct room_read *rr)
{
	for (size_t i = 0; i < rr->ninstances; i++)
		free(rr->instances[i].report);
	free(rr->instances);
	free(rr->queues);
}

/* A number the script answered as an integer or as text. */
static int
read_num(const redisReply *r, size_t i, long long *out)
{
	const char *s = qreply_str(r, i);
	char *end;

	if (r->element[i]->type == REDIS_REPLY_INTEGER) {
		*out = r->element[i]->integer;
		return 0;
	}
	if (s == NULL)
		return -1;
	*out = strtoll(s, &end, 10);
	return end == s ? -1 : 0;
}

static int
read_instances(const redisReply *a, struct room_read *rr)
{
	if (a->type != REDIS_REPLY_ARRAY)
		return -1;
	if ((rr->instances = calloc(a->elements ? a->elements : 1,
	    sizeof *rr->instances)) == NULL)
		return -1;
	for (size_t i = 0; i < a->elements; i++) {
		const redisReply *e = a->element[i];
		struct room_instance *in = &rr->instances[rr->ninstances];
		const char *rep;

		if (e->type != REDIS_REPLY_ARRAY ||
		    e->elements != INSTANCE_FIELDS ||
		    (rep = qreply_str(e, INSTANCE_REPORT)) == NULL ||
		    read_num(e, INSTANCE_SEEN_MS, &in->seen_ms) == -1)
			return -1;
		if ((in->report = strdup(rep)) == NULL)
			return -1;
		rr->ninstances++;
	}
	return 0;
}

static int
read_redis(const redisReply *a, struct room_read *rr)
{
	const char *role;

	if (a->type != REDIS_REPLY_ARRAY || a->elements != ROOM_REDIS_FIELDS ||
	    read_num(a, ROOM_REDIS_USED_MEMORY, &rr->used_memory) == -1 ||
	    read_num(a, ROOM_REDIS_MAXMEMORY, &rr->maxmemory) == -1 ||
	    (role = qreply_str(a, ROOM_REDIS_ROLE)) == NULL)
		return -1;
	snprintf(rr->role, sizeof rr->role, "%s", role);
	return 0;
}

static int
read_waits(const redisReply *a, struct room_queue *q)
{
	if (a->type != REDIS_REPLY_ARRAY)
		return -1;
	for (size_t i = 0; i < a->elements && q->nwaits < ROOM_WAITS_MAX;
	    i++) {
		struct room_wait *w = &q->waits[q->nwaits];
		const char *s = qreply_str(a, i);

		if (s && sscanf(s, "%lld %lld %lld %lld", &w->at_ms,
		    &w->first_ms, &w->last_ms, &w->count) == 4)
			q->nwaits++;
	}
	return 0;
}

static int
read_conf(const redisReply *a, struct room_conf *c)
{
	const char *mode, *state;
	long long held;

	if (a->type != REDIS_REPLY_ARRAY || a->elements != ROOM_FACTS_FIELDS ||
	    (mode = qreply_str(a, ROOM_FACTS_MODE)) == NULL ||
	    (state = qreply_str(a, ROOM_FACTS_STATE)) == NULL ||
	    read_num(a, ROOM_FACTS_BATCH, &c->batch) == -1 ||
	    read_num(a, ROOM_FACTS_INTERVAL, &c->interval) == -1 ||
	    read_num(a, ROOM_FACTS_MAX_ACTIVE, &c->max_active) == -1 ||
	    read_num(a, ROOM_FACTS_ACTIVE_TTL, &c->active_ttl) == -1 ||
	    read_num(a, ROOM_FACTS_OPENS_AT, &c->opens_at) == -1 ||
	    read_num(a, ROOM_FACTS_CLOSES_AT, &c->closes_at) == -1 ||
	    read_num(a, ROOM_FACTS_HELD, &held) == -1)
		return -1;
	snprintf(c->mode, sizeof c->mode, "%s", mode);
	snprintf(c->state, sizeof c->state, "%s", state);
	c->held = held != 0;
	return 0;
}

static int
read_queue(const redisReply *e, long long now_ms, struct room_queue *q)
{
	const char *rate;
	const redisReply *eta;

	if (e->type != REDIS_REPLY_ARRAY)
		return -1;
	if (e->elements == 0)
		return 0;	/* no such queue: f.exists stays 0 */
	if (e->elements != ROOM_QUEUE_FIELDS ||
	    (rate = qreply_str(e, ROOM_QUEUE_RATE)) == NULL ||
	    read_num(e, ROOM_QUEUE_LAST_TICK_MS, &q->last_tick_ms) == -1 ||
	    read_waits(e->element[ROOM_QUEUE_WAITS], q) == -1 ||
	    read_conf(e->element[ROOM_QUEUE_FACTS], &q->c) == -1 ||
	    qreply_figures(e->element[ROOM_QUEUE_SHOW], &q->f) == -1 ||
	    (eta = e->element[ROOM_QUEUE_ETA])->type != REDIS_REPLY_ARRAY)
		return -1;
	q->eta.now_ms = now_ms;
	if (facts_eta(eta, 0, &q->eta) == -1)
		return -1;
	q->rate = strtod(rate, NULL);
	q->eta.mode = mode_of(q->c.mode), q->eta.state = state_of(q->c.state);
	q->eta.batch = (long)q->c.batch, q->eta.interval = (long)q->c.interval;
	q->eta.max_active = (long)q->c.max_active;
	q->eta.active_ttl = (long)q->c.active_ttl;
	q->eta.rate = q->rate, q->eta.last_tick_ms = q->last_tick_ms;
	return 0;
}

int
qreply_room(const redisReply *rp, size_t n, struct room_read *rr)
{
	const redisReply *qs;

	if (rp->type != REDIS_REPLY_ARRAY || rp->elements != ROOM_FIELDS ||
	    read_num(rp, ROOM_NOW_MS, &rr->now_ms) == -1 ||
	    read_instances(rp->element[ROOM_INSTANCES], rr) == -1 ||
	    read_redis(rp->element[ROOM_REDIS], rr) == -1 ||
	    (qs = rp->element[ROOM_QUEUES])->type != REDIS_REPLY_ARRAY ||
	    qs->elements != n ||
	    (rr->queues = calloc(n ? n : 1, sizeof *rr->queues)) == NULL)
		return -1;
	rr->nqueues = n;
	for (size_t i = 0; i < n; i++)
		if (read_queue(qs->element[i], rr->now_ms, &rr->queues[i]) ==
		    -1)
			memset(&rr->queues[i], 0, sizeof rr->queues[i]);
	return 0;
}

int
qreply_series(const redisReply *a, struct room_series *s)
{
	if (a->type != REDIS_REPLY_ARRAY || (s->samples = calloc(a->elements ?
	    a->elements : 1, sizeof *s->samples)) == NULL)
		return -1;
	for (size_t i = 0; i < a->elements; i++) {
		struct room_sample *p = &s->samples[s->n];
		const char *t = qreply_str(a, i);

		if (t && sscanf(t, "{\"t\":%lld,\"joined\":%lld,\"admitted\":"
		    "%lld,\"waiting\":%lld,\"active\":%lld}", &p->t, &p->joined,
		    &p->admitted, &p->waiting, &p->active) == 5)
			s->n++;
	}
	return 0;
}
