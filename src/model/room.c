/*
 * room.c: the console's figures; see room.h. Each read of the room is a
 * sample: the counters of every queue and process go into rings, whose
 * growth makes the rates, so a feed's figures need nothing but the
 * totals Redis and the processes' reports keep.
 */
#include <stdlib.h>
#include <string.h>

#include "admin_view.h"
#include "conf.h"
#include "eta.h"
#include "room.h"

#define RATE_WINDOW_MS 10000	/* the per-second rates' window */
#define MINUTE_MS 60000
#define WAIT_WINDOW_MS 300000	/* wait p50/p90: the last five minutes */
#define CAPACITY_PERIOD_MS 5000	/* a capacity queue's admission period */
#define STALL_PERIODS 3

static const char *const reasons[] = { "work", "invitation", "rate",
    "origin" };
#define NREASONS 4

/* ---- rates ------------------------------------------------------------ */

void
room_rate_push(struct room_rate *r, long long at_ms, long long v)
{
	if (r->n > 0 && at_ms == r->at[r->head]) {
		r->v[r->head] = v;
		return;
	}
	if (r->n > 0 && (v < r->v[r->head] || at_ms < r->at[r->head]))
		r->n = 0;	/* a counter started again */
	r->head = (r->head + 1) % ROOM_RING;
	r->at[r->head] = at_ms, r->v[r->head] = v;
	if (r->n < ROOM_RING)
		r->n++;
}

double
room_rate_per_s(const struct room_rate *r, long long window_ms)
{
	int from = r->head;

	if (r->n < 2)
		return 0;
	/* the oldest sample within the window, or the newest before it */
	for (int k = 1; k < r->n; k++) {
		int i = (r->head - k + ROOM_RING) % ROOM_RING;

		from = i;
		if (r->at[r->head] - r->at[i] >= window_ms)
			break;
	}
	if (r->at[r->head] <= r->at[from])
		return 0;
	return (double)(r->v[r->head] - r->v[from]) * 1000.0 /
	    (double)(r->at[r->head] - r->at[from]);
}

/* ---- times in line ------------------------------------------------------ */

struct point {
	double s, weight;
};

static int
point_cmp(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return (x->s > y->s) - (x->s < y->s);
}

/* The weighted p-quantile of p's n points, sorted, weighing total. */
static double
quantile(const struct point *p, size_t n, double total, double q)
{
	double seen = 0;

	for (size_t i = 0; i < n; i++) {
		seen += p[i].weight;
		if (seen >= q * total)
			return p[i].s;
	}
	return p[n - 1].s;
}

int
room_wait_percentiles(const struct room_wait *w, size_t n, long long now_ms,
    long long window_ms, double *p50, double *p90)
{
	struct point p[2 * ROOM_WAITS_MAX];
	size_t k = 0;
	double total = 0;

	for (size_t i = 0; i < n && k + 2 <= 2 * ROOM_WAITS_MAX; i++) {
		if (w[i].count <= 0 || w[i].at_ms < now_ms - window_ms)
			continue;
		p[k++] = (struct point){ w[i].first_ms / 1000.0,
		    w[i].count / 2.0 };
		p[k++] = (struct point){ w[i].last_ms / 1000.0,
		    w[i].count / 2.0 };
		total += w[i].count;
	}
	if (k == 0)
		return 0;
	qsort(p, k, sizeof p[0], point_cmp);
	*p50 = quantile(p, k, total, 0.5);
	*p90 = quantile(p, k, total, 0.9);
	return 1;
}

/* ---- stalled ------------------------------------------------------------ */

/* How long the head may stand still in q before it is stalled (ms); 0
 * when it may stand still as long as it likes. */
static long long
stall_after(const struct room_queue *q)
{
	const struct room_conf *c = &q->c;

	if (strcmp(c->state, "open") != 0 || c->held || q->f.waiting <= 0)
		return 0;
	if (strcmp(c->mode, "rate") == 0 && c->interval > 0)
		return STALL_PERIODS * c->interval * 1000;
	if (strcmp(c->mode, "capacity") == 0 &&
	    q->f.active < c->max_active)
		return STALL_PERIODS * CAPACITY_PERIOD_MS;
	return 0;
}

