/*
 * api_admin.c: the admin API's queues: GET /v1/admin/queues (every queue),
 * GET, PUT and DELETE /v1/admin/queues/{q}. dispatch.c has checked the
 * bearer token. A PUT is checked field by field with conf.c's key table, the one
 * the configuration file goes through, before anything touches Redis;
 * what the fields must be together (the schedule's order) and what a
 * draw has fixed, admin_put.lua checks against the stored hash in the
 * run that writes, with the fresh seed it keeps for a first schedule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "admin_view.h"
#include "admission.h"
#include "api.h"
#include "conf_check.h"
#include "http_reply.h"
#include "log.h"
#include "metrics_share.h"
#include "qstore.h"
#include "revoke.h"
#include "ticket.h"

#define ADMIN_FIELDS_MAX 32	/* field/value pairs a PUT may carry */

static void
list_done(enum result r, const char *const *names,
    const struct queue_figures *f, size_t n, void *arg)
{
	struct api_call *c = arg;
	const struct mshare_live *live;
	json_t *queues;

	if (r != RESULT_OK) {
		api_send_result(c, r);
		free(c);
		return;
	}
	live = api_live_total(c->api, NULL);
	queues = json_array();
	for (size_t i = 0; i < n; i++)
		if (f[i].exists)
			json_array_append_new(queues, admin_view_queue(&f[i],
			    names[i], mshare_queue_streams(live, names[i])));
	http_send_json(c->api->http, c->req, 200, json_pack("{s:o}", "queues",
	    queues));
	free(c);
}

static void
show_done(enum result r, const char *const *names,
    const struct queue_figures *f, size_t n, void *arg)
{
	struct api_call *c = arg;

	if (r == RESULT_OK && (n != 1 || !f[0].exists))
		r = RESULT_NO_QUEUE;
	if (r != RESULT_OK)
		api_send_result(c, r);
	else
		http_send_json(c->api->http, c->req, 200,
		    admin_view_queue(&f[0], names[0], mshare_queue_streams(
		    api_live_total(c->api, NULL), names[0])));
	free(c);
}

/* GET /v1/admin/queues/{q}, or the list when queue is NULL. */
static void
admin_show(struct api *api, struct evhttp_request *req, const char *queue)
{
	const char *names[1] = { queue };
	struct api_call *c = api_call_new(api, req, queue ? queue : "", NULL);

	if (c != NULL)
		api_call_sent(c, api_figures(api, queue ? names : NULL,
		    queue ? 1 : 0, queue ? show_done : list_done, c));
}

void
api_admin_list(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	admin_show(api, req, NULL);
}

/* ---- PUT --------------------------------------------------------------- */

struct put_args {
	const char *pairs[2 * ADMIN_FIELDS_MAX];
	char *copies[ADMIN_FIELDS_MAX];
	int n;
};

static void
put_refuse(struct http *h, struct evhttp_request *req, const char *field,
    const char *msg)
{
	http_send_json(h, req, 400, json_pack("{s:{s:s,s:s,s:s}}", "error",
	    "code", "bad_request", "message", msg, "field", field));
}

/* A schedule out of order, against the stored values: 400 naming it. */
static void
put_bad_schedule(struct api_call *c, const struct qschedule_fault *f)
{
	char err[CONF_ERR_MAX];
	int pre = strcmp(f->field, "prequeue_from") == 0;

	if (conf_check_schedule((long)f->opens_at, pre ? (long)f->value : 0,
	    pre ? 0 : (long)f->value, err, sizeof err) == NULL)
		snprintf(err, sizeof err, "key '%s': out of order with "
		    "opens_at", f->field);
	put_refuse(c->api->http, c->req, f->field, err);
}

static void
put_done(enum result r, const struct qconfig *config,
    const struct qschedule_fault *fault, void *arg)
{
	struct api_call *c = arg;
	int created = r == RESULT_NEW;

	if (r == RESULT_BAD_SCHEDULE)
		put_bad_schedule(c, fault);
	else if (r != RESULT_OK && r != RESULT_NEW)
		api_send_result(c, r);
	else {
		log_info("event=admin action=%s queue=%s", created ? "create" :
		    "update", c->queue);
		if (admission_add(c->api->admission, c->queue) == -1)
			log_error("event=tick_start_failed queue=%s", c->queue);
		http_send_json(c->api->http, c->req, created ? 201 : 200,
		    json_pack("{s:s,s:s,s:o}", "queue", c->queue, "result",
		    created ? "created" : "updated", "config",
		    admin_view_config(config)));
	}
	free(c);
}

