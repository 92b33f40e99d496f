/* verdict.c: a guard's say on a request; see verdict.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reply.h"
#include "verdict.h"

int
verdict_refuse(struct verdict *v, int status, const char *code,
    const char *fmt, ...)
{
	va_list ap;

	v->status = status;
	v->code = code;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	return -1;
}

int
verdict_result(struct verdict *v, enum result r, const char *queue)
{
	const struct result_answer *a = result_answer(r);

	v->status = a->status;
	v->code = a->code;
	v->retry_after = a->retry_after;
	if (a->message)
		result_message(a, queue ? queue : "", v->message,
		    sizeof v->message);
	return -1;
}

void
verdict_retry_after(struct verdict *v, long seconds)
{
	snprintf(v->retry, sizeof v->retry, "%ld", seconds);
	v->retry_after = v->retry;
}

void
verdict_add(struct verdict *v, const char *name, json_t *value)
{
	if (value == NULL)
		return;
	if (v->more == NULL && (v->more = json_object()) == NULL) {
		json_decref(value);
		return;
	}
	json_object_set_new(v->more, name, value);
}

char *
verdict_body(const struct verdict *v)
{
	json_t *err, *j;

	if (v->code == NULL)
		return NULL;
	if (v->more == NULL)
		return reply_error_body(v->code, v->message);
	if ((err = json_pack("{s:s,s:s}", "code", v->code, "message",
	    v->message)) == NULL)
		return NULL;
	if (json_object_update(err, v->more) == -1 ||
	    (j = json_pack("{s:O}", "error", err)) == NULL) {
		json_decref(err);
		return NULL;
	}
	json_decref(err);
	return reply_dump_take(j);
}

void
verdict_clear(struct verdict *v)
{
	json_decref(v->more);
	memset(v, 0, sizeof *v);
}
