/* figures.c: read admin_show.lua's entry of one queue; see figures.h. */
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "figures.h"

static const char *const total_names[FIGURES_NTOTALS] = { "joined",
    "admitted", "expired", "left", "abandoned", "removed" };

static int
is_int(const redisReply *e)
{
	return e->type == REDIS_REPLY_INTEGER;
}

int
figures_parse(const redisReply *e, struct figures *f)
{
	const redisReply *t;

	memset(f, 0, sizeof *f);
	if (e->type != REDIS_REPLY_ARRAY)
		return -1;
	if (e->elements == 0)
		return 0;
	if (e->elements != 5 || e->element[0]->type != REDIS_REPLY_ARRAY ||
	    e->element[0]->elements % 2 != 0 || !is_int(e->element[1]) ||
	    !is_int(e->element[2]) || !is_int(e->element[4]) ||
	    (t = e->element[3])->type != REDIS_REPLY_ARRAY ||
	    t->elements != FIGURES_NTOTALS)
		return -1;
	for (size_t i = 0; i < FIGURES_NTOTALS; i++) {
		if (!is_int(t->element[i]))
			return -1;
		f->totals[i] = t->element[i]->integer;
	}
	f->exists = 1;
	f->config = e->element[0];
	f->waiting = e->element[1]->integer;
	f->active = e->element[2]->integer;
	f->last_minute = e->element[4]->integer;
	return 0;
}

const char *
figures_config(const struct figures *f, const char *field)
{
	const redisReply *c = f->config;

	for (size_t i = 0; c && i + 1 < c->elements; i += 2)
		if (c->element[i]->type == REDIS_REPLY_STRING &&
		    c->element[i + 1]->type == REDIS_REPLY_STRING &&
		    strcmp(c->element[i]->str, field) == 0)
			return c->element[i + 1]->str;
	return NULL;
}

json_t *
figures_config_json(const redisReply *pairs)
{
	json_t *j = json_object();

	for (size_t i = 0; j && i + 1 < pairs->elements; i += 2) {
		const redisReply *k = pairs->element[i], *v = pairs->element[i + 1];
		enum conf_key_kind kind;

		if (k->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING)
			continue;
		kind = conf_queue_key_kind(k->str);
		if (kind == CONF_SHARED_INT)
			json_object_set_new(j, k->str,
			    json_integer(strtoll(v->str, NULL, 10)));
		else if (kind == CONF_SHARED_TEXT)
			json_object_set_new(j, k->str, v->len == 0 ?
			    json_null() : json_string(v->str));
	}
	return j;
}

json_t *
figures_json(const struct figures *f, const char *queue, size_t streams)
{
	const char *state = figures_config(f, "state");
	json_t *totals = json_object();

	for (size_t i = 0; totals && i < FIGURES_NTOTALS; i++)
		json_object_set_new(totals, total_names[i],
		    json_integer(f->totals[i]));
	return json_pack("{s:s,s:s,s:o,s:I,s:I,s:o,s:I,s:I}", "queue", queue,
	    "state", state ? state : "open", "config",
	    figures_config_json(f->config), "waiting", (json_int_t)f->waiting,
	    "active", (json_int_t)f->active, "totals", totals,
	    "admitted_last_minute", (json_int_t)f->last_minute,
	    "streams", (json_int_t)streams);
}
