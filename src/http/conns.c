/*
 * conns.c: the connections of the HTTP server; see conns.h.
 *
 * Invariants:
 * - A connection is known from the moment evhttp asks for its bufferevent
 *   (conns_bev) until it is closed, by evhttp (conns_closed, its close
 *   callback) or by us (conns_close); either forgets it at once.
 * - Until conns_bind, later in the same pass of the loop, it is "fresh":
 *   its evhttp connection is not known yet. Nothing of evhttp's runs for
 *   it meanwhile (no byte is read before the next poll), but evhttp may
 *   give it up while setting it up (out of memory): the bufferevent is
 *   then freed, which libevent finishes in a finalizer callback queued
 *   after the bind event (activated first, same priority), so the bind
 *   still reads its callbacks, finds them cleared, and forgets it.
 * - We close connections only from a timer, the bind event or the
 *   listener's error callback, never inside an evhttp callback of theirs,
 *   and bind the fresh ones first.
 * - The input watch (an evbuffer callback) is on only while a head is
 *   awaited (IDLE, HEAD); it moves a connection between states and never
 *   closes one.
 * - The output watch is on while no request of the connection is ours
 *   (IDLE, HEAD, BODY): whatever evhttp writes then is an answer of its
 *   own, which refusal.c puts as JSON (conns_output).
 */
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>

#include "clock.h"
#include "conf.h"
#include "conn_limits.h"
#include "conn_log.h"
#include "connq.h"
#include "conns.h"
#include "log.h"
#include "metrics.h"
#include "refusal.h"
#include "route.h"

#define CONNS_SWEEP_MAX 256	/* closes in one pass of the loop, per timer */

struct conn {
	struct connq_entry q;		/* first: connq hands it back */
	struct conns *cs;
	struct bufferevent *bev;
	struct evhttp_connection *evcon;	/* NULL while fresh */
	struct evbuffer_cb_entry *watch;	/* on the input, for the head */
	struct evbuffer_cb_entry *outwatch;	/* libevent's own answers */
	struct ipslot *ip;			/* NULL: not counted */
	evutil_socket_t fd;
	void (*closecb)(struct evhttp_connection *, void *);
	void *closearg;
	struct conn *next_fresh;
};

/* The deadline of one state: HEAD (header_timeout) or BODY. */
struct conns_timer {
	struct conns *cs;
	int state;
	struct event *ev;
};

struct conns {
	struct conf *const *conf;	/* the one in force: *conf */
	struct connq q;
	struct conn *fresh, **fresh_tail;	/* to bind, oldest first */
	struct event *bind_ev;
	struct conns_timer timers[2];
	struct conn **byfd;			/* bound connections by socket */
	size_t nbyfd;
	struct conn_log *log;			/* the closes, counted */
	struct conn_limits *limits;	/* per address, the reserve */
};

static const char *const state_names[] = { "idle", "head", "body", "busy" };

static long long
conns_timeout_ms(const struct conns *cs, int state)
{
	const struct conf *c = *cs->conf;

	return 1000LL * (state == CONNQ_BODY ? c->body_timeout :
	    c->header_timeout);
}

/* ---- finding a connection by its evhttp connection ----------------------- */

static int
conns_byfd_put(struct conns *cs, struct conn *c)
{
	size_t fd = (size_t)c->fd, n = cs->nbyfd;
	struct conn **t;

	if (fd >= n) {
		n = fd + 1 > 2 * n ? fd + 1 : 2 * n;
		if ((t = realloc(cs->byfd, n * sizeof *t)) == NULL)
			return -1;
		memset(t + cs->nbyfd, 0, (n - cs->nbyfd) * sizeof *t);
		cs->byfd = t, cs->nbyfd = n;
	}
	cs->byfd[fd] = c;
	return 0;
}

static struct conn *
conns_find(const struct conns *cs, struct evhttp_connection *evcon)
{
	evutil_socket_t fd;
	struct conn *c;

	if (evcon == NULL)
		return NULL;
	fd = bufferevent_getfd(evhttp_connection_get_bufferevent(evcon));
	if (fd < 0 || (size_t)fd >= cs->nbyfd)
		return NULL;
	c = cs->byfd[fd];
	return c && c->evcon == evcon ? c : NULL;
}

/* ---- states -------------------------------------------------------------- */

static void
conns_watch(struct conn *c, int on)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);

	if (on)
		evbuffer_cb_set_flags(in, c->watch, EVBUFFER_CB_ENABLED);
	else
		evbuffer_cb_clear_flags(in, c->watch, EVBUFFER_CB_ENABLED);
}

