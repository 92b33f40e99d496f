/*
 * api_page.c: GET /q/{q}, the waiting page, and the files it loads
 * (GET /assets/{file}). The page is rendered after one Redis call, like
 * every endpoint: the queue summary (does it exist, is it closed) or, for
 * ?token= (the path of browsers without JavaScript), the token's status.
 * POST /q/{q} is the join button of that path: it joins and sends the
 * browser (303) to its own ?token= page, which reloads itself. While the
 * queue asks for a proof of work, that path cannot join: the page says
 * the line needs JavaScript (the script solves the work and joins).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/queue.h>

#include <event2/keyvalq_struct.h>
#include <uuid/uuid.h>

#include "admission.h"
#include "api.h"
#include "conf.h"
#include "console.h"
#include "join_batch.h"
#include "qstore.h"
#include "http_reply.h"
#include "log.h"
#include "page.h"
#include "validate.h"

#define PAGE_REFRESH_MIN 5	/* seconds between reloads without script */

struct page_call {
	struct api_call call;
	enum lang lang;
};

static void
page_view_init(struct page_view *v, const struct page_call *p,
    const char *state)
{
	memset(v, 0, sizeof *v);
	v->lang = p->lang;
	v->queue = p->call.queue;
	v->state = state;
	v->token = p->call.token;
	v->position = v->waiting = v->eta = -1;
	v->countdown = v->entrants = -1;
	v->notice = admission_notice(p->call.api->admission, p->call.queue,
	    NULL);
}

static void
page_send(struct page_call *p, int code, const struct page_view *v)
{
	size_t len;
	char *html = pages_render(p->call.api->pages, p->call.queue, v, &len);

	if (html == NULL) {
		http_send_error(p->call.api->http, p->call.req, 500, "internal",
		    "out of memory");
		return;
	}
	http_send_html(p->call.api->http, p->call.req, code, html, len);
	free(html);
}

/* A page that only says something: gone, closed, not found... */
static void
page_say(struct page_call *p, int code, const char *state)
{
	struct page_view v;

	page_view_init(&v, p, state);
	page_send(p, code, &v);
}

static int
page_refresh(const struct api *api)
{
	long n = api_conf(api)->push_interval;

	return n < PAGE_REFRESH_MIN ? PAGE_REFRESH_MIN : (int)n;
}

/*
 * What the queue store said, when it is not a page of the line: as the
 * API answers it (result.h), as a page. When Redis did not answer or
 * failed, the page says so and reloads itself.
 */
static void
page_result(struct page_call *p, enum result r)
{
	const struct result_answer *a = result_answer(r);
	struct page_view v;

	page_view_init(&v, p, a->page_state);
	if (r == RESULT_UNAVAILABLE || r == RESULT_ERROR)
		v.refresh = page_refresh(p->call.api);
	if (a->retry_after)
		evhttp_add_header(evhttp_request_get_output_headers(
		    p->call.req), "Retry-After", a->retry_after);
	page_send(p, a->status, &v);
}

/* Does a join of queue need a proof of work now? */
static int
page_needs_work(const struct api *api, const char *queue)
{
	int bits;
	long ttl;

	return admission_pow(api->admission, queue, &bits, &ttl) == 0 &&
	    bits > 0;
}

static void
page_summary_done(enum result r, const struct standing *s, void *arg)
{
	struct page_call *p = arg;
	struct page_view v;

	if (r != RESULT_OK)
		page_result(p, r);
	else {
		page_view_init(&v, p, s->q.state == STATE_CLOSED ? "closed" :
		    page_needs_work(p->call.api, p->call.queue) ? "needs_js" :
		    "join");
		v.waiting = s->waiting;
		page_send(p, s->q.state == STATE_CLOSED ? 409 : 200, &v);
	}
	free(p);
}

