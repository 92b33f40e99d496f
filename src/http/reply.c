/* reply.c: the JSON bodies of API.md; no I/O. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "reply.h"
#include "validate.h"

char *
reply_dump(const json_t *j)
{
	return json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
}

char *
reply_dump_take(json_t *j)
{
	char *s = j != NULL ? reply_dump(j) : NULL;

	json_decref(j);
	return s;
}

char *
reply_error_body(const char *code, const char *message)
{
	return reply_dump_take(json_pack("{s:{s:s,s:s}}", "error", "code",
	    code, "message", message));
}

char *
reply_refusal_body(int *status, long max_body)
{
	char message[128];

	switch (*status) {
	case 413:
		snprintf(message, sizeof message, "a request body may hold at "
		    "most %ld bytes", max_body);
		return reply_error_body("body_too_large", message);
	case 417:
		return reply_error_body("expectation_failed", "the only Expect "
		    "understood is 100-continue");
	default:
		*status = 400;
		return reply_error_body("bad_request", "the request could not "
		    "be read: a malformed request line or header, headers over "
		    "8 KiB, or framing a proxy could read otherwise, such as "
		    "Content-Length beside Transfer-Encoding");
	}
}

char *
reply_gone_body(const char *queue, const char *token, const char *reason)
{
	return reply_dump_take(json_pack("{s:s,s:s,s:s}", "queue", queue,
	    "token", token, "reason", reason));
}

/*
 * The status object goes out with every join, every status answer and
 * every push to every stream, so it is written straight to text rather
 * than built as a json_t and dumped: jansson was a quarter of the
 * instructions a join spends in this process. The text is the one
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII) writes for the same object
 * (check_reply compares the two).
 */

/* Room for the status object's keys (notice too), literals and eight
 * integers. */
#define REPLY_STATUS_FIXED 380
/* The most text one input byte can become: \u00XX, or \uFFFD if bad. */
#define REPLY_ESC_MAX 6

static char *
put_lit(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *
put_u16(char *p, unsigned u)
{
	static const char hex[] = "0123456789ABCDEF";

	*p++ = '\\';
	*p++ = 'u';
	*p++ = hex[u >> 12 & 15];
	*p++ = hex[u >> 8 & 15];
	*p++ = hex[u >> 4 & 15];
	*p++ = hex[u & 15];
	return p;
}

/* One code point inside a JSON string, ASCII only, as jansson does it. */
static char *
put_cp(char *p, unsigned cp)
{
	switch (cp) {
	case '"': return put_lit(p, "\\\"");
	case '\\': return put_lit(p, "\\\\");
	case '\b': return put_lit(p, "\\b");
	case '\f': return put_lit(p, "\\f");
	case '\n': return put_lit(p, "\\n");
	case '\r': return put_lit(p, "\\r");
	case '\t': return put_lit(p, "\\t");
	}
	if (cp >= 0x20 && cp < 0x80) {
		*p++ = (char)cp;
		return p;
	}
	if (cp < 0x10000)
		return put_u16(p, cp);
	cp -= 0x10000;
	p = put_u16(p, 0xd800 | cp >> 10);
	return put_u16(p, 0xdc00 | (cp & 0x3ff));
}

/* s as a JSON string; a byte that starts no UTF-8 sequence is U+FFFD. */
static char *
put_str(char *p, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), step;
	unsigned cp;

	*p++ = '"';
	while (n > 0) {
		if (*u < 0x80)
			step = 1, cp = *u;
		else if ((step = utf8_next(u, n, &cp)) == 0)
			step = 1, cp = 0xfffd;
		p = put_cp(p, cp);
		u += step;
		n -= step;
	}
	*p++ = '"';
	return p;
}

static char *
put_active(char *p, const struct token_status *st)
{
	p = put_lit(p, ",\"active_until\":");
	p = decimal_put(p, st->active_until);
	if (st->redirect) {
		p = put_lit(p, ",\"redirect\":");
		p = put_str(p, st->redirect);
	}
	if (st->pass) {
		p = put_lit(p, ",\"pass\":");
		p = put_str(p, st->pass);
	}
	return p;
}

static char *
put_waiting(char *p, const struct token_status *st)
{
	p = put_lit(p, ",\"position\":");
	p = decimal_put(p, st->position);
	p = put_lit(p, ",\"ahead\":");
	p = decimal_put(p, st->position - 1);
	p = put_lit(p, ",\"eta_seconds\":");
	if (st->eta_seconds < 0)
		return put_lit(p, "null");
	p = decimal_put(p, st->eta_seconds);
	p = put_lit(p, ",\"eta_range\":[");
	p = decimal_put(p, st->eta_low);
	p = put_lit(p, ",");
	p = decimal_put(p, st->eta_high);
	return put_lit(p, "]");
}

/* Awaiting the draw: no position, no ETA, the line's size unknown. */
static char *
put_prequeue(char *p, const struct token_status *st)
{
	p = put_lit(p, ",\"status\":\"prequeue\",\"opens_at\":");
	p = decimal_put(p, st->opens_at);
	p = put_lit(p, ",\"entrants\":");
	p = decimal_put(p, st->entrants);
	p = put_lit(p, ",\"ticket\":");
	return put_str(p, st->ticket);
}

char *
reply_status_text(const struct token_status *st)
{
	size_t in = strlen(st->queue) + strlen(st->token);
	char *s, *p;

	if (st->active && st->redirect)
		in += strlen(st->redirect);
	if (st->active && st->pass)
		in += strlen(st->pass);
	if (st->notice)
		in += strlen(st->notice);
	if ((s = malloc(REPLY_STATUS_FIXED + REPLY_ESC_MAX * in)) == NULL)
		return NULL;
	p = put_lit(s, "{\"queue\":");
	p = put_str(p, st->queue);
	p = put_lit(p, ",\"token\":");
	p = put_str(p, st->token);
	if (st->prequeue)
		p = put_prequeue(p, st);
	else {
		p = put_lit(p, st->active ? ",\"status\":\"active\"" :
		    ",\"status\":\"waiting\"");
		p = put_lit(p, ",\"waiting\":");
		p = decimal_put(p, st->waiting);
		p = st->active ? put_active(p, st) : put_waiting(p, st);
	}
	p = put_lit(p, ",\"poll_after\":");
	p = decimal_put(p, st->poll_after);
	if (st->notice) {
		p = put_lit(p, ",\"notice\":");
		p = put_str(p, st->notice);
	}
	*p++ = '}';
	*p = '\0';
	return s;
}