/* The timer of state waits for the first of its list, unless it waits. */
static void
conns_arm(struct conns *cs, int state, long long now)
{
	struct conns_timer *t = &cs->timers[state == CONNQ_BODY];
	struct timeval tv;
	long long due;

	if (evtimer_pending(t->ev, NULL) ||
	    (due = connq_due_in(&cs->q, state, conns_timeout_ms(cs, state),
	    now)) < 0)
		return;
	tv.tv_sec = due / 1000;
	tv.tv_usec = due % 1000 * 1000;
	evtimer_add(t->ev, &tv);
}

static void
conns_enter(struct conns *cs, struct conn *c, int state, long long now)
{
	connq_set(&cs->q, &c->q, state, now);
	if (state == CONNQ_HEAD || state == CONNQ_BODY)
		conns_arm(cs, state, now);
}

/* Scan the input from offset from on for the end of the head. */
static int
conns_scan(struct conn *c, struct evbuffer *in, size_t from)
{
	size_t len = evbuffer_get_length(in);
	struct evbuffer_iovec v[4];
	struct evbuffer_ptr p;
	int n;

	while (from < len) {
		if (evbuffer_ptr_set(in, &p, from, EVBUFFER_PTR_SET) == -1 ||
		    (n = evbuffer_peek(in, (ev_ssize_t)(len - from), &p, v,
		    4)) <= 0)
			return 0;
		for (int i = 0; i < n && i < 4 && from < len; i++) {
			if (connq_scan(&c->q, v[i].iov_base, v[i].iov_len))
				return 1;
			from += v[i].iov_len;
		}
	}
	return 0;
}

/* The head awaited from now: scan what came already. */
static void
conns_head(struct conns *cs, struct conn *c, size_t from, long long now)
{
	if (c->q.state != CONNQ_HEAD)
		conns_enter(cs, c, CONNQ_HEAD, now);
	if (!conns_scan(c, bufferevent_get_input(c->bev), from)) {
		conns_watch(c, 1);
		return;
	}
	conns_watch(c, 0);
	conns_enter(cs, c, CONNQ_BODY, now);
}

/* The input watch: bytes came while a head is awaited. */
static void
conns_input(struct evbuffer *in, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct conn *c = arg;
	size_t len = evbuffer_get_length(in);

	if (info->n_added == 0 || c->q.state > CONNQ_HEAD)
		return;
	conns_head(c->cs, c, len > info->n_added ? len - info->n_added : 0,
	    clock_mono_ms());
}

static void
conns_outwatch(struct conn *c, int on)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);

	if (on)
		evbuffer_cb_set_flags(out, c->outwatch, EVBUFFER_CB_ENABLED);
	else
		evbuffer_cb_clear_flags(out, c->outwatch, EVBUFFER_CB_ENABLED);
}

/*
 * evhttp refuses a body over the limit by itself, at once when the head
 * announces it (conns_output answers); set before each request, so that
 * a reload's max_body applies from the next one on.
 */
static void
conns_body_limit(struct conns *cs, struct conn *c)
{
	evhttp_connection_set_max_body_size(c->evcon, (*cs->conf)->max_body);
}

/* evhttp sent the answer: the connection waits for the next request. */
static void
conns_answered(struct evhttp_request *req, void *arg)
{
	struct conns *cs = arg;
	struct conn *c = conns_find(cs, evhttp_request_get_connection(req));
	long long now = clock_mono_ms();

	if (c == NULL)
		return;
	conns_outwatch(c, 1);
	conns_body_limit(cs, c);
	if (evbuffer_get_length(bufferevent_get_input(c->bev)) > 0) {
		conns_head(cs, c, 0, now);	/* it came already */
		return;
	}
	conns_enter(cs, c, CONNQ_IDLE, now);
	conns_watch(c, 1);
}

void
conns_request(struct conns *cs, struct evhttp_request *req)
{
	struct conn *c = conns_find(cs, evhttp_request_get_connection(req));

	if (c == NULL)
		return;
	conns_watch(c, 0);
	conns_outwatch(c, 0);
	conns_enter(cs, c, CONNQ_BUSY, clock_mono_ms());
	evhttp_request_set_on_complete_cb(req, conns_answered, cs);
}

/* ---- libevent's own answers ------------------------------------------------ */

/*
 * The output watch: bytes written while no request of the connection is
 * ours are an answer of evhttp's own (or a "100 Continue", which goes as
 * it is); refusal.c puts it as JSON.
 */
static void
conns_output(struct evbuffer *out, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct conn *c = arg;
	struct refusal r;

	if (info->n_added == 0 || c->q.state == CONNQ_BUSY ||
	    refusal_read(out, info->orig_size, (*c->cs->conf)->max_body,
	    &r) == -1)
		return;
	conns_outwatch(c, 0);
	refusal_put(out, &r);
	metrics_http(ROUTE_NONE, r.status,
	    (double)(clock_mono_ms() - c->q.since) / 1e3);
	log_debug("event=request_refused status=%d state=%s", r.status,
	    state_names[c->q.state]);
}

