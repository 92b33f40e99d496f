/*
 * api_page.c: GET /q/{q}, the waiting page, and the files it loads
 * (GET /assets/{file}). The page is rendered after one Redis call, like
 * every endpoint: the queue summary (does it exist, is it closed) or, for
 * ?token= (the path of browsers without JavaScript), the token's status.
 * POST /q/{q} is the join button of that path: it joins and sends the
 * browser (303) to its own ?token= page, which reloads itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/queue.h>

#include <event2/keyvalq_struct.h>
#include <uuid/uuid.h>

#include "api.h"
#include "conf.h"
#include "joins.h"
#include "facts.h"
#include "http.h"
#include "log.h"
#include "page.h"
#include "validate.h"

#define PAGE_REFRESH_MIN 5	/* seconds between reloads without script */

struct page_call {
	struct api_call call;	/* first: api.c frees it as an api_call */
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
}

static void
page_send(struct page_call *p, int code, const struct page_view *v)
{
	size_t len;
	char *html = pages_render(p->call.app->pages, p->call.queue, v, &len);

	if (html == NULL) {
		http_send_error(p->call.req, 500, "internal", "out of memory");
		return;
	}
	http_send_html(p->call.req, code, html, len);
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
page_refresh(const struct app *app)
{
	long n = app->conf->push_interval;

	return n < PAGE_REFRESH_MIN ? PAGE_REFRESH_MIN : (int)n;
}

/* Redis did not answer, or failed: the page says so and tries again. */
static void
page_error(struct api_call *c, int code)
{
	struct page_call *p = (struct page_call *)c;
	struct page_view v;

	page_view_init(&v, p, "unavailable");
	v.refresh = page_refresh(c->app);
	if (code == 503)
		evhttp_add_header(evhttp_request_get_output_headers(c->req),
		    "Retry-After", "1");
	page_send(p, code, &v);
}

/* The script's other results, as pages. */
static void
page_result(struct page_call *p, const char *result)
{
	if (strcmp(result, "no_queue") == 0)
		page_say(p, 404, "notfound");
	else if (strcmp(result, "gone") == 0)
		page_say(p, 404, "gone");
	else if (strcmp(result, "closed") == 0)
		page_say(p, 409, "closed");
	else if (strcmp(result, "full") == 0) {
		evhttp_add_header(evhttp_request_get_output_headers(
		    p->call.req), "Retry-After", "10");
		page_say(p, 503, "full");
	} else {
		log_error("event=bad_script_reply queue=%s result=%s",
		    p->call.queue, result);
		page_error(&p->call, 500);
	}
}

static void
page_summary_done(struct api_call *c, const redisReply *r)
{
	struct page_call *p = (struct page_call *)c;
	struct page_view v;
	struct facts f;

	if (facts_parse(r, &f) == -1 || strcmp(f.result, "ok") != 0) {
		page_result(p, f.result);
		return;
	}
	page_view_init(&v, p, f.q.state == STATE_CLOSED ? "closed" : "join");
	v.waiting = f.waiting;
	page_send(p, f.q.state == STATE_CLOSED ? 409 : 200, &v);
}

static void
page_status_done(struct api_call *c, const redisReply *r)
{
	struct page_call *p = (struct page_call *)c;
	struct token_status st;
	struct page_view v;
	struct facts f;
	char *url = NULL;

	if (facts_parse(r, &f) == -1 || strcmp(f.result, "ok") != 0) {
		page_result(p, f.result);
		return;
	}
	facts_status(&f, c->queue, &st);
	page_view_init(&v, p, st.active ? "active" : "waiting");
	v.waiting = st.waiting;
	if (st.active) {
		if (st.redirect)
			v.redirect = url = page_redirect_url(st.redirect,
			    c->token);
	} else {
		v.position = st.position;
		v.eta = st.eta_seconds;
		v.refresh = page_refresh(c->app);
	}
	page_send(p, 200, &v);
	free(url);
}

static void
page_joined(struct api_call *c, const struct facts *f)
{
	struct page_call *p = (struct page_call *)c;
	char loc[CONF_QUEUE_ID_MAX + 80];

	if (strcmp(f->result, "new") != 0 &&
	    strcmp(f->result, "existing") != 0) {
		page_result(p, f->result);
		return;
	}
	snprintf(loc, sizeof loc, "/q/%s?token=%s&lang=%s", c->queue,
	    f->token, lang_code(p->lang));
	evhttp_add_header(evhttp_request_get_output_headers(c->req),
	    "Location", loc);
	http_send_html(c->req, 303, "", 0);
}

static void
page_join(struct page_call *p)
{
	uuid_t uu;

	uuid_generate_random(uu);
	uuid_unparse_lower(uu, p->call.token);
	joins_add(p->call.app->joins, &p->call, NULL, page_joined);
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
api_page(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	struct page_call *p = calloc(1, sizeof *p);
	const char *argv[API_QUEUE_KEYS + 1];
	struct queue_keys k;
	int bad_token;

	if (m->method == RM_POST && api_join_origin(app, req) == -1) {
		free(p);
		return;
	}
	if (p == NULL) {
		http_send_error(req, 500, "internal", "out of memory");
		return;
	}
	p->call.app = app, p->call.req = req;
	p->call.answer_error = page_error;
	strcpy(p->call.queue, m->queue);
	page_query(req, p, &bad_token);
	if (m->method == RM_POST) {
		p->call.token[0] = '\0';
		page_join(p);
		return;
	}
	if (bad_token) {
		page_say(p, 400, "bad_token");
		free(p);
		return;
	}
	p->call.done = p->call.token[0] ? page_status_done : page_summary_done;
	api_queue_argv(app, m->queue, &k, argv);
	argv[API_QUEUE_KEYS] = p->call.token;
	api_call_run(&p->call, p->call.token[0] ? LUA_STATUS : LUA_SUMMARY,
	    API_QUEUE_KEYS, API_QUEUE_KEYS + (p->call.token[0] ? 1 : 0), argv);
}

void
api_asset(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	const struct page_file *f = page_file(m->file);

	/* The template is rendered, never served as it is. */
	if (f == NULL || strcmp(f->type, "text/html; charset=utf-8") == 0) {
		http_send_error(req, 404, "not_found", "no such path");
		return;
	}
	http_send_file(req, f->type, f->body, f->len);
}