int
room_stalled(struct room_stall *s, const struct room_queue *q,
    long long now_ms, long long *since)
{
	long long after = stall_after(q);
	long long admitted = q->f.totals[1];

	if (after == 0 || s->since_ms == 0 || admitted != s->admitted) {
		s->admitted = admitted, s->since_ms = now_ms;
		return 0;
	}
	if (now_ms - s->since_ms < after)
		return 0;
	*since = s->since_ms;
	return 1;
}

/* ---- what a feed remembers ---------------------------------------------- */

struct room_inst {
	char *id;
	struct room_rate requests, errors;
	int used;
};

struct room_q {
	char *name;
	struct room_rate joined, admitted, abandoned, expired, left;
	struct room_rate refused[NREASONS];
	struct room_stall stall;
	int used;
};

struct room {
	struct room_inst *inst;
	size_t ninst, capinst;
	struct room_q *q;
	size_t nq, capq;
};

struct room *
room_new(void)
{
	return calloc(1, sizeof(struct room));
}

void
room_free(struct room *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->ninst; i++)
		free(r->inst[i].id);
	for (size_t i = 0; i < r->nq; i++)
		free(r->q[i].name);
	free(r->inst);
	free(r->q);
	free(r);
}

/* The entry named name in a table of n of size bytes each (name first),
 * made when missing; NULL when out of memory. */
static void *
room_entry(void **table, size_t *n, size_t *cap, size_t size,
    const char *name)
{
	char *t = *table, *e;

	for (size_t i = 0; i < *n; i++)
		if (strcmp(*(char **)(t + i * size), name) == 0)
			return t + i * size;
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 8;

		if ((t = realloc(*table, c * size)) == NULL)
			return NULL;
		*table = t, *cap = c;
	}
	e = t + *n * size;
	memset(e, 0, size);
	if ((*(char **)e = strdup(name)) == NULL)
		return NULL;
	(*n)++;
	return e;
}

/* Forget the entries the last event did not use, and clear the marks. */
static void
room_sweep(struct room *r)
{
	size_t k = 0;

	for (size_t i = 0; i < r->ninst; i++) {
		if (r->inst[i].used) {
			r->inst[i].used = 0;
			r->inst[k++] = r->inst[i];
		} else
			free(r->inst[i].id);
	}
	r->ninst = k, k = 0;
	for (size_t i = 0; i < r->nq; i++) {
		if (r->q[i].used) {
			r->q[i].used = 0;
			r->q[k++] = r->q[i];
		} else
			free(r->q[i].name);
	}
	r->nq = k;
}

/* ---- the room event ----------------------------------------------------- */

static long long
num(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* Queue name's counters summed over every report: streams, invitations
 * used, refusals by reason. */
struct queue_sums {
	long long streams, invites;
	long long refused[NREASONS];
};

static void
queue_sums(json_t *const *reports, size_t n, const char *name,
    struct queue_sums *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < n; i++) {
		json_t *q = json_object_get(json_object_get(reports[i],
		    "queues"), name);
		json_t *ref = json_object_get(q, "refused");

		s->streams += num(q, "streams");
		s->invites += num(q, "invites_used");
		for (int k = 0; k < NREASONS; k++)
			s->refused[k] += num(ref, reasons[k]);
	}
}

/* writable 0: Redis refuses writes (full, read-only), so no report can
 * come in and none is missing. */
