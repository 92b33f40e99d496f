/*
 * api_check.c: GET /v1/check[?queue=q], the question nginx's auth_request
 * asks before every request to the protected site: is this visitor's entry
 * pass (the pass cookie, or Authorization: Bearer) valid? 204 with
 * X-Waitroom-Queue, X-Waitroom-Token and X-Waitroom-Expires when it is,
 * 401 otherwise.
 *
 * The signature and claims are checked here, in memory. Whether the
 * session was ended (DELETE of the token) or the queue dropped (DELETE of
 * the queue) is asked of Redis in one lookup, at most about once a second
 * per pass thanks to revoke.c (the store records the session's first
 * check on the way, for noshow_after); while Redis is unreachable, a
 * pass that is signed and unexpired is accepted: admitted visitors keep
 * their session through a Redis outage, as a stateless pass promises.
 *
 * A pass accepted renews its session in a queue with renew = yes
 * (renew.lua, asked at most once a second per pass thanks to
 * renewals.c), and comes back fresh once half its life is gone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "api.h"
#include "cookie.h"
#include "http_reply.h"
#include "log.h"
#include "renewals.h"
#include "revoke.h"
#include "qstore.h"
#include "validate.h"

struct check_call {
	struct api *api;
	struct evhttp_request *req;
	struct pass_claims c;
};

static long long
check_now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void
check_deny(struct api *api, struct evhttp_request *req,
    enum pass_verdict v)
{
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "WWW-Authenticate", "Bearer realm=\"waitroom\"");
	http_send_error(api->http, req, 401, "unauthorized", "%s",
	    pass_verdict_text(v));
}

static void
check_allow(struct api *api, struct evhttp_request *req,
    const struct pass_claims *c)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	char exp[24];

	snprintf(exp, sizeof exp, "%lld", c->exp);
	evhttp_add_header(out, "X-Waitroom-Queue", c->queue);
	evhttp_add_header(out, "X-Waitroom-Token", c->token);
	evhttp_add_header(out, "X-Waitroom-Expires", exp);
	http_send_empty(api->http, req, 204);
}

/*
 * A pass renewed: its session now ends at end (unix seconds). When the
 * pass has less than half its life left, a fresh one rides along in
 * X-Waitroom-Pass, and as a whole cookie in X-Waitroom-Set-Cookie, which
 * nginx's auth_request_set hands to add_header Set-Cookie.
 */
static void
check_fresh_pass(struct api *api, struct evhttp_request *req,
    struct pass_claims *c, long long end)
{
	long long now = check_now_ms() / 1000;
	struct token_status st = { .queue = c->queue, .token = c->token,
	    .active = 1, .active_until = end };
	char buf[PASS_MAX];

	if (end <= c->exp)
		return;
	if ((c->exp - now) * 2 < c->exp - c->iat) {
		api_pass_attach(api, &st, buf);
		if (st.pass != NULL) {
			evhttp_add_header(evhttp_request_get_output_headers(req),
			    "X-Waitroom-Pass", st.pass);
			api_pass_cookie_as(api, req, &st,
			    "X-Waitroom-Set-Cookie");
		}
	}
	c->exp = end;
}

struct renew_call {
	struct api *api;
	struct evhttp_request *req;
	struct pass_claims c;
};

static void
check_renew_done(enum result r, const struct renewal *rn, void *arg)
{
	struct renew_call *k = arg;

	if (r == RESULT_OK || r == RESULT_GONE) {
		/* gone: the pass alone decides until it expires */
		renewals_put(k->api->renewals, k->c.queue, k->c.token, rn,
		    check_now_ms());
		if (r == RESULT_OK && !rn->renews)
			renewals_put_fixed(k->api->renewals, k->c.queue,
			    check_now_ms());
		if (rn->renews)
			check_fresh_pass(k->api, k->req, &k->c,
			    rn->expiry_ms / 1000);
	}
	check_allow(k->api, k->req, &k->c);
	free(k);
}

/* A pass in good standing: its session slides on (renew = yes). */
static void
check_renew(struct api *api, struct evhttp_request *req,
    const struct pass_claims *c)
{
	struct renew_call *k;
	struct renewal rn;
	struct pass_claims fresh = *c;

	if (renewals_fixed(api->renewals, c->queue, check_now_ms())) {
		check_allow(api, req, c);
		return;
	}
	if (renewals_get(api->renewals, c->queue, c->token, check_now_ms(),
	    &rn)) {
		if (rn.renews)
			check_fresh_pass(api, req, &fresh, rn.expiry_ms / 1000);
		check_allow(api, req, &fresh);
		return;
	}
	if ((k = calloc(1, sizeof *k)) == NULL) {
		check_allow(api, req, c);
		return;
	}
	k->api = api, k->req = req, k->c = *c;
	if (qstore_renew(api->qstore, c->queue, c->token, check_renew_done,
	    k) == -1) {
		check_allow(api, req, c);
		free(k);
	}
}

