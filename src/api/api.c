/* api.c: what the endpoints share; see api.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admission.h"
#include "api.h"
#include "cookie.h"
#include "http_reply.h"
#include "log.h"
#include "pass.h"
#include "qstore.h"
#include "revoke.h"
#include "text.h"

struct api_call *
api_call_new(struct api *api, struct evhttp_request *req, const char *queue,
    const char *token)
{
	struct api_call *c = calloc(1, sizeof *c);

	if (c == NULL) {
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		return NULL;
	}
	c->api = api, c->req = req;
	text_copy(c->queue, sizeof c->queue, queue);
	if (token)
		text_copy(c->token, sizeof c->token, token);
	return c;
}

int
api_call_sent(struct api_call *c, int rc)
{
	if (rc == -1) {
		http_send_result(c->api->http, c->req, c->queue,
		    RESULT_UNAVAILABLE);
		free(c);
		return -1;
	}
	http_await(c->req);
	return 0;
}

void
api_send_result(struct api_call *c, enum result r)
{
	http_send_result(c->api->http, c->req, c->queue, r);
}

void
api_send_verdict(struct api *api, struct evhttp_request *req,
    struct verdict *v)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	if (v->code == NULL)
		http_send_empty(api->http, req, v->status);
	else {
		if (v->retry_after)
			evhttp_add_header(out, "Retry-After", v->retry_after);
		http_send_text(api->http, req, v->status, verdict_body(v));
	}
	verdict_clear(v);
}

void
api_pass_attach(struct api *api, struct token_status *st, char *buf)
{
	if (pass_attach(api_passkeys(api), st, (long long)time(NULL), buf) ==
	    -1)
		log_error("event=pass_sign_failed queue=%s", st->queue);
}

void
api_pass_cookie(struct api *api, struct evhttp_request *req,
    const struct token_status *st)
{
	api_pass_cookie_as(api, req, st, "Set-Cookie");
}

void
api_pass_cookie_as(struct api *api, struct evhttp_request *req,
    const struct token_status *st, const char *header)
{
	char buf[PASS_MAX + 512];

	if (st->pass == NULL || cookie_set(buf, sizeof buf,
	    api_conf(api)->pass_cookie, st->pass,
	    st->active_until - (long long)time(NULL),
	    api_conf(api)->pass_cookie_domain,
	    api_conf(api)->pass_cookie_secure) == -1)
		return;
	evhttp_add_header(evhttp_request_get_output_headers(req), header,
	    buf);
}

/* An ended session: this process knows at once, others from Redis. */
void
api_session_ended(struct api *api, const char *queue, const char *token)
{
	static const struct revoke_facts ended = { 1, 0 };

	revoke_put(api->revoke, queue, token, &ended,
	    (long long)time(NULL) * 1000);
}

void
api_token_removed(struct api_call *c, enum result r, int was_active)
{
	if (r != RESULT_OK)
		api_send_result(c, r);
	else {
		if (was_active)
			api_session_ended(c->api, c->queue, c->token);
		http_send_empty(c->api->http, c->req, 204);
	}
	free(c);
}

#define API_SHOW_MAX 4096	/* queues in one answer */

/* The names ride along, so each figure finds its queue. */
struct figures_call {
	api_figures_cb *cb;
	void *arg;
	size_t n;
	const char **names;		/* into copies */
	char copies[][CONF_QUEUE_ID_MAX + 1];
};

static void
figures_done(enum result r, const struct queue_figures *f, size_t n,
    void *arg)
{
	struct figures_call *fc = arg;

	fc->cb(r, fc->names, f, n, fc->arg);
	free(fc->names);
	free(fc);
}

int
api_figures(struct api *api, const char *const *names, size_t n,
    api_figures_cb *cb, void *arg)
{
	const char *known[API_SHOW_MAX];
	struct figures_call *fc;

	if (names == NULL) {
		n = admission_names(api->admission, known, API_SHOW_MAX);
		names = known;
	}
	fc = calloc(1, sizeof *fc + (n ? n : 1) * sizeof fc->copies[0]);
	if (fc == NULL || (fc->names = calloc(n ? n : 1,
	    sizeof *fc->names)) == NULL) {
		free(fc);
		return -1;
	}
	fc->cb = cb, fc->arg = arg, fc->n = n;
	for (size_t i = 0; i < n; i++) {
		text_copy(fc->copies[i], sizeof fc->copies[i], names[i]);
		fc->names[i] = fc->copies[i];
	}
	if (qstore_show(api->qstore, fc->names, n, figures_done, fc) == -1) {
		free(fc->names);
		free(fc);
		return -1;
	}
	return 0;
}
