/*
 * api_admin.c: the admin API's queues: GET /v1/admin/queues (every queue),
 * GET, PUT and DELETE /v1/admin/queues/{q}. http.c has checked the bearer
 * token. A PUT is checked field by field with conf.c's key table, the one
 * the configuration file goes through, before anything touches Redis.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "admission.h"
#include "api.h"
#include "conf.h"
#include "figures.h"
#include "http.h"
#include "log.h"
#include "metrics_share.h"

#define ADMIN_FIELDS_MAX 32	/* field/value pairs a PUT may carry */

/* One queue's figures; live holds the streams of every worker. */
static json_t *
queue_entry(const redisReply *e, const char *name,
    const struct mshare_live *live)
{
	struct figures f;

	if (figures_parse(e, &f) == -1 || !f.exists)
		return NULL;
	return figures_json(&f, name, mshare_queue_streams(live, name));
}

static int
show_shaped(struct api_call *c, const redisReply *r)
{
	if (r->type == REDIS_REPLY_ARRAY &&
	    r->elements == ((struct show_call *)c)->n)
		return 1;
	http_send_error(c->req, 500, "internal",
	    "the queue store answered something unexpected");
	return 0;
}

static void
list_done(struct api_call *c, const redisReply *r)
{
	struct show_call *sc = (struct show_call *)c;
	const struct mshare_live *live;
	json_t *queues = json_array(), *q;

	if (!show_shaped(c, r)) {
		json_decref(queues);
		return;
	}
	live = api_live_total(c->app, NULL);
	for (size_t i = 0; i < sc->n; i++)
		if ((q = queue_entry(r->element[i], sc->names[i], live)) != NULL)
			json_array_append_new(queues, q);
	http_send_json(c->req, 200, json_pack("{s:o}", "queues", queues));
}

void
api_admin_list(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	api_show_run(app, req, NULL, 0, list_done);
}

static void
show_done(struct api_call *c, const redisReply *r)
{
	json_t *q;

	if (!show_shaped(c, r))
		return;
	if ((q = queue_entry(r->element[0], c->queue,
	    api_live_total(c->app, NULL))) == NULL) {
		api_reply_result(c, "no_queue");
		return;
	}
	http_send_json(c->req, 200, q);
}

/* ---- PUT --------------------------------------------------------------- */

struct put_args {
	const char *argv[4 + 4 * ADMIN_FIELDS_MAX];
	char *copies[2 * ADMIN_FIELDS_MAX];
	int argc, ncopies;
};

static void
put_add(struct put_args *a, const char *key, const char *value)
{
	char *copy = strdup(value);

	if (copy == NULL)
		return;
	a->copies[a->ncopies++] = copy;
	a->argv[a->argc++] = key;
	a->argv[a->argc++] = copy;
}

static void
put_add_field(const char *key, const char *value, void *arg)
{
	put_add(arg, key, value);
}

static void
put_done(struct api_call *c, const redisReply *r)
{
	int created;

	if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
	    r->element[0]->type != REDIS_REPLY_STRING ||
	    r->element[1]->type != REDIS_REPLY_ARRAY) {
		api_reply_result(c, "bad reply");
		return;
	}
	created = strcmp(r->element[0]->str, "created") == 0;
	log_info("event=admin action=%s queue=%s", created ? "create" :
	    "update", c->queue);
	if (admission_add(c->app->admission, c->queue) == -1)
		log_error("event=tick_start_failed queue=%s", c->queue);
	http_send_json(c->req, created ? 201 : 200, json_pack("{s:s,s:s,s:o}",
	    "queue", c->queue, "result", r->element[0]->str, "config",
	    figures_config_json(r->element[1])));
}

static void
put_refuse(struct evhttp_request *req, const char *field, const char *msg)
{
	http_send_json(req, 400, json_pack("{s:{s:s,s:s,s:s}}", "error",
	    "code", "bad_request", "message", msg, "field", field));
}