static json_t *
instance_json(struct room *r, const struct room_instance *in,
    const json_t *rep, long long now_ms, int writable)
{
	const char *id = json_string_value(json_object_get(rep, "id"));
	long long ago = now_ms - in->seen_ms;
	struct room_inst *t;

	if (id == NULL || (t = room_entry((void **)&r->inst, &r->ninst,
	    &r->capinst, sizeof *r->inst, id)) == NULL)
		return NULL;
	t->used = 1;
	room_rate_push(&t->requests, in->seen_ms, num(rep, "requests"));
	room_rate_push(&t->errors, in->seen_ms, num(rep, "errors_5xx"));
	return json_pack("{s:s,s:O,s:O,s:O,s:O,s:b,s:I,s:I,s:I,s:f,s:f}",
	    "id", id, "host", json_object_get(rep, "host"),
	    "pid", json_object_get(rep, "pid"),
	    "worker", json_object_get(rep, "worker"),
	    "version", json_object_get(rep, "version"),
	    "missing", writable && ago > ROOM_MISSING_MS,
	    "seen_ms_ago", (json_int_t)(ago > 0 ? ago : 0),
	    "streams", (json_int_t)num(rep, "streams"),
	    "connections", (json_int_t)num(rep, "connections"),
	    "requests_per_s", room_rate_per_s(&t->requests, RATE_WINDOW_MS),
	    "errors_per_s", room_rate_per_s(&t->errors, RATE_WINDOW_MS));
}

/* A report's fields json_pack's "O" may take: a missing one is null. */
static void
report_defaults(json_t *rep)
{
	static const char *const keys[] = { "host", "pid", "worker",
	    "version" };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (json_object_get(rep, keys[i]) == NULL)
			json_object_set_new(rep, keys[i], json_null());
}

static const char *
draw_state(const struct room_queue *q, long long now_ms)
{
	if (q->c.opens_at <= 0)
		return "none";
	if (q->f.draw_ms > 0)
		return "drawn";
	return now_ms >= q->c.opens_at * 1000 ? "drawing" : "committed";
}

/* The wait eta.c tells a visitor who joins now; -1: none. */
static long long
eta_new(const struct room_queue *q)
{
	return q->c.held ? -1 : eta_seconds(&q->eta, q->f.waiting + 1);
}

static json_t *
nullable_s(double v, int known)
{
	return known ? json_real(v) : json_null();
}

/* A configuration field as an integer; 0 when absent. */
static long long
config_int(const struct qconfig *c, const char *field)
{
	const char *v = admin_view_field(c, field);

	return v ? strtoll(v, NULL, 10) : 0;
}

static json_t *
queue_json(struct room_q *t, const struct room_queue *q, const char *name,
    long long now_ms, const struct queue_sums *s, int pow_bits)
{
	const char *notice = admin_view_field(&q->f.config, "notice");
	json_t *refused = json_object(), *j;
	double p50 = 0, p90 = 0;
	int waits;
	long long eta = eta_new(q);

	if (refused == NULL)
		return NULL;
	t->used = 1;
	room_rate_push(&t->joined, now_ms, q->f.totals[0]);
	room_rate_push(&t->admitted, now_ms, q->f.totals[1]);
	room_rate_push(&t->expired, now_ms, q->f.totals[2]);
	room_rate_push(&t->left, now_ms, q->f.totals[3]);
	room_rate_push(&t->abandoned, now_ms, q->f.totals[4]);
	for (int k = 0; k < NREASONS; k++) {
		room_rate_push(&t->refused[k], now_ms, s->refused[k]);
		json_object_set_new(refused, reasons[k], json_real(
		    room_rate_per_s(&t->refused[k], RATE_WINDOW_MS)));
	}
	waits = room_wait_percentiles(q->waits, q->nwaits, now_ms,
	    WAIT_WINDOW_MS, &p50, &p90);
	j = json_pack("{s:s,s:s,s:s,s:I,s:I,s:s,s:I,s:I,s:I,s:f,s:f,"
	    "s:{s:f,s:f,s:f},s:o,s:o,s:o,s:o,s:o,s:I,s:I,s:o,s:I}",
	    "queue", name, "state", q->c.state, "mode", q->c.mode,
	    "opens_at", (json_int_t)q->c.opens_at,
	    "closes_at", (json_int_t)q->c.closes_at,
	    "draw", draw_state(q, now_ms),
	    "waiting", (json_int_t)q->f.waiting,
	    "active", (json_int_t)q->f.active,
	    "entrants", (json_int_t)q->f.prequeue,
	    "joins_per_s", room_rate_per_s(&t->joined, RATE_WINDOW_MS),
	    "admitted_per_s", room_rate_per_s(&t->admitted, RATE_WINDOW_MS),
	    "per_minute",
	    "abandoned", 60 * room_rate_per_s(&t->abandoned, MINUTE_MS),
	    "expired", 60 * room_rate_per_s(&t->expired, MINUTE_MS),
	    "left", 60 * room_rate_per_s(&t->left, MINUTE_MS),
	    "eta_new_s", eta < 0 ? json_null() : json_integer(eta),
	    "wait_p50_s", nullable_s(p50, waits),
	    "wait_p90_s", nullable_s(p90, waits),
	    "pow_bits", pow_bits < 0 ? json_null() : json_integer(pow_bits),
	    "refused_per_s", refused,
	    "invites_used", (json_int_t)s->invites,
	    "streams", (json_int_t)s->streams,
	    "notice", notice && *notice ? json_string(notice) : json_null(),
	    "fail_open_until", (json_int_t)config_int(&q->f.config,
	    "fail_open_until"));
	return j;
}

