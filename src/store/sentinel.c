/*
 * sentinel.c: see sentinel.h.
 *
 * Invariants, from hiredis 0.14's async API:
 * - sn->ac is the connection of the question being asked, or NULL; a
 *   reply or event of any other context (one being closed, or given up on
 *   by the deadline) is ignored, so late callbacks never act twice.
 * - The next sentinel is tried from a timer (sn->next), never from inside
 *   a hiredis callback.
 * - sn->wac is the watching connection, or NULL; losing it retries the
 *   next sentinel after a second.
 */
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/adapters/libevent.h>

#include "log.h"
#include "sentinel.h"

#define SENTINEL_ASK_MS 1000	/* one sentinel's time to answer */
#define SENTINEL_WATCH_RETRY_MS 1000

struct sentinel {
	struct event_base *base;
	struct sentinel_spec spec;
	char *password;
	/* the question */
	redisAsyncContext *ac;
	int first;		/* the sentinel that answered last */
	int tried;		/* sentinels asked in this round */
	int busy;
	sentinel_addr_cb *cb;
	void *arg;
	struct event *deadline, *next;
	/* the watch */
	redisAsyncContext *wac;
	int wat;
	struct event *wretry;
	void (*switch_cb)(void *);
	void *switch_arg;
};

static void ask_next(evutil_socket_t fd, short what, void *arg);

static redisAsyncContext *
connect_to(struct sentinel *sn, int i)
{
	redisAsyncContext *ac = redisAsyncConnect(sn->spec.host[i],
	    sn->spec.port[i]);

	if (ac == NULL || ac->err) {
		if (ac)
			redisAsyncFree(ac);
		return NULL;
	}
	ac->data = sn;
	redisLibeventAttach(ac, sn->base);
	if (sn->password)
		redisAsyncCommand(ac, NULL, NULL, "AUTH %s", sn->password);
	return ac;
}

/* Give up on the sentinel being asked; ask the next one from the loop. */
static void
ask_failed(struct sentinel *sn, const char *why)
{
	int i = (sn->first + sn->tried - 1) % sn->spec.n;

	log_debug("event=sentinel_ask_failed sentinel=%s:%d error=\"%s\"",
	    sn->spec.host[i], sn->spec.port[i], why);
	sn->ac = NULL;
	evtimer_del(sn->deadline);
	event_active(sn->next, 0, 0);
}

static void
answer(struct sentinel *sn, const char *host, int port)
{
	sentinel_addr_cb *cb = sn->cb;

	sn->busy = 0;
	evtimer_del(sn->deadline);
	cb(host, port, sn->arg);
}

static void
on_master(redisAsyncContext *ac, void *reply, void *priv)
{
	struct sentinel *sn = priv;
	redisReply *r = reply;
	int port;

	if (ac != sn->ac)
		return;
	if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
	    r->element[0]->type != REDIS_REPLY_STRING ||
	    r->element[1]->type != REDIS_REPLY_STRING ||
	    (port = atoi(r->element[1]->str)) < 1 || port > 65535) {
		ask_failed(sn, r && r->type == REDIS_REPLY_ERROR ? r->str :
		    "no address for the master");
		redisAsyncDisconnect(ac);
		return;
	}
	/* The one that answered is asked first next time. */
	sn->first = (sn->first + sn->tried - 1) % sn->spec.n;
	sn->ac = NULL;
	redisAsyncDisconnect(ac);
	answer(sn, r->element[0]->str, port);
}

static void
on_connect(const redisAsyncContext *ac, int status)
{
	struct sentinel *sn = ac->data;

	if (status != REDIS_OK && ac == sn->ac)
		ask_failed(sn, ac->errstr);
}

static void
on_disconnect(const redisAsyncContext *ac, int status)
{
	struct sentinel *sn = ac->data;

	if (ac == sn->ac)
		ask_failed(sn, "disconnected");
}

static void
ask_deadline(evutil_socket_t fd, short what, void *arg)
{
	struct sentinel *sn = arg;
	redisAsyncContext *ac = sn->ac;

	ask_failed(sn, "no answer in time");
	if (ac)
		redisAsyncFree(ac);	/* its callbacks see ac != sn->ac */
}

static void
ask_next(evutil_socket_t fd, short what, void *arg)
{
	struct sentinel *sn = arg;
	struct timeval tv = { SENTINEL_ASK_MS / 1000,
	    (SENTINEL_ASK_MS % 1000) * 1000 };
	int i;

	if (sn->tried == sn->spec.n) {
		answer(sn, NULL, 0);
		return;
	}
	i = (sn->first + sn->tried++) % sn->spec.n;
	if ((sn->ac = connect_to(sn, i)) == NULL) {
		event_active(sn->next, 0, 0);
		return;
	}
	redisAsyncSetConnectCallback(sn->ac, on_connect);
	redisAsyncSetDisconnectCallback(sn->ac, on_disconnect);
	redisAsyncCommand(sn->ac, on_master, sn,
	    "SENTINEL get-master-addr-by-name %s", sn->spec.master);
	evtimer_add(sn->deadline, &tv);
}

