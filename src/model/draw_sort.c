/* draw_sort.c: the draw's order in the daemon; see draw_sort.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "draw_sort.h"
#include "sha256.h"

#define TOKEN_MAX 64

struct entrant {
	unsigned char mac[32];	/* HMAC(K, ticket) */
	char ticket[TICKET_LEN];	/* the ticket, hex, no NUL */
	uint32_t seq;		/* read as the seq-th: by its score in line */
	uint32_t off;		/* the token in the arena */
	uint8_t len;
};

/* One sorted chunk being merged: its next entrant and its end. */
struct run {
	size_t at, end;
};

struct draw_set {
	struct sha256_mac *key;	/* K, prepared */
	struct entrant *e;
	size_t n, cap;
	char *arena;		/* the tokens, back to back */
	size_t used, room;
	struct run *runs;	/* one a chunk; a min-heap once merging */
	size_t nruns, runcap;
	int merging;
};

struct draw_set *
draw_set_new(const unsigned char key[32])
{
	struct draw_set *s = calloc(1, sizeof *s);

	if (s != NULL && (s->key = sha256_mac_new(key, 32)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

void
draw_set_free(struct draw_set *s)
{
	if (s == NULL)
		return;
	sha256_mac_free(s->key);
	free(s->e);
	free(s->arena);
	free(s->runs);
	free(s);
}

size_t
draw_set_size(const struct draw_set *s)
{
	return s->n;
}

/* The order of two entrants: the HMAC's bytes (as its hex compares),
 * then the token's (equal tickets come only from equal tokens). */
static int
entrant_cmp(const struct draw_set *s, const struct entrant *a,
    const struct entrant *b)
{
	int c = memcmp(a->mac, b->mac, 32);
	size_t n = a->len < b->len ? a->len : b->len;

	if (c != 0)
		return c;
	if ((c = memcmp(s->arena + a->off, s->arena + b->off, n)) != 0)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

static const struct draw_set *sorting;	/* for qsort's comparator */

static int
qsort_cmp(const void *a, const void *b)
{
	return entrant_cmp(sorting, a, b);
}

static int
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 1024;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if ((q = realloc(*p, c * size)) == NULL)
		return -1;
	*p = q, *cap = c;
	return 0;
}

int
draw_set_add(struct draw_set *s, const char *const *tokens, size_t n)
{
	char t[TICKET_LEN + 1];
	size_t first = s->n;

	if (n == 0)		/* nothing to sort: qsort must not see NULL */
		return s->merging ? -1 : 0;
	if (s->merging || grow((void **)&s->e, &s->cap, s->n + n,
	    sizeof *s->e) == -1 || grow((void **)&s->arena, &s->room,
	    s->used + n * TOKEN_MAX, 1) == -1 || grow((void **)&s->runs,
	    &s->runcap, s->nruns + 1, sizeof *s->runs) == -1 ||
	    s->used + n * TOKEN_MAX > UINT32_MAX)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct entrant *e = &s->e[s->n++];
		size_t len = strlen(tokens[i]);

		if (len > TOKEN_MAX)
			len = TOKEN_MAX;
		ticket_of(tokens[i], t);
		memcpy(e->ticket, t, TICKET_LEN);
		if (sha256_mac(s->key, t, TICKET_LEN, e->mac) == -1)
			return -1;
		memcpy(s->arena + s->used, tokens[i], len);
		e->seq = (uint32_t)(s->n - 1);
		e->off = (uint32_t)s->used, e->len = (uint8_t)len;
		s->used += len;
	}
	sorting = s;
	qsort(s->e + first, n, sizeof *s->e, qsort_cmp);
	s->runs[s->nruns++] = (struct run){ first, s->n };
	return 0;
}

/* ---- the merge: a min-heap of the runs by their next entrant ---------- */

static int
run_less(const struct draw_set *s, size_t i, size_t j)
{
	return entrant_cmp(s, &s->e[s->runs[i].at], &s->e[s->runs[j].at]) < 0;
}

static void
sift_down(struct draw_set *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct run tmp;

		if (l < s->nruns && run_less(s, l, m))
			m = l;
		if (r < s->nruns && run_less(s, r, m))
			m = r;
		if (m == i)
			return;
		tmp = s->runs[i], s->runs[i] = s->runs[m], s->runs[m] = tmp;
		i = m;
	}
}

size_t
draw_set_next(struct draw_set *s, size_t max, char *buf,
    const char **members, unsigned long *seq)
{
	size_t k = 0;

	if (!s->merging) {
		s->merging = 1;
		for (size_t i = s->nruns; i-- > 0;)
			sift_down(s, i);
	}
	while (k < max && s->nruns > 0) {
		const struct entrant *e = &s->e[s->runs[0].at];
		char *m = buf + k * (DRAW_MEMBER_MAX + 1);

		memcpy(m, e->ticket, TICKET_LEN);
		memcpy(m + TICKET_LEN, s->arena + e->off, e->len);
		m[TICKET_LEN + e->len] = '\0';
		seq[k] = e->seq;
		members[k++] = m;
		if (++s->runs[0].at == s->runs[0].end)
			s->runs[0] = s->runs[--s->nruns];
		sift_down(s, 0);
	}
	return k;
}
