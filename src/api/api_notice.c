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
notice_text(struct app *app, struct evhttp_request *req)
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
		http_send_error(app->http, req, 400, "bad_json", "the body is "
		    "not valid JSON: %s (line %d)", jerr.text, jerr.line);
		return NULL;
	}
	t = json_object_get(doc, "text");
	if (json_is_object(doc) && json_object_size(doc) == 1 &&
	    json_is_string(t) && (n = notice_chars(json_string_value(t))) >= 1 &&
	    n <= NOTICE_CHARS_MAX)
		text = strdup(json_string_value(t));
	else
		http_send_error(app->http, req, 400, "bad_request", "the body "
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
		http_send_json(c->app->http, c->req, 200,
		    json_pack("{s:s,s:s?}", "queue", c->queue, "notice",
		    after[0] ? after : NULL));
	}
	free(c);
}

void
api_admin_notice(struct app *app, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;
	char *text = NULL;

	if (evhttp_request_get_command(req) == EVHTTP_REQ_PUT &&
	    (text = notice_text(app, req)) == NULL)
		return;
	if ((c = api_call_new(app, req, m->queue, NULL)) != NULL)
		api_call_sent(c, qstore_notice(app->qstore, c->queue,
		    text ? text : "", notice_done, c));
	free(text);
}