/* ---- the end of a connection --------------------------------------------- */

static void
conns_forget(struct conns *cs, struct conn *c, int bev_alive)
{
	connq_remove(&cs->q, &c->q);
	conn_limits_release(cs->limits, c->ip);
	if (c->fd >= 0 && (size_t)c->fd < cs->nbyfd && cs->byfd[c->fd] == c)
		cs->byfd[c->fd] = NULL;
	if (bev_alive) {
		evbuffer_remove_cb_entry(bufferevent_get_input(c->bev),
		    c->watch);
		evbuffer_remove_cb_entry(bufferevent_get_output(c->bev),
		    c->outwatch);
	}
	free(c);
}

/* evhttp closes the connection: whoever asked hears it first. */
static void
conns_closed(struct evhttp_connection *evcon, void *arg)
{
	struct conn *c = arg;

	if (c->closecb)
		c->closecb(evcon, c->closearg);
	conns_forget(c->cs, c, 1);
}

/* Close c, a bound connection, for reason (counted by the caller). */
static void
conns_close(struct conns *cs, struct conn *c, enum metrics_conn_close reason,
    long long now)
{
	struct evhttp_connection *evcon = c->evcon;
	char *peer = NULL;
	ev_uint16_t port;

	evhttp_connection_get_peer(evcon, &peer, &port);
	log_debug("event=conn_closed reason=%s peer=%s state=%s ms=%lld",
	    metrics_conn_close_name(reason), peer ? peer : "?",
	    state_names[c->q.state], now - c->q.since);
	evhttp_connection_set_closecb(evcon, c->closecb, c->closearg);
	conns_forget(cs, c, 1);
	evhttp_connection_free(evcon);
}

/* ---- limits: per address, and the descriptor reserve --------------------- */

/* The reserve: past the high-water mark, the oldest without a head goes. */
static void
conns_keep_reserve(struct conns *cs, struct conn *c, long long now)
{
	struct connq_entry *v;

	if (!conn_limits_over(cs->limits, cs->q.count, c->fd, now))
		return;
	if ((v = connq_victim(&cs->q)) == NULL || v == &c->q)
		return;
	conns_close(cs, (struct conn *)v, MCONN_FD_RESERVE, now);
	conn_log_note(cs->log, MCONN_FD_RESERVE, 1, now);
}

/* max_conns_per_ip: 1 when c may stay, else it is closed (0). */
static int
conns_admit(struct conns *cs, struct conn *c, long long now)
{
	char *peer = NULL;
	ev_uint16_t port;

	evhttp_connection_get_peer(c->evcon, &peer, &port);
	if (conn_limits_admit(cs->limits, peer, now, &c->ip))
		return 1;
	conns_close(cs, c, MCONN_PER_IP, now);
	return 0;
}

/* ---- new connections ----------------------------------------------------- */

static void
conns_bind(struct conns *cs, struct conn *c, long long now)
{
	bufferevent_event_cb eventcb;
	void *arg;

	bufferevent_getcb(c->bev, NULL, NULL, &eventcb, &arg);
	if (eventcb == NULL) {		/* evhttp gave it up: see the top */
		conns_forget(cs, c, 0);
		return;
	}
	c->evcon = arg;
	c->fd = bufferevent_getfd(c->bev);
	if (c->fd < 0 || conns_byfd_put(cs, c) == -1) {
		conns_forget(cs, c, 1);	/* served, not watched */
		return;
	}
	evhttp_connection_set_closecb(c->evcon, conns_closed, c);
	conns_body_limit(cs, c);
	if (conns_admit(cs, c, now))
		conns_keep_reserve(cs, c, now);
}

static void
conns_bind_fresh(struct conns *cs)
{
	long long now = clock_mono_ms();
	struct conn *c;

	while ((c = cs->fresh) != NULL) {
		if ((cs->fresh = c->next_fresh) == NULL)
			cs->fresh_tail = &cs->fresh;
		conns_bind(cs, c, now);
	}
}

static void
conns_bind_event(evutil_socket_t fd, short what, void *arg)
{
	conns_bind_fresh(arg);
}

/* evhttp's bufferevent callback: a connection was accepted. */
static struct bufferevent *
conns_bev(struct event_base *base, void *arg)
{
	struct conns *cs = arg;
	/* As evhttp makes its own: evhttp closes the socket itself. */
	struct bufferevent *bev = bufferevent_socket_new(base, -1, 0);
	long long now = clock_mono_ms();
	struct conn *c;

	if (bev == NULL || (c = calloc(1, sizeof *c)) == NULL)
		return bev;		/* served, not watched */
	c->cs = cs, c->bev = bev, c->fd = -1;
	if ((c->watch = evbuffer_add_cb(bufferevent_get_input(bev),
	    conns_input, c)) == NULL) {
		free(c);
		return bev;
	}
	if ((c->outwatch = evbuffer_add_cb(bufferevent_get_output(bev),
	    conns_output, c)) == NULL) {
		evbuffer_remove_cb_entry(bufferevent_get_input(bev), c->watch);
		free(c);
		return bev;
	}
	connq_add(&cs->q, &c->q, now);
	*cs->fresh_tail = c;
	cs->fresh_tail = &c->next_fresh;
	event_active(cs->bind_ev, EV_TIMEOUT, 1);
	conns_arm(cs, CONNQ_HEAD, now);
	return bev;
}

