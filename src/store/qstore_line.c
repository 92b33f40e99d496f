/*
 * qstore_line.c: the queue store's call of line.lua; see qstore_line.h.
 */
#include <string.h>

#include "qstore_call.h"
#include "qstore_line.h"
#include "qstore_reply.h"

/* Field i, a string (possibly empty), borrowed into *p, *len. */
static int
line_bytes(const redisReply *r, size_t i, const unsigned char **p,
    size_t *len)
{
	const redisReply *e = r->element[i];

	if (e->type != REDIS_REPLY_STRING)
		return -1;
	*p = (const unsigned char *)e->str;
	*len = e->len;
	return 0;
}

/* The part of the line from field first on. */
static int
line_part(const redisReply *r, size_t first, struct qs_line_part *pt)
{
	long long exact;

	if (qreply_num(r, first, &pt->low) == -1 ||
	    qreply_num(r, first + 1, &pt->high) == -1 ||
	    qreply_num(r, first + 2, &pt->count) == -1 ||
	    qreply_num(r, first + 3, &exact) == -1)
		return -1;
	pt->exact = exact == 1;
	return 0;
}

static int
parse_line(const redisReply *r, struct qs_line *ln)
{
	enum result res;

	return qreply_standing(r, &res, &ln->s) == -1 ||
	    r->elements != LINE_FIELDS ||
	    line_part(r, LINE_D_LOW, &ln->d) == -1 ||
	    line_part(r, LINE_P_LOW, &ln->p) == -1 ||
	    line_part(r, LINE_T_LOW, &ln->t) == -1 ||
	    qreply_num(r, LINE_LINE_FROM, &ln->line_from) == -1 ||
	    qreply_num(r, LINE_PLACES_FROM, &ln->places_from) == -1 ||
	    line_bytes(r, LINE_LINE_BYTES, &ln->line, &ln->line_len) == -1 ||
	    line_bytes(r, LINE_PLACES_BYTES, &ln->places,
	    &ln->places_len) == -1 ? -1 : 0;
}

static void
read_line(struct qcall *c, enum result r, const redisReply *rp)
{
	struct qs_line ln;

	memset(&ln, 0, sizeof ln);
	if (r == RESULT_OK && qreply_first(rp) == RESULT_NO_QUEUE)
		r = RESULT_NO_QUEUE;
	else if (r == RESULT_OK && parse_line(rp, &ln) == -1)
		r = qcall_misshaped(c);
	((qs_line_cb *)c->cb)(r, &ln, c->arg);
}

int
qstore_line(struct qstore *qs, const char *queue, long long line_to,
    long long places_to, size_t n, const char *const *marks,
    qs_line_cb *cb, void *arg)
{
	struct script_call *sc;

	if (n > QSTORE_LINE_MARKS)
		return -1;
	sc = qcall_script(qs, LUA_LINE, queue, LINE_K_CONFIG, NULL);
	if (sc != NULL) {
		script_set_num(sc, LINE_A_LINE_TO, line_to);
		script_set_num(sc, LINE_A_PLACES_TO, places_to);
	}
	for (size_t i = 0; sc != NULL && i < n; i++)
		script_add(sc, LINE_A_MARKS, marks[i]);
	return qcall_eval(qs, qcall_new(qs, read_line, cb, arg, "line", queue),
	    sc);
}