/* One field of the body into q; -1 after answering 400. */
static int
put_field(struct evhttp_request *req, struct queue_conf *q, const char *key,
    json_t *v, char *text, size_t size)
{
	char err[CONF_ERR_MAX];

	if (conf_queue_key_kind(key) == CONF_LOCAL) {
		snprintf(err, sizeof err, "key '%s' is kept by each host: set it "
		    "in waitroom.conf", key);
		put_refuse(req, key, err);
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
		put_refuse(req, key, err);
		return -1;
	}
	if (conf_queue_set(q, key, text, err, sizeof err) == -1) {
		put_refuse(req, key, err);
		return -1;
	}
	return 0;
}

/* The body's fields, checked; the given pairs go into a. -1: answered. */
static int
put_body(struct evhttp_request *req, struct queue_conf *q,
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
		http_send_error(req, 400, "bad_json", "the body is not valid "
		    "JSON: %s (line %d)", jerr.text, jerr.line);
		return -1;
	}
	if (!json_is_object(*doc)) {
		http_send_error(req, 400, "bad_request", "the body is a JSON "
		    "object of configuration fields, such as {\"batch\": 500}");
		return -1;
	}
	if (json_object_size(*doc) > ADMIN_FIELDS_MAX) {
		http_send_error(req, 400, "bad_request", "at most %d fields",
		    ADMIN_FIELDS_MAX);
		return -1;
	}
	json_object_foreach(*doc, key, v) {
		if (put_field(req, q, key, v, text, sizeof text) == -1)
			return -1;
		put_add(a, key, text);
	}
	return 0;
}

static void
admin_put(struct app *app, struct evhttp_request *req, const char *queue)
{
	struct put_args a = { .argc = 0 };
	struct queue_conf q;
	struct queue_keys k;
	struct api_call *c;
	char registry[KEYS_MAX], n[16];
	json_t *doc = NULL;

	conf_queue_init(&q, queue);
	keys_queue(&k, app->conf->key_prefix, queue);
	keys_registry(registry, app->conf->key_prefix);
	a.argv[0] = k.config, a.argv[1] = registry, a.argv[2] = queue;
	a.argv[3] = n, a.argc = 4;
	if (put_body(req, &q, &a, &doc) == -1 ||
	    (c = api_call_new(app, req, queue, put_done)) == NULL)
		goto done;
	snprintf(n, sizeof n, "%d", (a.argc - 4) / 2);
	conf_queue_fields(&q, put_add_field, &a);
	api_call_run(c, LUA_ADMIN_PUT, 2, a.argc, a.argv);
done:
	for (int i = 0; i < a.ncopies; i++)
		free(a.copies[i]);
	conf_queue_free(&q);
	json_decref(doc);
}

/* ---- DELETE ---------------------------------------------------------- */

static void
drop_done(struct api_call *c, const redisReply *r)
{
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 1 ||
	    r->element[0]->type != REDIS_REPLY_STRING ||
	    strcmp(r->element[0]->str, "dropped") != 0) {
		api_reply_result(c, r->type == REDIS_REPLY_ARRAY &&
		    r->elements == 1 ? r->element[0]->str : "bad reply");
		return;
	}
	log_info("event=admin action=drop queue=%s", c->queue);
	admission_remove(c->app->admission, c->queue);
	http_send_empty(c->req, 204);
}

static void
admin_drop(struct app *app, struct evhttp_request *req, const char *queue)
{
	const char *argv[API_QUEUE_KEYS + 3];
	char registry[KEYS_MAX];
	struct queue_keys k;
	struct api_call *c;

	if ((c = api_call_new(app, req, queue, drop_done)) == NULL)
		return;
	api_queue_argv(app, queue, &k, argv);
	keys_registry(registry, app->conf->key_prefix);
	argv[API_QUEUE_KEYS] = registry;
	argv[API_QUEUE_KEYS + 1] = c->queue;
	argv[API_QUEUE_KEYS + 2] = k.events;
	api_call_run(c, LUA_ADMIN_DROP, API_QUEUE_KEYS + 1, API_QUEUE_KEYS + 3,
	    argv);
}

void
api_admin_queue(struct app *app, struct evhttp_request *req,
    const struct route_match *m)
{
	const char *names[1] = { m->queue };

	if (m->method == RM_PUT)
		admin_put(app, req, m->queue);
	else if (m->method == RM_DELETE)
		admin_drop(app, req, m->queue);
	else
		api_show_run(app, req, names, 1, show_done);
}
