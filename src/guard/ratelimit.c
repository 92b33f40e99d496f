/* ratelimit.c: token buckets per client address; see ratelimit.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "netlist.h"
#include "hash.h"
#include "ratelimit.h"

#define RATELIMIT_SPINS 10000	/* then go on without the lock */

struct bucket {
	char addr[NETLIST_ADDR_MAX];
	char lock;		/* shared: taken by the worker using it */
	double tokens;
	long long at_ms;	/* when tokens was computed */
};

struct ratelimit {
	long rate;
	int shared;		/* b is a shared mapping */
	struct bucket *b;
};

struct ratelimit *
ratelimit_new(long rate, int shared)
{
	struct ratelimit *r = calloc(1, sizeof *r);
	size_t size = RATELIMIT_SLOTS * sizeof *r->b;

	if (r == NULL)
		return NULL;
	r->rate = rate;
	if (rate <= 0)
		return r;
	if (shared) {
		r->b = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		r->shared = r->b != MAP_FAILED;
		if (r->b == MAP_FAILED)
			r->b = NULL;
	} else
		r->b = calloc(RATELIMIT_SLOTS, sizeof *r->b);
	if (r->b == NULL) {
		free(r);
		return NULL;
	}
	return r;
}

void
ratelimit_free(struct ratelimit *r)
{
	if (r == NULL)
		return;
	if (r->shared)
		munmap(r->b, RATELIMIT_SLOTS * sizeof *r->b);
	else
		free(r->b);
	free(r);
}

static size_t
ratelimit_slot(const char *addr)
{
	return (size_t)(hash_str(HASH_SEED, addr) % RATELIMIT_SLOTS);
}

/*
 * Another worker may be in the same bucket for a few instructions. One
 * that died there (SIGKILL) would hold it forever, so after a bounded
 * wait the bucket is used without it: at worst one extra join passes.
 */
static int
bucket_lock(struct bucket *b)
{
	for (int i = 0; i < RATELIMIT_SPINS; i++)
		if (!__atomic_test_and_set(&b->lock, __ATOMIC_ACQUIRE))
			return 1;
	return 0;
}

/* Refill b for now_ms and take a token: 0, or seconds to wait. */
static long
bucket_take(struct bucket *b, long rate, const char *addr, long long now_ms)
{
	double burst = (double)rate, wait;
	long secs;

	if (strcmp(b->addr, addr) != 0) {
		strncpy(b->addr, addr, sizeof b->addr - 1);
		b->addr[sizeof b->addr - 1] = '\0';
		b->tokens = burst;
		b->at_ms = now_ms;
	} else if (now_ms > b->at_ms) {
		b->tokens += (double)(now_ms - b->at_ms) * burst / 1000.0;
		if (b->tokens > burst)
			b->tokens = burst;
	}
	if (now_ms > b->at_ms)
		b->at_ms = now_ms;
	if (b->tokens >= 1.0) {
		b->tokens -= 1.0;
		return 0;
	}
	/* ceil((1 - tokens) / rate) seconds, at least 1 */
	wait = (1.0 - b->tokens) / burst;
	secs = (long)wait;
	if ((double)secs < wait)
		secs++;
	return secs < 1 ? 1 : secs;
}

long
ratelimit_take(struct ratelimit *r, const char *addr, long long now_ms)
{
	struct bucket *b;
	int locked;
	long wait;

	if (r->rate <= 0)
		return 0;
	b = &r->b[ratelimit_slot(addr)];
	locked = r->shared && bucket_lock(b);
	wait = bucket_take(b, r->rate, addr, now_ms);
	if (locked)
		__atomic_clear(&b->lock, __ATOMIC_RELEASE);
	return wait;
}
