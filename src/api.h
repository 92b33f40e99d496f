/*
 * api.h: the endpoints. Each handler gets a request whose route, method,
 * framing and body size http.c has already checked.
 */
#ifndef WR_API_H
#define WR_API_H

#include <event2/http.h>
#include <hiredis/hiredis.h>

#include "app.h"
#include "keys.h"
#include "lua_scripts.h"
#include "pass.h"
#include "reply.h"
#include "route.h"

#define API_QUEUE_KEYS 7

typedef void api_handler(struct app *app, struct evhttp_request *req,
    const struct route_match *m);

api_handler api_healthz, api_readyz;
api_handler api_join, api_token;
api_handler api_summary;
api_handler api_events;
api_handler api_page, api_asset;
api_handler api_metrics;
/* Publish this worker's streams and reconnects for /metrics (each second). */
void api_metrics_publish(struct app *app);
struct metrics;
struct mshare_live;
/*
 * The streams and reconnects of every worker (fresh for this one), and in
 * m, unless NULL, their counters added up. Valid until the next call.
 */
const struct mshare_live *api_live_total(struct app *app, struct metrics *m);
api_handler api_admin_list, api_admin_queue;
api_handler api_admin_state, api_admin_promote, api_admin_kick;
api_handler api_check;

/* One Redis round trip on behalf of a request. */
struct api_call {
	struct app *app;
	struct evhttp_request *req;
	char queue[CONF_QUEUE_ID_MAX + 1];
	char token[37];
	void (*done)(struct api_call *c, const redisReply *r);
	/* Optional: runs (before the answer) when Redis did not answer. */
	void (*fail)(struct api_call *c);
	/* Optional: answers instead of the JSON 503 or 500 (an HTML page). */
	void (*answer_error)(struct api_call *c, int code);
	/* The answer may be an event stream: no http_await while it waits. */
	int stream;
};

struct store_result;
/* Answer c from res (c->done when Redis answered, else 503 or 500). Frees c. */
void api_call_answer(struct api_call *c, const struct store_result *res);
/* Answer c 503 store_unavailable (or its answer_error). Frees c. */
void api_call_unavailable(struct api_call *c);

/* The queue's keys in lib.lua's order, into argv[0..API_QUEUE_KEYS-1]. */
void api_queue_argv(struct app *app, const char *queue, struct queue_keys *k,
    const char *argv[API_QUEUE_KEYS]);

/*
 * Run script for c; c->done gets the reply when Redis answered. Any other
 * outcome (not ready, unreachable, error) is answered here. Takes c.
 */
void api_call_run(struct api_call *c, enum lua_script_id script, int nkeys,
    int argc, const char *const *argv);

/*
 * Figures of several queues (lua/admin_show.lua) in one round trip; the
 * names ride along so done can pair each reply entry with its queue.
 */
struct show_call {
	struct api_call call;	/* first: api.c frees it as an api_call */
	size_t n;
	char names[][CONF_QUEUE_ID_MAX + 1];
};

/* Run admin_show.lua for names (the queues admission ticks when NULL). */
void api_show_run(struct app *app, struct evhttp_request *req,
    const char *const *names, size_t n,
    void (*done)(struct api_call *c, const redisReply *r));

/* A new api_call for an endpoint of queue; NULL after answering 500. */
struct api_call *api_call_new(struct app *app, struct evhttp_request *req,
    const char *queue, void (*done)(struct api_call *, const redisReply *));

/*
 * Entry passes: sign the pass of an active status into buf (PASS_MAX
 * bytes) and point st->pass at it; nothing when passes are off.
 */
void api_pass_attach(struct app *app, struct token_status *st, char *buf);
/* Set-Cookie with the pass of st, when it has one. */
void api_pass_cookie(struct app *app, struct evhttp_request *req,
    const struct token_status *st);

/* Joins: 0 to go on, or -1 after answering 403 forbidden_origin. */
int api_join_origin(struct app *app, struct evhttp_request *req);
/* Joins: 0 to go on, or -1 after answering 429 rate_limited. */
int api_join_rate(struct app *app, struct evhttp_request *req);
/* The client's address (46 bytes), behind trusted_proxies. */
void api_client_addr(struct app *app, struct evhttp_request *req,
    char out[46]);

/* End c->token's place or session with script, revoking its pass. */
void api_end_session(struct api_call *c, enum lua_script_id script);
/* Tell this process's pass cache that c->token's session ended. */
void api_session_ended(struct api_call *c);

/* Reply to a script's result that is not a success ("no_queue"...). */
void api_reply_result(struct api_call *c, const char *result);

#endif