int
sentinel_resolve(struct sentinel *sn, sentinel_addr_cb *cb, void *arg)
{
	if (sn->busy)
		return -1;
	sn->busy = 1, sn->tried = 0;
	sn->cb = cb, sn->arg = arg;
	event_active(sn->next, 0, 0);
	return 0;
}

/* ---- the watch ---------------------------------------------------------- */

static void watch_start(struct sentinel *sn);

static void
watch_lost(struct sentinel *sn)
{
	struct timeval tv = { SENTINEL_WATCH_RETRY_MS / 1000,
	    (SENTINEL_WATCH_RETRY_MS % 1000) * 1000 };

	sn->wac = NULL;
	sn->wat = (sn->wat + 1) % sn->spec.n;
	evtimer_add(sn->wretry, &tv);
}

/* "<master> <old-ip> <old-port> <new-ip> <new-port>" on +switch-master. */
static void
on_switch(redisAsyncContext *ac, void *reply, void *priv)
{
	struct sentinel *sn = priv;
	redisReply *r = reply;
	size_t n = strlen(sn->spec.master);
	const char *msg;

	if (r == NULL || ac != sn->wac || r->type != REDIS_REPLY_ARRAY ||
	    r->elements != 3 || r->element[2]->type != REDIS_REPLY_STRING)
		return;
	msg = r->element[2]->str;
	if (strncmp(msg, sn->spec.master, n) != 0 || msg[n] != ' ')
		return;
	log_info("event=sentinel_switch master=%s to=\"%s\"", sn->spec.master,
	    msg + n + 1);
	if (sn->switch_cb)
		sn->switch_cb(sn->switch_arg);
}

static void
on_watch_connect(const redisAsyncContext *ac, int status)
{
	struct sentinel *sn = ac->data;

	if (status != REDIS_OK && ac == sn->wac)
		watch_lost(sn);
}

static void
on_watch_disconnect(const redisAsyncContext *ac, int status)
{
	struct sentinel *sn = ac->data;

	if (ac == sn->wac)
		watch_lost(sn);
}

static void
watch_start(struct sentinel *sn)
{
	if ((sn->wac = connect_to(sn, sn->wat)) == NULL) {
		watch_lost(sn);
		return;
	}
	redisAsyncSetConnectCallback(sn->wac, on_watch_connect);
	redisAsyncSetDisconnectCallback(sn->wac, on_watch_disconnect);
	redisAsyncCommand(sn->wac, on_switch, sn, "SUBSCRIBE +switch-master");
}

static void
watch_retry(evutil_socket_t fd, short what, void *arg)
{
	watch_start(arg);
}

void
sentinel_watch(struct sentinel *sn, void (*cb)(void *arg), void *arg)
{
	sn->switch_cb = cb, sn->switch_arg = arg;
	if (sn->wac == NULL)
		watch_start(sn);
}

/* ---- life ---------------------------------------------------------------- */

struct sentinel *
sentinel_new(struct event_base *base, const struct sentinel_spec *spec,
    const char *password)
{
	struct sentinel *sn = calloc(1, sizeof *sn);

	if (sn == NULL)
		return NULL;
	sn->base = base;
	sn->spec = *spec;
	sn->deadline = evtimer_new(base, ask_deadline, sn);
	sn->next = event_new(base, -1, 0, ask_next, sn);
	sn->wretry = evtimer_new(base, watch_retry, sn);
	if (sn->deadline == NULL || sn->next == NULL || sn->wretry == NULL ||
	    (password && (sn->password = strdup(password)) == NULL)) {
		sentinel_free(sn);
		return NULL;
	}
	return sn;
}

void
sentinel_free(struct sentinel *sn)
{
	redisAsyncContext *ac;

	if (sn == NULL)
		return;
	sn->switch_cb = NULL;
	if ((ac = sn->ac) != NULL) {
		sn->ac = NULL;
		redisAsyncFree(ac);
	}
	if ((ac = sn->wac) != NULL) {
		sn->wac = NULL;
		redisAsyncFree(ac);
	}
	if (sn->deadline)
		event_free(sn->deadline);
	if (sn->next)
		event_free(sn->next);
	if (sn->wretry)
		event_free(sn->wretry);
	free(sn->password);
	free(sn);
}

const char *
sentinel_master(const struct sentinel *sn)
{
	return sn->spec.master;
}
