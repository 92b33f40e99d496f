/* metrics_share.c: the workers' shared figures; see metrics_share.h. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "metrics_share.h"

struct slot {
	struct metrics m;
	unsigned seq;		/* odd while live is being written */
	struct mshare_live live;
};

static struct slot *slots;	/* NULL: not shared */
static int nslots;
static struct slot *mine;	/* this worker's, in slots */
static struct mshare_live own;	/* the live figures, not shared */

int
mshare_map(int n)
{
	void *p = mmap(NULL, (size_t)n * sizeof *slots, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	slots = p, nslots = n;
	return 0;
}

void
mshare_unmap(void)
{
	if (slots)
		munmap(slots, (size_t)nslots * sizeof *slots);
	slots = mine = NULL, nslots = 0;
	metrics_count_in(NULL);
}

void
mshare_use(int i)
{
	if (slots == NULL || i < 0 || i >= nslots)
		return;
	mine = &slots[i];
	metrics_count_in(&mine->m);
}

void
mshare_publish(const struct mshare_live *l)
{
	if (mine == NULL) {
		own = *l;
		return;
	}
	__atomic_add_fetch(&mine->seq, 1, __ATOMIC_ACQ_REL);
	mine->live = *l;
	__atomic_add_fetch(&mine->seq, 1, __ATOMIC_ACQ_REL);
}

/* A consistent copy of s's live figures; 0 when none came in a few tries. */
static int
read_live(const struct slot *s, struct mshare_live *out)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned a = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);

		if (a & 1)
			continue;
		*out = s->live;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == a)
			return 1;
	}
	return 0;
}

static void
add_histogram(struct histogram *to, const struct histogram *h)
{
	for (int i = 0; i <= METRICS_NBUCKETS; i++)
		to->counts[i] += h->counts[i];
	to->count += h->count;
	to->sum += h->sum;
}

static void
add_counts(struct metrics *to, const struct metrics *m)
{
	for (int r = 0; r < METRICS_ROUTES; r++)
		for (int c = 0; c < 5; c++)
			to->http[r][c] += m->http[r][c];
	add_histogram(&to->http_latency, &m->http_latency);
	add_histogram(&to->redis_latency, &m->redis_latency);
	for (int i = 0; i < MCLOSE_NREASONS; i++)
		to->stream_closes[i] += m->stream_closes[i];
	if (m->store_resets > to->store_resets)	/* each worker sees each */
		to->store_resets = m->store_resets;
	for (int i = 0; i < MCONN_NREASONS; i++)
		to->conn_closes[i] += m->conn_closes[i];
	to->pow_issued += m->pow_issued;
	for (int i = 0; i < MPOW_NREASONS; i++)
		to->pow_refused[i] += m->pow_refused[i];
}

static void
add_live(struct mshare_live *to, const struct mshare_live *l)
{
	to->streams += l->streams;
	to->connections += l->connections;
	to->streams_max += l->streams_max;
	to->reconnects_commands += l->reconnects_commands;
	to->reconnects_subscriber += l->reconnects_subscriber;
	to->store_full |= l->store_full;
	to->store_replicas_short |= l->store_replicas_short;
	for (size_t i = 0; i < l->nqueues && i < MSHARE_QUEUES; i++) {
		const struct mshare_queue *q = &l->queues[i];
		size_t j = 0;

		while (j < to->nqueues &&
		    strcmp(to->queues[j].name, q->name) != 0)
			j++;
		if (j == to->nqueues) {
			if (j == MSHARE_QUEUES)
				continue;
			to->queues[to->nqueues++] = *q;
		} else
			to->queues[j].streams += q->streams;
	}
}

void
mshare_total(struct metrics *m, struct mshare_live *l)
{
	static struct mshare_live one;	/* large: not on the stack */

	if (m)
		memset(m, 0, sizeof *m);
	memset(l, 0, sizeof *l);
	if (slots == NULL) {
		if (m)
			*m = *metrics_get();
		*l = own;
		return;
	}
	for (int i = 0; i < nslots; i++) {
		if (m)
			add_counts(m, &slots[i].m);
		if (read_live(&slots[i], &one))
			add_live(l, &one);
	}
}

unsigned long
mshare_queue_streams(const struct mshare_live *l, const char *queue)
{
	for (size_t i = 0; i < l->nqueues; i++)
		if (strcmp(l->queues[i].name, queue) == 0)
			return l->queues[i].streams;
	return 0;
}