/* 204 for PASS_OK (renewing the session), else 401 saying why. */
static void
check_answer(struct api *api, struct evhttp_request *req,
    enum pass_verdict v, const struct pass_claims *c)
{
	if (v == PASS_OK)
		check_renew(api, req, c);
	else
		check_deny(api, req, v);
}

static void
check_lookup_done(enum result r, const struct revoke_facts *f, void *arg)
{
	static const struct revoke_facts unknown = { 0, 0 };
	struct check_call *k = arg;

	if (r != RESULT_OK) {
		/* The signature is all we can go by, for a second. */
		log_debug("event=check_unverified queue=%s reason=store",
		    k->c.queue);
		f = &unknown;
	}
	revoke_put(k->api->revoke, k->c.queue, k->c.token, f, check_now_ms());
	check_answer(k->api, k->req, revoke_verdict(f, k->c.iat), &k->c);
	free(k);
}

/* A valid pass: has its session been ended, or its queue dropped? */
static void
check_refusals(struct api *api, struct evhttp_request *req,
    const struct pass_claims *c)
{
	struct check_call *k;
	int known = revoke_get(api->revoke, c->queue, c->token, c->iat,
	    check_now_ms());

	if (known >= 0) {
		check_answer(api, req, (enum pass_verdict)known, c);
		return;
	}
	if ((k = calloc(1, sizeof *k)) == NULL) {
		http_send_error(api->http, req, 500, "internal",
		    "out of memory");
		return;
	}
	k->api = api, k->req = req, k->c = *c;
	if (qstore_lookup(api->qstore, c->queue, c->token, check_lookup_done,
	    k) == -1) {
		/* Not connected: the signature is all we can go by. */
		check_allow(api, req, c);
		free(k);
	}
}

/* The pass: Authorization: Bearer first, else the pass cookie. */
static int
check_find_pass(struct api *api, struct evhttp_request *req,
    const char **pass, size_t *len)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *auth = evhttp_find_header(in, "Authorization");

	if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
		*pass = auth + 7 + strspn(auth + 7, " ");
		*len = strlen(*pass);
		return 0;
	}
	for (struct evkeyval *h = in->tqh_first; h; h = h->next.tqe_next)
		if (strcasecmp(h->key, "Cookie") == 0 && cookie_find(h->value,
		    api_conf(api)->pass_cookie, pass, len) == 0)
			return 0;
	return -1;
}

/* ?queue=q: 0 and *queue (NULL when absent), or -1 after answering 400. */
static int
check_queue_arg(struct api *api, struct evhttp_request *req,
    struct evkeyvalq *q, const char **queue)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *query = uri ? evhttp_uri_get_query(uri) : NULL;

	*queue = NULL;
	if (query == NULL)
		return 0;
	if (evhttp_parse_query_str(query, q) == -1) {
		http_send_error(api->http, req, 400, "bad_request", "malformed "
		    "query string (accepted: ?queue=NAME)");
		return -1;
	}
	*queue = evhttp_find_header(q, "queue");
	if (*queue && !valid_queue_id(*queue)) {
		http_send_bad_queue(api->http, req);
		return -1;
	}
	return 0;
}

void
api_check(struct api *api, struct evhttp_request *req,
    const struct route_match *m, const char *client)
{
	struct evkeyvalq q = { NULL, NULL };
	const char *queue, *pass = NULL;
	struct pass_claims c;
	enum pass_verdict v;
	size_t len = 0;

	if (check_queue_arg(api, req, &q, &queue) == -1)
		goto done;
	if (api_passkeys(api) == NULL) {
		http_send_error(api->http, req, 401, "unauthorized", "entry "
		    "passes are off: this server has no pass_key_file");
		goto done;
	}
	check_find_pass(api, req, &pass, &len);
	v = pass_verify(api_passkeys(api), pass ? pass : "", len,
	    check_now_ms() / 1000, queue, &c);
	if (v != PASS_OK)
		check_deny(api, req, v);
	else
		check_refusals(api, req, &c);
done:
	evhttp_clear_headers(&q);
}
