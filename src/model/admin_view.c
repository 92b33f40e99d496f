/* admin_view.c: a queue's figures as the admin API's JSON; see admin_view.h. */
#include <stdlib.h>
#include <string.h>

#include "admin_view.h"
#include "conf.h"

static const char *const total_names[SHOW_NTOTALS] = { "joined",
    "admitted", "expired", "left", "abandoned", "removed", "noshows" };

const char *
admin_view_field(const struct qconfig *c, const char *field)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->key[i], field) == 0)
			return c->value[i];
	return NULL;
}

json_t *
admin_view_config(const struct qconfig *c)
{
	json_t *j = json_object();

	for (size_t i = 0; j && i < c->n; i++) {
		enum conf_key_kind kind = conf_queue_key_kind(c->key[i]);

		if (kind == CONF_SHARED_INT)
			json_object_set_new(j, c->key[i],
			    json_integer(strtoll(c->value[i], NULL, 10)));
		else if (kind == CONF_SHARED_TEXT)
			json_object_set_new(j, c->key[i], c->len[i] == 0 ?
			    json_null() : json_string(c->value[i]));
	}
	return j;
}

json_t *
admin_view_queue(const struct queue_figures *f, const char *queue,
    size_t streams)
{
	const char *state = admin_view_field(&f->config, "state");
	const char *opens = admin_view_field(&f->config, "opens_at");
	const char *notice = admin_view_field(&f->config, "notice");
	const char *until = admin_view_field(&f->config, "fail_open_until");
	json_t *totals = json_object(), *j;

	for (size_t i = 0; totals && i < SHOW_NTOTALS; i++)
		json_object_set_new(totals, total_names[i],
		    json_integer(f->totals[i]));
	j = json_pack("{s:s,s:s,s:o,s:I,s:I,s:o,s:I,s:I,s:s?,s:I}", "queue",
	    queue, "state", state ? state : "open", "config",
	    admin_view_config(&f->config), "waiting", (json_int_t)f->waiting,
	    "active", (json_int_t)f->active, "totals", totals,
	    "admitted_last_minute", (json_int_t)f->last_minute,
	    "streams", (json_int_t)streams, "notice", notice,
	    "fail_open_until", (json_int_t)(until ? strtoll(until, NULL,
	    10) : 0));
	/* A scheduled queue: who awaits the draw, and what it took. */
	if (j && opens && opens[0] && strcmp(opens, "0") != 0) {
		json_object_set_new(j, "prequeue", json_integer(f->prequeue));
		json_object_set_new(j, "draw_ms", json_integer(f->draw_ms));
	}
	return j;
}
