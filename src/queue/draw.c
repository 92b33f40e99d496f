/*
 * draw.c: drives draw_step.lua for the queues whose draw is due; see
 * draw.h. A run reads the undrawn entrants (DRAW_READ a step), sorts
 * them (draw_sort.c), hands them back in that order (DRAW_PLACE a step,
 * DRAW_DEPTH steps in flight, so that Redis places one while the daemon
 * merges the next) to be placed, then hashes the order. It lives from the
 * first step until a step says the draw is done, busy elsewhere, not due,
 * or fails; the next tick starts another when it is still due, which
 * reads again what is still undrawn. A run is freed only from the
 * callback of its last step in flight, so draws_free just orphans the
 * runs in flight.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "conf.h"
#include "draw.h"
#include "draw_sort.h"
#include "log.h"
#include "qstore_draw.h"
#include "hex.h"
#include "ticket.h"

#define DRAW_READ 10000		/* entrants read per step */
#define DRAW_PLACE 1000		/* entrants placed per step */
#define DRAW_DEPTH 2		/* place steps in flight at once */
#define DRAW_LOCK_MS 5000	/* a dead instance's lock frees after this */

/* A step in flight: its op, and the entrants it hands over. */
struct flight {
	const char *op;
	size_t n;
};

struct run {
	struct draws *d;	/* NULL: orphaned by draws_free */
	char queue[CONF_QUEUE_ID_MAX + 1];
	struct draw_set *set;	/* the entrants read, NULL before */
	EVP_MD_CTX *md;		/* the order's SHA-256 while summing */
	long long offset;	/* pieces of the order summed */
	int whole;		/* md holds every piece from the first */
	int took;		/* the lock was ours: logged once */
	int failed;		/* ends when the steps in flight answer */
	int handed_all;		/* 'placed' was sent */
	long long base;		/* the score the next place step counts from */
	long long handed;	/* entrants this run handed over to be placed */
	struct flight fly[DRAW_DEPTH];	/* in the order sent */
	int first, inflight;
	struct run *next;
};

struct draws {
	struct qstore *qs;
	char owner[33];		/* this process, in the lock */
	struct run *runs;
};

struct draws *
draws_new(struct qstore *qs)
{
	struct draws *d = calloc(1, sizeof *d);
	char seed[TICKET_HEX + 1], commit[TICKET_HEX + 1];

	if (d == NULL)
		return NULL;
	d->qs = qs;
	/* Any unique name serves: the commit of a fresh random value. */
	if (ticket_new_seed(seed, commit) == -1) {
		free(d);
		return NULL;
	}
	memcpy(d->owner, commit, 32);
	return d;
}

void
draws_free(struct draws *d)
{
	if (d == NULL)
		return;
	for (struct run *r = d->runs; r; r = r->next)
		r->d = NULL;
	free(d);
}

static void
run_end(struct run *r)
{
	if (r->d != NULL) {
		struct run **p = &r->d->runs;

		while (*p != r)
			p = &(*p)->next;
		*p = r->next;
	}
	draw_set_free(r->set);
	EVP_MD_CTX_free(r->md);
	free(r);
}

/* The run goes no further: it ends once no step of it is in flight. */
static void
run_stop(struct run *r)
{
	r->failed = 1;
	if (r->inflight == 0)
		run_end(r);
}

static void step_done(enum result res, const struct qs_draw_step *s,
    void *arg);

/* One step of the draw: op with its operand (and n members, handing over
 * entrants of them); -1 when it could not be sent, and r is stopped. */
static int
step(struct run *r, const char *op, const char *operand,
    const char *const *members, size_t n, size_t entrants)
{
	struct qs_draw_op o = { r->d->owner, DRAW_LOCK_MS, DRAW_READ, op,
	    operand, members, n };

	r->fly[(r->first + r->inflight) % DRAW_DEPTH] =
	    (struct flight){ op, entrants };
	r->inflight++;
	if (qstore_draw_step(r->d->qs, r->queue, &o, step_done,
	    r) == -1) {
		r->inflight--;
		run_stop(r);
		return -1;
	}
	return 0;
}

/* A step that hands over nobody: op and its operand only. */
static int
step_op(struct run *r, const char *op, const char *operand)
{
	return step(r, op, operand, NULL, 0, 0);
}

/* The step in flight that answered, and the base the next place step
 * counts from: Redis's after it, and the places still in flight. */
static struct flight
landed(struct run *r, const struct qs_draw_step *s)
{
	struct flight f = r->fly[r->first];

	r->first = (r->first + 1) % DRAW_DEPTH;
	r->inflight--;
	if (s != NULL && (s->kind == QS_DRAW_HASH || s->kind == QS_DRAW_MORE)) {
		r->base = s->base;
		for (int i = 0; i < r->inflight; i++)
			r->base += (long long)
			    r->fly[(r->first + i) % DRAW_DEPTH].n;
	}
	return f;
}

/* One entrant of a place step: when it was read, and its place in the
 * step (from 1). */
struct placing {
	unsigned long seq;
	size_t at;
};

