/*
 * api_audit.c: the trail of admin writes (GET /v1/admin/audit
 * [?queue=Q][&limit=N]): the newest entries, each as the script that made
 * the change recorded it (lib.lua's trail_add), newest first.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>

#include "api.h"
#include "http_reply.h"
#include "qstore.h"
#include "validate.h"

#define AUDIT_LIMIT 100		/* entries when ?limit is not given */
#define AUDIT_LIMIT_MAX 1000

struct audit_args {
	const char *queue;	/* NULL: every queue */
	long limit;
};

/* N of ?limit=N: 1 to AUDIT_LIMIT_MAX, digits only; -1 when not. */
static long
audit_limit(const char *s)
{
	long n = 0;

	if (s[0] == '\0' || strlen(s) > 4 || strspn(s, "0123456789") !=
	    strlen(s))
		return -1;
	n = strtol(s, NULL, 10);
	return n >= 1 && n <= AUDIT_LIMIT_MAX ? n : -1;
}

/* The query into a: 0, or -1 after answering 400. */
static int
audit_args(struct api *api, struct evhttp_request *req,
    struct evkeyvalq *q, struct audit_args *a)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *query = uri ? evhttp_uri_get_query(uri) : NULL;
	const char *limit = NULL;

	a->queue = NULL;
	a->limit = AUDIT_LIMIT;
	if (query != NULL && evhttp_parse_query_str(query, q) == -1)
		goto bad;
	for (struct evkeyval *h = q->tqh_first; h; h = h->next.tqe_next) {
		if (strcmp(h->key, "queue") == 0 && a->queue == NULL)
			a->queue = h->value;
		else if (strcmp(h->key, "limit") == 0 && limit == NULL)
			limit = h->value;
		else
			goto bad;
	}
	if (limit != NULL && (a->limit = audit_limit(limit)) == -1)
		goto bad;
	if (a->queue != NULL && !valid_queue_id(a->queue)) {
		http_send_bad_queue(api->http, req);
		return -1;
	}
	return 0;
bad:
	http_send_error(api->http, req, 400, "bad_request", "the query is "
	    "?queue=NAME&limit=N, each at most once, N from 1 to %d",
	    AUDIT_LIMIT_MAX);
	return -1;
}

static void
audit_done(enum result r, const char *const *list, size_t n, void *arg)
{
	struct api_call *c = arg;
	json_t *entries;

	if (r != RESULT_OK) {
		api_send_result(c, r);
		free(c);
		return;
	}
	entries = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_loads(list[i], 0, NULL);

		/* Only what trail_add wrote: an object. */
		if (json_is_object(e))
			json_array_append_new(entries, e);
		else
			json_decref(e);
	}
	http_send_json(c->api->http, c->req, 200, json_pack("{s:o}",
	    "entries", entries));
	free(c);
}

void
api_admin_audit(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct evkeyvalq q = { NULL, NULL };
	struct audit_args a;
	struct api_call *c;

	if (audit_args(api, req, &q, &a) == 0 &&
	    (c = api_call_new(api, req, a.queue ? a.queue : "", NULL)) != NULL)
		api_call_sent(c, qstore_trail(api->qstore, a.queue, a.limit,
		    audit_done, c));
	evhttp_clear_headers(&q);
}
