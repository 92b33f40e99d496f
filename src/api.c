/* api.c: what every endpoint that calls a script shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admission.h"
#include "api.h"
#include "conf.h"
#include "cookie.h"
#include "http.h"
#include "keys.h"
#include "log.h"
#include "pass.h"
#include "revoke.h"
#include "store.h"
#include "text.h"

void
api_queue_argv(struct app *app, const char *queue, struct queue_keys *k,
    const char *argv[API_QUEUE_KEYS])
{
	keys_queue(k, app->conf->key_prefix, queue);
	argv[0] = k->config, argv[1] = k->seq, argv[2] = k->waiting;
	argv[3] = k->active, argv[4] = k->seen, argv[5] = k->stats;
	argv[6] = k->tick;
}

void
api_call_answer(struct api_call *c, const struct store_result *res)
{
	if (res->status != STORE_OK && c->fail)
		c->fail(c);
	switch (res->status) {
	case STORE_OK:
		c->done(c, res->reply);
		break;
	case STORE_UNAVAILABLE:
		if (c->answer_error) {
			c->answer_error(c, 503);
			break;
		}
		http_send_unavailable(c->req);
		break;
	default:
		log_error("event=script_error queue=%s error=\"%s\"", c->queue,
		    res->error ? res->error : "");
		if (c->answer_error) {
			c->answer_error(c, 500);
			break;
		}
		http_send_error(c->req, 500, "internal",
		    "the queue store answered an unexpected error");
	}
	free(c);
}

static void
api_call_done(const struct store_result *res, void *arg)
{
	api_call_answer(arg, res);
}

void
api_call_unavailable(struct api_call *c)
{
	struct store_result res = { STORE_UNAVAILABLE, NULL, "not ready" };

	api_call_answer(c, &res);
}

void
api_call_run(struct api_call *c, enum lua_script_id script, int nkeys,
    int argc, const char *const *argv)
{
	if (!c->stream)
		http_await(c->req);
	if (store_eval(c->app->store, script, nkeys, argc, argv, NULL,
	    api_call_done, c) == -1)
		api_call_unavailable(c);
}

void
api_pass_attach(struct app *app, struct token_status *st, char *buf)
{
	struct pass_claims c;

	if (app->passkeys == NULL || !st->active)
		return;
	snprintf(c.queue, sizeof c.queue, "%s", st->queue);
	snprintf(c.token, sizeof c.token, "%s", st->token);
	c.iat = c.nbf = (long long)time(NULL);
	c.exp = st->active_until;
	if (pass_sign(app->passkeys, &c, buf, PASS_MAX) == 0)
		st->pass = buf;
	else
		log_error("event=pass_sign_failed queue=%s", st->queue);
}

void
api_pass_cookie(struct app *app, struct evhttp_request *req,
    const struct token_status *st)
{
	char buf[PASS_MAX + 512];

	if (st->pass == NULL || cookie_set(buf, sizeof buf,
	    app->conf->pass_cookie, st->pass,
	    st->active_until - (long long)time(NULL),
	    app->conf->pass_cookie_domain, app->conf->pass_cookie_secure) == -1)
		return;
	evhttp_add_header(evhttp_request_get_output_headers(req), "Set-Cookie",
	    buf);
}

void
api_reply_result(struct api_call *c, const char *result)
{
	if (strcmp(result, "no_queue") == 0)
		http_send_error(c->req, 404, "queue_not_found",
		    "no queue named '%s'", c->queue);
	else if (strcmp(result, "gone") == 0)
		http_send_error(c->req, 404, "token_not_found", "this token "
		    "is not in queue '%s' (it left, expired, or never existed)",
		    c->queue);
	else if (strcmp(result, "closed") == 0)
		http_send_error(c->req, 409, "queue_closed",
		    "queue '%s' does not accept new visitors now", c->queue);
	else if (strcmp(result, "full") == 0) {
		evhttp_add_header(evhttp_request_get_output_headers(c->req),
		    "Retry-After", "10");
		http_send_error(c->req, 503, "queue_full",
		    "the line for '%s' is full; try again later", c->queue);
	} else {
		log_error("event=bad_script_reply queue=%s result=%s",
		    c->queue, result);
		http_send_error(c->req, 500, "internal",
		    "the queue store answered something unexpected");
	}
}

struct api_call *
api_call_new(struct app *app, struct evhttp_request *req, const char *queue,
    void (*done)(struct api_call *, const redisReply *))
{
	struct api_call *c = calloc(1, sizeof *c);

	if (c == NULL) {
		http_send_error(req, 500, "internal", "out of memory");
		return NULL;
	}
	c->app = app, c->req = req, c->done = done;
	text_copy(c->queue, sizeof c->queue, queue);
	return c;
}

#define API_SHOW_MAX 4096	/* queues in one answer */

void
api_show_run(struct app *app, struct evhttp_request *req,
    const char *const *names, size_t n,
    void (*done)(struct api_call *c, const redisReply *r))
{
	const char *known[API_SHOW_MAX], **argv = NULL;
	struct queue_keys *k = NULL;
	struct show_call *sc;

	if (names == NULL) {
		n = admission_names(app->admission, known, API_SHOW_MAX);
		names = known;
	}
	sc = calloc(1, sizeof *sc + (n ? n : 1) * sizeof sc->names[0]);
	k = calloc(n ? n : 1, sizeof *k);
	argv = calloc(n ? n * API_QUEUE_KEYS : 1, sizeof *argv);
	if (sc == NULL || k == NULL || argv == NULL) {
		free(sc);
		http_send_error(req, 500, "internal", "out of memory");
		goto done;
	}
	sc->call.app = app, sc->call.req = req, sc->call.done = done;
	sc->n = n;
	if (n == 1)
		snprintf(sc->call.queue, sizeof sc->call.queue, "%s", names[0]);
	for (size_t i = 0; i < n; i++) {
		snprintf(sc->names[i], sizeof sc->names[i], "%s", names[i]);
		api_queue_argv(app, names[i], &k[i], argv + i * API_QUEUE_KEYS);
	}
	api_call_run(&sc->call, LUA_ADMIN_SHOW, (int)(n * API_QUEUE_KEYS),
	    (int)(n * API_QUEUE_KEYS), argv);
done:
	free(k);
	free(argv);
}

/*
 * Run script (leave.lua, admin_kick.lua) to end c->token's place or
 * session; KEYS[8] is its revoked key and ARGV the token, the events
 * channel and the checkers' leeway, so an ended session's pass dies.
 */
void
api_end_session(struct api_call *c, enum lua_script_id script)
{
	const char *argv[API_QUEUE_KEYS + 4];
	char revoked[KEYS_MAX + 48], leeway[16];
	struct queue_keys k;

	api_queue_argv(c->app, c->queue, &k, argv);
	keys_revoked(revoked, sizeof revoked, c->app->conf->key_prefix,
	    c->queue, c->token);
	snprintf(leeway, sizeof leeway, "%d", PASS_LEEWAY * 1000);
	argv[API_QUEUE_KEYS] = revoked;
	argv[API_QUEUE_KEYS + 1] = c->token;
	argv[API_QUEUE_KEYS + 2] = k.events;	/* a slot may refill */
	argv[API_QUEUE_KEYS + 3] = leeway;
	api_call_run(c, script, API_QUEUE_KEYS + 1, API_QUEUE_KEYS + 4, argv);
}

/* An ended session: this process knows at once, others from Redis. */
void
api_session_ended(struct api_call *c)
{
	revoke_put(c->app->revoke, c->queue, c->token, 1,
	    (long long)time(NULL) * 1000);
}