static int
placing_cmp(const void *a, const void *b)
{
	const struct placing *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The n entrants handed out, in the drawn order, as 'place' takes them:
 * the piece (their tickets, one a line) at args[0], then a score, token
 * pair for each, base + its place in the step, in the order they were
 * read (their old scores'), so that Redis finds one after another in
 * the same part of the line. scores holds n numbers of 24 bytes.
 */
static void
place_args(const struct run *r, const char **got, const unsigned long *seq,
    size_t n, char *piece, char *scores, const char **args)
{
	struct placing p[DRAW_PLACE];

	for (size_t i = 0; i < n; i++) {
		memcpy(piece + i * (TICKET_LEN + 1), got[i], TICKET_LEN);
		piece[i * (TICKET_LEN + 1) + TICKET_LEN] = '\n';
		p[i] = (struct placing){ seq[i], i + 1 };
	}
	piece[n * (TICKET_LEN + 1)] = '\0';
	args[0] = piece;
	qsort(p, n, sizeof *p, placing_cmp);
	for (size_t k = 0; k < n; k++) {
		char *sc = scores + k * 24;

		snprintf(sc, 24, "%lld", r->base + (long long)p[k].at);
		args[1 + 2 * k] = sc;
		args[2 + 2 * k] = got[p[k].at - 1] + TICKET_LEN;
	}
}

/* The step that says every entrant was handed over: its operand is how
 * many, so that Redis refuses it when a step before it failed. */
static int
send_placed(struct run *r)
{
	char count[24];

	r->handed_all = 1;
	snprintf(count, sizeof count, "%lld", r->handed);
	return step_op(r, "placed", count);
}

/*
 * The next DRAW_PLACE entrants of the order to be placed; once every one
 * was, the end of the walk. The operand is base and how many this run
 * handed over before, which Redis checks against its own count: a step
 * sent behind one that failed is refused. -1 when r is stopped.
 */
static int
place_next(struct run *r)
{
	char *buf = malloc(DRAW_PLACE * (DRAW_MEMBER_MAX + 1));
	char *piece = malloc(DRAW_PLACE * (TICKET_LEN + 1) + 1);
	char *scores = malloc(DRAW_PLACE * 24);
	const char **got = calloc(DRAW_PLACE, sizeof *got);
	const char **args = calloc(2 * DRAW_PLACE + 1, sizeof *args);
	unsigned long *seq = calloc(DRAW_PLACE, sizeof *seq);
	char operand[48];
	size_t n;
	int rc = -1;

	if (!buf || !piece || !scores || !got || !args || !seq) {
		run_stop(r);
		goto done;
	}
	n = draw_set_next(r->set, DRAW_PLACE, buf, got, seq);
	if (n == 0) {
		rc = send_placed(r);
		goto done;
	}
	place_args(r, got, seq, n, piece, scores, args);
	snprintf(operand, sizeof operand, "%lld %lld", r->base, r->handed);
	rc = step(r, "place", operand, args, 2 * n + 1, n);
	if (rc == 0) {
		r->base += (long long)n;
		r->handed += (long long)n;
	}
done:
	free(seq);
	free(args);
	free(got);
	free(scores);
	free(piece);
	free(buf);
	return rc;
}

/* The first DRAW_DEPTH place steps, or fewer when the order is shorter. */
static void
place_first(struct run *r)
{
	r->handed = 0;
	r->handed_all = 0;
	for (int i = 0; i < DRAW_DEPTH && !r->handed_all; i++)
		if (place_next(r) == -1)
			return;
}

/* The set the entrants read go into: a new one for a first chunk (an
 * answer to "go"), keyed with K from the seed and beacon; NULL when those
 * are not hex or out of memory (logged). */
static struct draw_set *
chunk_set(struct run *r, const struct qs_draw_step *s, int first)
{
	unsigned char key[32];

	if (first) {
		draw_set_free(r->set);
		r->set = NULL;
	}
	if (r->set != NULL)
		return r->set;
	if (ticket_draw_key(s->seed, s->beacon, key) == -1) {
		log_error("event=draw_failed queue=%s msg=\"the seed or the "
		    "beacon in Redis is not hex\"", r->queue);
		return NULL;
	}
	r->set = draw_set_new(key);
	explicit_bzero(key, sizeof key);
	if (r->set == NULL)
		log_error("event=draw_failed queue=%s msg=\"out of memory\"",
		    r->queue);
	return r->set;
}

/*
 * Undrawn entrants handed over: the next ones are asked for at once,
 * after the last score, so that Redis reads them while these are hashed
 * and sorted among themselves; none: all were read, so the placing
 * begins.
 */
static void
read_chunk(struct run *r, const struct qs_draw_step *s, int first)
{
	if (chunk_set(r, s, first) == NULL) {
		run_stop(r);
		return;
	}
	if (s->n == 0) {
		place_first(r);
		return;
	}
	if (step_op(r, "read", s->last) == -1)
		return;
	if (draw_set_add(r->set, s->tokens, s->n) == -1) {
		log_error("event=draw_failed queue=%s msg=\"out of memory\"",
		    r->queue);
		r->failed = 1;
	}
}

/* The order's hash is whole: the last step. */
static void
summed(struct run *r)
{
	unsigned char md[32];
	char hex[TICKET_HEX + 1];
	unsigned int n = 0;

	EVP_DigestFinal_ex(r->md, md, &n);
	hex_encode(md, sizeof md, hex);
	step_op(r, "summed", hex);
}

/*
 * A walk step's piece of the order: hashed at once, which saves reading
 * the order again, as long as this run saw every piece from the first
 * (an instance that took over mid-walk reads it all at the end).
 */
static void
walked(struct run *r, const struct qs_draw_step *s)
{
	if (s->index < 0)
		return;
	if (s->index == 0) {
		r->whole = EVP_DigestInit_ex(r->md, EVP_sha256(), NULL) == 1;
		r->offset = 0;
	}
	if (!r->whole || s->index != r->offset) {
		r->whole = 0;
		return;
	}
	EVP_DigestUpdate(r->md, s->bytes, s->len);
	r->offset++;
}

/* A piece of the order: hash it, then read on or finish. */
static void
sum_bytes(struct run *r, const struct qs_draw_step *s)
{
	char off[32];

	EVP_DigestUpdate(r->md, s->bytes, s->len);
	r->offset++;
	if (s->len > 0) {
		snprintf(off, sizeof off, "%lld", r->offset);
		step_op(r, "piece", off);
		return;
	}
	summed(r);
}

static void
step_done(enum result res, const struct qs_draw_step *s, void *arg)
{
	struct run *r = arg;
	struct flight f = landed(r, res == RESULT_OK ? s : NULL);

	if (r->d == NULL || r->failed || res != RESULT_OK) {
		run_stop(r);
		return;
	}
	if (!r->took && s->kind != QS_DRAW_BUSY && s->kind != QS_DRAW_IDLE) {
		r->took = 1;
		log_info("event=draw_take queue=%s owner=%s", r->queue,
		    r->d->owner);
	}
	switch (s->kind) {
	case QS_DRAW_HASH:
		read_chunk(r, s, strcmp(f.op, "read") != 0);
		return;
	case QS_DRAW_MORE:
		walked(r, s);
		if (r->set == NULL || strcmp(f.op, "place") != 0)
			step_op(r, "go", "");
		else if (!r->handed_all)
			place_next(r);
		return;
	case QS_DRAW_SUM:
		if (r->whole && r->offset == s->index) {
			summed(r);	/* every piece went through here */
			return;
		}
		r->offset = 0;
		if (EVP_DigestInit_ex(r->md, EVP_sha256(), NULL) != 1)
			break;
		step_op(r, "piece", "0");
		return;
	case QS_DRAW_BYTES:
		sum_bytes(r, s);
		return;
	case QS_DRAW_DRAWN:
		log_info("event=draw queue=%s entrants=%lld ms=%lld", r->queue,
		    s->entrants, s->now_ms - s->started_ms);
		qstore_draw_announce(r->d->qs, r->queue);
		break;
	case QS_DRAW_BUSY:
	case QS_DRAW_IDLE:
		break;
	}
	run_stop(r);
}

void
draws_due(struct draws *d, const char *queue)
{
	struct run *r;

	for (r = d->runs; r; r = r->next)
		if (strcmp(r->queue, queue) == 0)
			return;
	if ((r = calloc(1, sizeof *r)) == NULL)
		return;
	if ((r->md = EVP_MD_CTX_new()) == NULL) {
		free(r);
		return;
	}
	r->d = d;
	snprintf(r->queue, sizeof r->queue, "%s", queue);
	r->next = d->runs;
	d->runs = r;
	step_op(r, "go", "");
}

static void
seed_done(enum result r, void *arg)
{
	char *queue = arg;

	if (r != RESULT_OK && r != RESULT_NO_DRAW)
		log_error("event=draw_seed_failed queue=%s", queue);
	free(queue);
}

void
draws_seed(struct draws *d, const char *queue)
{
	char seed[TICKET_HEX + 1], commit[TICKET_HEX + 1], *q;

	if (ticket_new_seed(seed, commit) == -1 ||
	    (q = strdup(queue)) == NULL)
		return;
	if (qstore_draw_commit(d->qs, queue, seed, commit, seed_done,
	    q) == -1)
		free(q);
	explicit_bzero(seed, sizeof seed);
}

int
draws_write_conf(struct draws *d, const struct queue_conf *q, const char *how,
    qs_seeded_cb *cb, void *arg)
{
	char seed[TICKET_HEX + 1], commit[TICKET_HEX + 1];
	int rc = -1;

	if (ticket_new_seed(seed, commit) == 0)
		rc = qstore_seed(d->qs, q, how, seed, commit, cb, arg);
	else
		log_error("event=queue_config_failed queue=%s msg=\"no random "
		    "bytes for a seed\"", q->name);
	explicit_bzero(seed, sizeof seed);
	return rc;
}