/* ---- the deadlines ------------------------------------------------------- */

static void
conns_sweep(evutil_socket_t fd, short what, void *arg)
{
	struct conns_timer *t = arg;
	struct conns *cs = t->cs;
	enum metrics_conn_close reason = t->state == CONNQ_BODY ?
	    MCONN_BODY_TIMEOUT : MCONN_HEADER_TIMEOUT;
	long long now = clock_mono_ms(), ms = conns_timeout_ms(cs, t->state);
	struct connq_entry *e;
	unsigned long n = 0;

	conns_bind_fresh(cs);
	/* The oldest says how late the closes come. */
	if ((e = connq_expired(&cs->q, t->state, ms, now)) != NULL)
		conn_log_late(cs->log, reason, now - e->since - ms);
	for (; n < CONNS_SWEEP_MAX && (e = connq_expired(&cs->q, t->state, ms,
	    now)) != NULL; n++)
		conns_close(cs, (struct conn *)e, reason, now);
	if (n > 0)
		conn_log_note(cs->log, reason, n, now);
	/* More expired: the rest in the next pass, after what else came. */
	conns_arm(cs, t->state, now);
}

int
conns_shed(struct conns *cs)
{
	long long now = clock_mono_ms();
	struct connq_entry *v;
	long n, shed = 0;

	conns_bind_fresh(cs);
	n = conn_limits_shed(cs->limits, now);
	for (; shed < n && (v = connq_victim(&cs->q)) != NULL; shed++)
		conns_close(cs, (struct conn *)v, MCONN_FD_RESERVE, now);
	if (shed > 0)
		conn_log_note(cs->log, MCONN_FD_RESERVE, (unsigned long)shed,
		    now);
	return (int)shed;
}

/* ---- the rest ------------------------------------------------------------ */

void
conns_set_closecb(struct conns *cs, struct evhttp_connection *evcon,
    void (*cb)(struct evhttp_connection *, void *), void *arg)
{
	struct conn *c = conns_find(cs, evcon);

	if (c == NULL) {
		evhttp_connection_set_closecb(evcon, cb, arg);
		return;
	}
	c->closecb = cb;
	c->closearg = arg;
}

size_t
conns_count(const struct conns *cs)
{
	return cs ? cs->q.count : 0;
}

struct conns *
conns_new(struct event_base *base, struct conf *const *conf,
    const struct netlist *trusted, struct evhttp *evh)
{
	struct conns *cs = calloc(1, sizeof *cs);

	if (cs == NULL)
		return NULL;
	cs->conf = conf;
	connq_init(&cs->q);
	cs->fresh_tail = &cs->fresh;
	cs->log = conn_log_new(base);
	cs->limits = cs->log ? conn_limits_new(conf, trusted, cs->log) : NULL;
	cs->bind_ev = event_new(base, -1, 0, conns_bind_event, cs);
	for (int i = 0; i < 2; i++) {
		cs->timers[i].cs = cs;
		cs->timers[i].state = i ? CONNQ_BODY : CONNQ_HEAD;
		cs->timers[i].ev = evtimer_new(base, conns_sweep,
		    &cs->timers[i]);
	}
	if (cs->limits == NULL || cs->bind_ev == NULL ||
	    cs->timers[0].ev == NULL || cs->timers[1].ev == NULL) {
		conns_free(cs);
		return NULL;
	}
	evhttp_set_bevcb(evh, conns_bev, cs);
	return cs;
}

void
conns_watch_also(struct conns *cs, struct evhttp *evh)
{
	evhttp_set_bevcb(evh, conns_bev, cs);
}

void
conns_free(struct conns *cs)
{
	struct conn *c;

	if (cs == NULL)
		return;
	/* evhttp_free closed every bound one; a fresh one was never bound. */
	while ((c = cs->fresh) != NULL) {
		cs->fresh = c->next_fresh;
		conns_forget(cs, c, 0);
	}
	if (cs->bind_ev)
		event_free(cs->bind_ev);
	for (int i = 0; i < 2; i++)
		if (cs->timers[i].ev)
			event_free(cs->timers[i].ev);
	conn_limits_free(cs->limits);
	conn_log_free(cs->log);
	free(cs->byfd);
	free(cs);
}