static void
page_status_done(enum result r, const struct standing *s, void *arg)
{
	struct page_call *p = arg;
	struct token_status st;
	struct page_view v;
	char *url = NULL;

	if (r != RESULT_OK) {
		page_result(p, r);
		free(p);
		return;
	}
	standing_status(s, p->call.queue, api_conf(p->call.api)->push_interval,
	    &st);
	page_view_init(&v, p, st.active ? "active" : st.prequeue ? "prequeue" :
	    "waiting");
	v.opens_at = s->opens_at;
	if (st.prequeue) {
		v.entrants = st.entrants;
		v.countdown = s->opens_at * 1000 > s->q.now_ms ?
		    (s->opens_at * 1000 - s->q.now_ms + 999) / 1000 : 0;
		v.refresh = (int)st.poll_after;
		page_send(p, 200, &v);
		free(p);
		return;
	}
	v.waiting = st.waiting;
	if (st.active) {
		if (st.redirect)
			v.redirect = url = page_redirect_url(st.redirect,
			    p->call.token);
	} else {
		v.position = st.position;
		v.eta = st.eta_seconds;
		v.refresh = (int)st.poll_after;	/* as an app would poll */
	}
	page_send(p, 200, &v);
	free(url);
	free(p);
}

static void
page_joined(enum result r, const struct standing *s, void *arg)
{
	struct page_call *p = arg;
	struct api_call *c = &p->call;
	char loc[CONF_QUEUE_ID_MAX + 80];

	if (r != RESULT_NEW && r != RESULT_EXISTING) {
		page_result(p, r);
		free(p);
		return;
	}
	snprintf(loc, sizeof loc, "/q/%s?token=%s&lang=%s", c->queue,
	    s->token, lang_code(p->lang));
	evhttp_add_header(evhttp_request_get_output_headers(c->req),
	    "Location", loc);
	http_send_html(c->api->http, c->req, 303, "", 0);
	free(p);
}

static void
page_join(struct page_call *p)
{
	uuid_t uu;

	uuid_generate_random(uu);
	uuid_unparse_lower(uu, p->call.token);
	http_await(p->call.req);
	if (join_batch_add(p->call.api->join_batch, p->call.queue,
	    p->call.token, NULL, NULL, page_joined, p) == -1) {
		page_result(p, RESULT_ERROR);
		free(p);
	}
}

/* ?token= and ?lang= of the page's address. */
static void
page_query(struct evhttp_request *req, struct page_call *p, int *bad_token)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *q = uri ? evhttp_uri_get_query(uri) : NULL, *tok, *lang;
	struct evkeyvalq params;

	TAILQ_INIT(&params);
	*bad_token = 0;
	if (q != NULL && evhttp_parse_query_str(q, &params) == -1)
		TAILQ_INIT(&params);
	tok = evhttp_find_header(&params, "token");
	lang = evhttp_find_header(&params, "lang");
	p->lang = lang_choose(evhttp_find_header(
	    evhttp_request_get_input_headers(req), "Accept-Language"), lang);
	if (tok && valid_token(tok))
		strcpy(p->call.token, tok);
	else if (tok)
		*bad_token = 1;
	evhttp_clear_headers(&params);
}

void
api_page(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct page_call *p;
	struct verdict v = { 0 };
	int bad_token, rc;

	if (m->method == RM_POST && api_join_origin(api, req, &v) == -1) {
		api_send_verdict(api, req, &v);
		return;
	}
	if ((p = calloc(1, sizeof *p)) == NULL) {
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		return;
	}
	p->call.api = api, p->call.req = req;
	strcpy(p->call.queue, m->queue);
	page_query(req, p, &bad_token);
	if (m->method == RM_POST && page_needs_work(api, m->queue)) {
		page_say(p, 403, "needs_js");
		free(p);
		return;
	}
	if (m->method == RM_POST) {
		page_join(p);
		return;
	}
	if (bad_token) {
		page_say(p, 400, "bad_token");
		free(p);
		return;
	}
	rc = p->call.token[0] ?
	    qstore_status(api->qstore, m->queue, p->call.token,
	    page_status_done, p) :
	    qstore_summary(api->qstore, m->queue, page_summary_done, p);
	if (rc == -1) {
		page_result(p, RESULT_UNAVAILABLE);
		free(p);
		return;
	}
	http_await(req);
}

void
api_asset(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	const struct page_file *f = page_file(m->file);

	/*
	 * The template is rendered, never served as it is; the console's
	 * files are served under /admin/assets/, on the admin port.
	 */
	if (f == NULL || strcmp(f->type, "text/html; charset=utf-8") == 0 ||
	    console_file(m->file) != NULL) {
		http_send_error(api->http, req, 404, "not_found",
		    "no such path");
		return;
	}
	http_send_file(api->http, req, f->type, f->body, f->len);
}
