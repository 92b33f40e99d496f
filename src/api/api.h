/*
 * api.h: the endpoints (routes.def names each one's handler) and what
 * they share. A handler gets a request whose route, method, framing and
 * body size http.c and dispatch.c have already checked, and the client's
 * address as dispatch.c resolved it (the peer, or X-Forwarded-For behind
 * trusted_proxies). The handler owns what it allocates for the request
 * and answers it exactly once (http_reply.h), with api->http, the server
 * that took it in.
 */
#ifndef WR_API_H
#define WR_API_H

#include <event2/event.h>
#include <event2/http.h>

#include "clientaddr.h"
#include "conf.h"
#include "pass.h"
#include "qstore.h"
#include "reply.h"
#include "result.h"
#include "route.h"
#include "standing.h"
#include "validate.h"
#include "verdict.h"

struct admission;
struct challenge_key;
struct join_batch;
struct http;
struct pages;
struct passkeys;
struct ratelimit;
struct renewals;
struct revoke;
struct console_feed;
struct store;
struct streams;

/*
 * What the endpoints read: the parts below them, which the daemon makes
 * and gives here (daemon/app.h holds one), and the two facts of the
 * process's life the daemon sets. Every pointer is borrowed.
 */
struct api {
	struct conf *const *conf;	/* in force: a reload replaces *conf */
	struct store *store;		/* the Redis command connection */
	struct qstore *qstore;		/* every script call, typed */
	struct join_batch *join_batch;	/* joins waiting for a pass's end */
	struct http *http;		/* the server: every answer */
	struct admission *admission;	/* the ticks: notices, work asked */
	struct streams *streams;
	struct challenge_key *challenge;	/* the proofs of work's key */
	const struct pages *pages;	/* the waiting page's templates */
	/* The pass keys in force (*passkeys NULL: passes are off). */
	const struct passkeys *const *passkeys;
	struct revoke *revoke;		/* recent answers about passes */
	struct renewals *renewals;	/* recent renewals of sessions */
	struct ratelimit *ratelimit;	/* join_rate_per_ip */
	struct console_feed *feed;	/* the console's feeds */
	int worker;			/* -1: the single process */
	int draining;		/* shutting down: /readyz says 503 */
	int written;		/* the file's queues are in Redis: until
				 * then /readyz says 503 starting */
};

/* The configuration in force. */
static inline const struct conf *
api_conf(const struct api *api)
{
	return *api->conf;
}

/* The pass keys in force; NULL: passes are off. */
static inline const struct passkeys *
api_passkeys(const struct api *api)
{
	return *api->passkeys;
}

typedef void api_handler(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client);

#define ROUTE(id, pattern, methods, name, handler, kind) \
	api_handler handler;
#include "routes.def"
#undef ROUTE

/* A request waiting for the queue store: the handler's, freed by it. */
struct api_call {
	struct api *api;
	struct evhttp_request *req;
	char queue[CONF_QUEUE_ID_MAX + 1];
	char token[VALID_TOKEN_LEN + 1];
};

/* A new call for queue (and token, or NULL); NULL after answering 500. */
struct api_call *api_call_new(struct api *api, struct evhttp_request *req,
    const char *queue, const char *token);
/*
 * rc is what the qstore call for c returned: on -1 answer 503 and free c
 * (and return -1); else the request waits for Redis (http_await).
 */
int api_call_sent(struct api_call *c, int rc);
/* Answer c's request as result.h says for r (an error, for the API). */
void api_send_result(struct api_call *c, enum result r);
/* Answer req with the refusal of a guard (verdict.h), and clear it. */
void api_send_verdict(struct api *api, struct evhttp_request *req,
    struct verdict *v);

/* Publish this worker's streams and reconnects for /metrics (each second). */
void api_metrics_publish(struct api *api);

/*
 * The console's feed (api_console_feed.c): its feeds and this process's
 * beat. Each second: the beat, and the room read for the feeds open here.
 * Leave: the process stops, forget its beat. Stop ends every feed (before
 * store_free); free after http_free.
 */
struct console_feed *console_feed_new(struct api *api);
void console_feed_second(struct api *api);
void console_feed_leave(struct api *api);
void console_feed_stop(struct console_feed *f);
void console_feed_free(struct console_feed *f);
struct metrics;
struct mshare_live;
/*
 * The streams and reconnects of every worker (fresh for this one), and in
 * m, unless NULL, their counters added up. Valid until the next call.
 */
const struct mshare_live *api_live_total(struct api *api, struct metrics *m);

/*
 * The figures (admin_show.lua) of names, or of every queue this instance
 * ticks when names is NULL, for the admin API and /metrics: names[i]
 * pairs with f[i]. -1 when the store is not ready.
 */
struct queue_figures;
typedef void api_figures_cb(enum result r, const char *const *names,
    const struct queue_figures *f, size_t n, void *arg);
int api_figures(struct api *api, const char *const *names, size_t n,
    api_figures_cb *cb, void *arg);

/*
 * Entry passes: sign the pass of an active status into buf (PASS_MAX
 * bytes) and point st->pass at it; nothing when passes are off.
 */
void api_pass_attach(struct api *api, struct token_status *st, char *buf);
/* Set-Cookie with the pass of st, when it has one. */
void api_pass_cookie(struct api *api, struct evhttp_request *req,
    const struct token_status *st);
/* The same cookie in another header (for nginx: X-Waitroom-Set-Cookie). */
void api_pass_cookie_as(struct api *api, struct evhttp_request *req,
    const struct token_status *st, const char *header);

/*
 * The guards of a join: each says 0 to go on, or -1 with its refusal in
 * v, which the handler sends. None answers, or touches Redis.
 */
/* The browser-origin rule: 403 forbidden_origin. */
int api_join_origin(struct api *api, struct evhttp_request *req,
    struct verdict *v);
/* join_rate_per_ip for client: 429 rate_limited with Retry-After. */
int api_join_rate(struct api *api, const char *client, struct verdict *v);

/* A join's proof of work, once checked: the use it spends in Redis. */
struct api_proof {
	int has_use;
	struct qs_use use;	/* its id points into id */
	char id[23];
};
/*
 * Does the join carry the proof of work its queue asks now (challenge
 * and nonce from its body, NULL when none)? 0 to go on, with p's use for
 * the join when it carried one; or -1: 403 challenge_required,
 * challenge_failed or challenge_expired (or 503 while the key is not
 * read yet).
 */
int api_join_proof(struct api *api, const char *queue, const char *challenge,
    const char *nonce, struct api_proof *p, struct verdict *v);
/* A join whose challenge was used already (RESULT_USED): 403, into v. */
void api_join_used(struct api *api, const char *queue, struct verdict *v);

/* Tell this process's pass cache that token's session ended. */
void api_session_ended(struct api *api, const char *queue,
    const char *token);
/*
 * The answer to a leave or a kick (qstore.h): r's error, or 204 with
 * this process's pass cache told when a session ended. c is freed.
 */
void api_token_removed(struct api_call *c, enum result r, int was_active);

#endif
