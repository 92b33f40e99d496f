/*
 * api_console.c: GET /admin, the operator's console, and its files (GET
 * /admin/assets/{file}). dispatch.c serves them on admin_listen only; the
 * page carries no figure and needs no token: its script asks for the
 * token and calls the admin API with it, so a request for the page
 * touches neither Redis nor the admin gate.
 */
#include <stdlib.h>
#include <string.h>

#include <sys/queue.h>

#include <event2/keyvalq_struct.h>

#include "api.h"
#include "console.h"
#include "http_reply.h"
#include "page.h"

/* ?lang=, else Accept-Language, as the waiting page chooses. */
static enum lang
console_lang(struct evhttp_request *req)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *q = uri ? evhttp_uri_get_query(uri) : NULL;
	struct evkeyvalq params;
	enum lang l;

	TAILQ_INIT(&params);
	if (q != NULL && evhttp_parse_query_str(q, &params) == -1)
		TAILQ_INIT(&params);
	l = lang_choose(evhttp_find_header(evhttp_request_get_input_headers(
	    req), "Accept-Language"), evhttp_find_header(&params, "lang"));
	evhttp_clear_headers(&params);
	return l;
}

void
api_console(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	size_t len;
	char *html = console_render(pages_console(api->pages),
	    console_lang(req), &len);

	if (html == NULL) {
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		return;
	}
	http_send_console(api->http, req, "text/html; charset=utf-8", html,
	    len);
	free(html);
}

void
api_console_asset(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	const struct page_file *f = console_file(m->file);

	if (f == NULL) {
		http_send_error(api->http, req, 404, "not_found",
		    "no such path");
		return;
	}
	http_send_console(api->http, req, f->type, f->body, f->len);
}
