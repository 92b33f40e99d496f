/* reply.c: the JSON bodies of API.md; no I/O. */
#include <stdlib.h>

#include "reply.h"

char *
reply_dump(const json_t *j)
{
	return json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
}

char *
reply_error_body(const char *code, const char *message)
{
	json_t *j = json_pack("{s:{s:s,s:s}}", "error", "code", code,
	    "message", message);
	char *s;

	if (j == NULL)
		return NULL;
	s = reply_dump(j);
	json_decref(j);
	return s;
}

json_t *
reply_status(const struct token_status *st)
{
	json_t *j = json_pack("{s:s,s:s,s:s,s:I}", "queue", st->queue,
	    "token", st->token, "status", st->active ? "active" : "waiting",
	    "waiting", (json_int_t)st->waiting);

	if (j == NULL)
		return NULL;
	if (st->active) {
		json_object_set_new(j, "active_until",
		    json_integer(st->active_until));
		if (st->redirect)
			json_object_set_new(j, "redirect",
			    json_string(st->redirect));
		if (st->pass)
			json_object_set_new(j, "pass", json_string(st->pass));
		return j;
	}
	json_object_set_new(j, "position", json_integer(st->position));
	json_object_set_new(j, "ahead", json_integer(st->position - 1));
	json_object_set_new(j, "eta_seconds", st->eta_seconds < 0 ?
	    json_null() : json_integer(st->eta_seconds));
	return j;
}
