/*
 * api_notice.c: the message to everyone waiting in a queue (PUT and
 * DELETE /v1/admin/queues/{q}/notice). It is stored in the queue's
 * configuration (admin_notice.lua); every instance's tick reads it
 * (admission.c), its streams push it as `event: notice` and every status
 * object carries it.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "admission.h"
#include "api.h"
#include "http_reply.h"
#include "log.h"
#include "qstore.h"

/* Code points of the UTF-8 s, or -1 when one is a control character. */
static long
notice_chars(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	long n = 0;

	for (; *u; u++) {
		if (*u < 0x20 || *u == 0x7f)
			return -1;
		/* C1 controls, U+0080..U+009F: C2 80..C2 9F */
		if (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
			return -1;
		if ((*u & 0xc0) != 0x80)
			n++;
	}
	return n;
}

/* {"text": "..."}: its text (a copy), or NULL after answering 400. */
static char *
notice_text(struct api *api, struct evhttp_request *req)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	json_error_t jerr;
	json_t *doc, *t;
	char *text = NULL;
	long n;

	doc = json_loadb((const char *)evbuffer_pullup(in, -1), len,
	    JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL) {
		http_send_error(api->http, req, 400, "bad_json", "the body is "
		    "not valid JSON: %s (line %d)", jerr.text, jerr.line);
		return NULL;
	}
	t = json_object_get(doc, "text");
	if (json_is_object(doc) && json_object_size(doc) == 1 &&
	    json_is_string(t) && (n = notice_chars(json_string_value(t))) >= 1 &&
	    n <= NOTICE_CHARS_MAX)
		text = strdup(json_string_value(t));
	else
		http_send_error(api->http, req, 400, "bad_request", "the body "
		    "is {\"text\": \"...\"}, 1 to %d characters, none a "
		    "control character", NOTICE_CHARS_MAX);
	json_decref(doc);
	return text;
}

static void
notice_done(enum result r, const char *before, const char *after, void *arg)
{
	struct api_call *c = arg;

	if (r != RESULT_OK)
		api_send_result(c, r);
	else {
		log_info("event=admin action=notice queue=%s set=%d",
		    c->queue, after[0] != '\0');
		admission_notice_set(c->api->admission, c->queue, after);
		http_send_json(c->api->http, c->req, 200,
		    json_pack("{s:s,s:s?}", "queue", c->queue, "notice",
		    after[0] ? after : NULL));
	}
	free(c);
}

void
api_admin_notice(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;
	char *text = NULL;

	if (evhttp_request_get_command(req) == EVHTTP_REQ_PUT &&
	    (text = notice_text(api, req)) == NULL)
		return;
	if ((c = api_call_new(api, req, m->queue, NULL)) != NULL)
		api_call_sent(c, qstore_notice(api->qstore, c->queue,
		    text ? text : "", m->admin, notice_done, c));
	free(text);
}

/* ---- fail-open --------------------------------------------------------- */

#define FAIL_OPEN_MINUTES_MAX 1440
#define FAIL_OPEN_SECONDS_MIN 10	/* {"seconds"}: drills and tests */

/* {"minutes": N} or {"seconds": N}: the seconds, or -1 after a 400. */
static long
fail_open_seconds(struct api *api, struct evhttp_request *req)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	json_error_t jerr;
	json_t *doc, *m, *s;
	long secs = -1;

	doc = json_loadb((const char *)evbuffer_pullup(in, -1),
	    evbuffer_get_length(in), JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL) {
		http_send_error(api->http, req, 400, "bad_json", "the body is "
		    "not valid JSON: %s (line %d)", jerr.text, jerr.line);
		return -1;
	}
	m = json_object_get(doc, "minutes");
	s = json_object_get(doc, "seconds");
	if (json_is_object(doc) && json_object_size(doc) == 1) {
		if (json_is_integer(m) && json_integer_value(m) >= 1 &&
		    json_integer_value(m) <= FAIL_OPEN_MINUTES_MAX)
			secs = (long)json_integer_value(m) * 60;
		if (json_is_integer(s) && json_integer_value(s) >=
		    FAIL_OPEN_SECONDS_MIN && json_integer_value(s) <=
		    FAIL_OPEN_MINUTES_MAX * 60)
			secs = (long)json_integer_value(s);
	}
	if (secs == -1)
		http_send_error(api->http, req, 400, "bad_request", "the body "
		    "is {\"minutes\": N}, N an integer from 1 to %d (or "
		    "{\"seconds\": N}, from %d)", FAIL_OPEN_MINUTES_MAX,
		    FAIL_OPEN_SECONDS_MIN);
	json_decref(doc);
	return secs;
}

static void
fail_open_done(enum result r, const char *mode, long long until,
    const char *previous, void *arg)
{
	struct api_call *c = arg;

	if (r != RESULT_OK)
		api_send_result(c, r);
	else if (until > 0) {
		log_info("event=admin action=fail_open queue=%s until=%lld "
		    "previous=%s", c->queue, until, previous);
		http_send_json(c->api->http, c->req, 200,
		    json_pack("{s:s,s:s,s:I,s:s}", "queue", c->queue, "mode",
		    mode, "until", (json_int_t)until, "previous_mode",
		    previous));
	} else {
		log_info("event=admin action=fail_open_end queue=%s mode=%s",
		    c->queue, mode);
		http_send_json(c->api->http, c->req, 200,
		    json_pack("{s:s,s:s}", "queue", c->queue, "mode", mode));
	}
	free(c);
}

void
api_admin_fail_open(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;
	long secs = 0;

	if (evhttp_request_get_command(req) == EVHTTP_REQ_POST &&
	    (secs = fail_open_seconds(api, req)) == -1)
		return;
	if ((c = api_call_new(api, req, m->queue, NULL)) != NULL)
		api_call_sent(c, qstore_fail_open(api->qstore, c->queue, secs,
		    m->admin, fail_open_done, c));
}
