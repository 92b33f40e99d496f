/*
 * api_report.c: a queue's report, GET /v1/admin/queues/{q}/report and
 * .../report.csv [?from=T][&to=T] (doc/api.md, "The report"): its minute
 * rows from Redis (report_read.lua), made into figures by report.c.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>

#include "api.h"
#include "conf_check.h"
#include "http_reply.h"
#include "qstore_report.h"
#include "report.h"

struct report_call {
	struct api_call call;	/* first: api_call_sent frees it */
	int csv;
};

/* T of ?from=T or ?to=T into *out: unix s or RFC 3339; -1 when not. */
static int
report_time(const char *s, long long *out)
{
	long t;

	if (conf_parse_time(s, &t) == -1)
		return -1;
	*out = t;
	return 0;
}

/* The query into *from and *to (-1: not given): 0, or -1 after answering
 * 400 naming the parameter at fault. */
static int
report_args(struct api *api, struct evhttp_request *req, long long *from,
    long long *to)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *query = uri ? evhttp_uri_get_query(uri) : NULL;
	struct evkeyvalq q = { NULL, NULL };
	const char *bad = NULL;

	*from = *to = -1;
	if (query != NULL && evhttp_parse_query_str(query, &q) == -1)
		bad = "query";
	for (struct evkeyval *h = q.tqh_first; !bad && h; h = h->next.tqe_next)
		if (strcmp(h->key, "from") == 0 && *from == -1)
			bad = report_time(h->value, from) == -1 ? "from" : NULL;
		else if (strcmp(h->key, "to") == 0 && *to == -1)
			bad = report_time(h->value, to) == -1 ? "to" : NULL;
		else
			bad = "query";
	evhttp_clear_headers(&q);
	if (bad == NULL && *from >= 0 && *to >= 0 && *from > *to)
		bad = "from";
	if (bad == NULL)
		return 0;
	if (strcmp(bad, "query") == 0)
		http_send_error(api->http, req, 400, "bad_request", "the query "
		    "is ?from=T&to=T, each at most once, T unix seconds or "
		    "RFC 3339 in UTC (2026-12-01T10:00:00Z)");
	else
		http_send_error(api->http, req, 400, "bad_request", "%s: %s",
		    bad, *from > *to && *to >= 0 ? "from is after to" :
		    "a time is unix seconds or RFC 3339 in UTC "
		    "(2026-12-01T10:00:00Z), from 1970 to 9999");
	return -1;
}

static void
report_done(enum result r, const struct report_data *d, void *arg)
{
	struct report_call *rc = arg;
	struct api_call *c = &rc->call;
	char *csv;

	if (r != RESULT_OK) {
		api_send_result(c, r);
	} else if (rc->csv) {
		if ((csv = report_csv(d)) == NULL)
			http_send_error(c->api->http, c->req, 500, "internal",
			    "out of memory");
		else
			http_send_csv(c->api->http, c->req, csv, strlen(csv));
		free(csv);
	} else {
		http_send_json(c->api->http, c->req, 200, report_json(d,
		    c->queue));
	}
	free(rc);
}

void
api_admin_report(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct report_call *rc;
	struct api_call *c;
	long long from, to;

	(void)client;
	if (report_args(api, req, &from, &to) == -1 ||
	    (c = api_call_new(api, req, m->queue, NULL)) == NULL)
		return;
	if ((rc = realloc(c, sizeof *rc)) == NULL) {
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		free(c);
		return;
	}
	rc->csv = m->id == ROUTE_ADMIN_REPORT_CSV;
	api_call_sent(&rc->call, qstore_report(api->qstore, rc->call.queue,
	    from, to, report_done, rc));
}