/* One field of the body into q; -1 after answering 400. */
static int
put_field(struct http *h, struct evhttp_request *req, struct queue_conf *q,
    const char *key, json_t *v, char *text, size_t size)
{
	char err[CONF_ERR_MAX];

	if (conf_queue_key_kind(key) == CONF_LOCAL) {
		snprintf(err, sizeof err, "key '%s' is kept by each host: set it "
		    "in waitroom.conf", key);
		put_refuse(h, req, key, err);
		return -1;
	}
	if (json_is_integer(v))
		snprintf(text, size, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
	else if (json_is_string(v) && json_string_length(v) < size &&
	    strlen(json_string_value(v)) == json_string_length(v))
		memcpy(text, json_string_value(v), json_string_length(v) + 1);
	else {
		snprintf(err, sizeof err, "key '%s': the value must be a JSON "
		    "string (at most %zu bytes, no NUL) or integer", key,
		    size - 1);
		put_refuse(h, req, key, err);
		return -1;
	}
	if (conf_queue_set(q, key, text, err, sizeof err) == -1) {
		put_refuse(h, req, key, err);
		return -1;
	}
	return 0;
}

/* The body's fields, checked; the given pairs go into a. -1: answered. */
static int
put_body(struct http *h, struct evhttp_request *req, struct queue_conf *q,
    struct put_args *a, json_t **doc)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	char text[CONF_ERR_MAX * 8];
	json_error_t jerr;
	const char *key;
	json_t *v;

	*doc = len ? json_loadb((const char *)evbuffer_pullup(in, -1), len,
	    JSON_REJECT_DUPLICATES, &jerr) : json_object();
	if (*doc == NULL) {
		http_send_error(h, req, 400, "bad_json", "the body is not "
		    "valid JSON: %s (line %d)", jerr.text, jerr.line);
		return -1;
	}
	if (!json_is_object(*doc)) {
		http_send_error(h, req, 400, "bad_request", "the body is a "
		    "JSON object of configuration fields, such as "
		    "{\"batch\": 500}");
		return -1;
	}
	if (json_object_size(*doc) > ADMIN_FIELDS_MAX) {
		http_send_error(h, req, 400, "bad_request", "at most %d fields",
		    ADMIN_FIELDS_MAX);
		return -1;
	}
	json_object_foreach(*doc, key, v) {
		if (put_field(h, req, q, key, v, text, sizeof text) == -1)
			return -1;
		/* As the hash keeps it: a time in unix seconds. */
		if ((a->copies[a->n] = strdup(conf_queue_value(q, key, text,
		    sizeof text))) == NULL) {
			http_send_error(h, req, 500, "internal",
			    "out of memory");
			return -1;
		}
		a->pairs[2 * a->n] = key;
		a->pairs[2 * a->n + 1] = a->copies[a->n];
		a->n++;
	}
	return 0;
}

static void
admin_put(struct api *api, struct evhttp_request *req, const char *queue,
    const char *admin)
{
	struct put_args a = { .n = 0 };
	char seed[TICKET_HEX + 1] = "", commit[TICKET_HEX + 1];
	struct qs_put p;
	struct queue_conf q;
	struct api_call *c;
	json_t *doc = NULL;

	conf_queue_init(&q, queue);
	if (put_body(api->http, req, &q, &a, &doc) == -1)
		goto done;
	/* Kept only when the PUT gives the queue its first schedule. */
	if (ticket_new_seed(seed, commit) == -1) {
		http_send_error(api->http, req, 500, "internal", "no random "
		    "bytes for a seed");
		goto done;
	}
	p = (struct qs_put){ a.pairs, a.n, &q, seed, commit, admin };
	if ((c = api_call_new(api, req, queue, NULL)) != NULL)
		api_call_sent(c, qstore_put(api->qstore, queue, &p, put_done,
		    c));
done:
	explicit_bzero(seed, sizeof seed);
	for (int i = 0; i < a.n; i++)
		free(a.copies[i]);
	conf_queue_free(&q);
	json_decref(doc);
}

/* ---- DELETE ---------------------------------------------------------- */

static void
drop_done(enum result r, void *arg)
{
	struct api_call *c = arg;

	if (r != RESULT_OK)
		api_send_result(c, r);
	else {
		log_info("event=admin action=drop queue=%s", c->queue);
		admission_remove(c->api->admission, c->queue);
		/* Its passes: the next check asks Redis, which refuses them. */
		revoke_forget(c->api->revoke, c->queue);
		http_send_empty(c->api->http, c->req, 204);
	}
	free(c);
}

void
api_admin_queue(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct api_call *c;

	if (m->method == RM_PUT)
		admin_put(api, req, m->queue, m->admin);
	else if (m->method == RM_GET)
		admin_show(api, req, m->queue);
	else if ((c = api_call_new(api, req, m->queue, NULL)) != NULL)
		api_call_sent(c, qstore_drop(api->qstore, c->queue, m->admin,
		    drop_done, c));
}