static void
alert(json_t *alerts, const char *kind, const char *key, json_t *value)
{
	json_t *a = json_pack("{s:s}", "kind", kind);

	if (a && key)
		json_object_set_new(a, key, value);
	else
		json_decref(value);
	json_array_append_new(alerts, a);
}

/* The instances, their streams summed (missing ones left out), and an
 * alert for each missing one. */
static json_t *
instances_json(struct room *r, const struct room_read *rr, json_t **reports,
    json_t *alerts, int writable, long long *streams)
{
	json_t *list = json_array();

	*streams = 0;
	for (size_t i = 0; list && i < rr->ninstances; i++) {
		json_t *in;

		if (reports[i] == NULL || (in = instance_json(r,
		    &rr->instances[i], reports[i], rr->now_ms, writable)) ==
		    NULL)
			continue;
		if (json_is_true(json_object_get(in, "missing")))
			alert(alerts, "instance_missing", "instance",
			    json_incref(json_object_get(in, "id")));
		else
			*streams += num(in, "streams");
		json_array_append_new(list, in);
	}
	return list;
}

static void
alert_stalled(json_t *alerts, const char *queue, long long since_ms)
{
	json_array_append_new(alerts, json_pack("{s:s,s:s,s:I}", "kind",
	    "stalled", "queue", queue, "since", (json_int_t)(since_ms / 1000)));
}

static json_t *
queues_json(struct room *r, const struct room_read *rr,
    const char *const *names, const struct room_local *l, json_t **reports,
    json_t *alerts)
{
	json_t *list = json_array();

	for (size_t i = 0; list && i < rr->nqueues; i++) {
		const struct room_queue *q = &rr->queues[i];
		struct queue_sums s;
		long long since;
		struct room_q *t;

		if (!q->f.exists || (t = room_entry((void **)&r->q, &r->nq,
		    &r->capq, sizeof *r->q, names[i])) == NULL)
			continue;
		t->used = 1;
		queue_sums(reports, rr->ninstances, names[i], &s);
		json_array_append_new(list, queue_json(t, q, names[i],
		    rr->now_ms, &s, l->pow_bits ? l->pow_bits[i] : -1));
		if (room_stalled(&t->stall, q, rr->now_ms, &since))
			alert_stalled(alerts, names[i], since);
	}
	return list;
}

json_t *
room_event(struct room *r, const struct room_read *rr,
    const char *const *names, const struct room_local *l)
{
	json_t **reports = calloc(rr->ninstances ? rr->ninstances : 1,
	    sizeof *reports);
	json_t *alerts = json_array(), *j = NULL, *instances, *queues;
	long long streams;
	int full = l->full || (rr->maxmemory > 0 &&
	    rr->used_memory >= rr->maxmemory);

	if (reports == NULL || alerts == NULL)
		goto done;
	for (size_t i = 0; i < rr->ninstances; i++)
		if ((reports[i] = json_loads(rr->instances[i].report, 0,
		    NULL)) != NULL)
			report_defaults(reports[i]);
	instances = instances_json(r, rr, reports, alerts, !full &&
	    !l->readonly, &streams);
	queues = queues_json(r, rr, names, l, reports, alerts);
	if (full)
		alert(alerts, "redis_full", NULL, NULL);
	if (l->readonly)
		alert(alerts, "redis_readonly", NULL, NULL);
	j = json_pack("{s:I,s:o,s:I,s:{s:b,s:s,s:I,s:I,s:f},s:o,s:O}",
	    "at", (json_int_t)rr->now_ms, "instances", instances,
	    "streams", (json_int_t)streams, "redis", "reachable", 1,
	    "role", rr->role, "used_memory", (json_int_t)rr->used_memory,
	    "maxmemory", (json_int_t)rr->maxmemory,
	    "latency_ms", l->latency_ms, "queues", queues, "alerts", alerts);
	room_sweep(r);
done:
	for (size_t i = 0; reports && i < rr->ninstances; i++)
		json_decref(reports[i]);
	free(reports);
	json_decref(alerts);
	return j;
}

json_t *
room_event_unreachable(long long now_ms)
{
	return json_pack("{s:I,s:[],s:i,s:{s:b},s:[],s:[{s:s}]}", "at",
	    (json_int_t)now_ms, "instances", "streams", 0, "redis",
	    "reachable", 0, "queues", "alerts", "kind", "redis_unreachable");
}

/* ---- history ------------------------------------------------------------ */

static json_t *
series_json(const struct room_series *s, long long from_s, long long now_s,
    long long step)
{
	size_t nb = (size_t)((now_s - from_s) / step + 1);
	json_t *jo = json_array(), *ad = json_array(), *wa = json_array(),
	    *ac = json_array();
	const struct room_sample *prev = NULL;
	size_t k = 0;

	for (size_t b = 0; b < nb; b++) {
		long long end = from_s + (long long)(b + 1) * step;
		const struct room_sample *last = NULL;

		while (k < s->n && s->samples[k].t < end) {
			if (s->samples[k].t >= from_s)
				last = &s->samples[k];
			k++;
		}
		if (last == NULL) {
			json_array_append_new(jo, json_null());
			json_array_append_new(ad, json_null());
			json_array_append_new(wa, json_null());
			json_array_append_new(ac, json_null());
			continue;
		}
		if (prev && last->t > prev->t && last->joined >= prev->joined &&
		    last->admitted >= prev->admitted) {
			double dt = (double)(last->t - prev->t);

			json_array_append_new(jo, json_real(
			    (last->joined - prev->joined) / dt));
			json_array_append_new(ad, json_real(
			    (last->admitted - prev->admitted) / dt));
		} else {
			json_array_append_new(jo, json_null());
			json_array_append_new(ad, json_null());
		}
		json_array_append_new(wa, json_integer(last->waiting));
		json_array_append_new(ac, json_integer(last->active));
		prev = last;
	}
	return json_pack("{s:I,s:I,s:o,s:o,s:o,s:o}", "from", (json_int_t)from_s,
	    "step", (json_int_t)step, "joins_per_s", jo, "admitted_per_s", ad,
	    "waiting", wa, "active", ac);
}

json_t *
room_history(const struct room_series *s, const char *const *names,
    size_t n, long long from_s, long long now_s)
{
	json_t *queues = json_object();
	long long step = n > 8 ? 10 : 1;

	for (size_t i = 0; queues && i < n; i++) {
		/* from the first sample kept, or now when none */
		long long first = s[i].n ? s[i].samples[0].t : now_s;

		if (first < from_s)
			first = from_s;
		if (now_s < first)
			now_s = first;
		json_object_set_new(queues, names[i], series_json(&s[i],
		    first, now_s, step));
	}
	return json_pack("{s:o}", "queues", queues);
}
