/* ratelimit.c: token buckets per client address; see ratelimit.h. */
#include <stdlib.h>
#include <string.h>

#include "clientaddr.h"
#include "ratelimit.h"

struct bucket {
	char addr[CLIENTADDR_MAX];
	double tokens;
	long long at_ms;	/* when tokens was computed */
};

struct ratelimit {
	long rate;
	struct bucket *b;
};

struct ratelimit *
ratelimit_new(long rate)
{
	struct ratelimit *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->rate = rate;
	if (rate > 0 && (r->b = calloc(RATELIMIT_SLOTS, sizeof *r->b)) == NULL) {
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
	free(r->b);
	free(r);
}

static size_t
ratelimit_slot(const char *addr)
{
	unsigned long h = 2166136261UL;

	for (; *addr; addr++)
		h = (h ^ (unsigned char)*addr) * 16777619UL;
	return (size_t)(h % RATELIMIT_SLOTS);
}

long
ratelimit_take(struct ratelimit *r, const char *addr, long long now_ms)
{
	struct bucket *b;
	double burst = (double)r->rate, wait;
	long secs;

	if (r->rate <= 0)
		return 0;
	b = &r->b[ratelimit_slot(addr)];
	if (strcmp(b->addr, addr) != 0) {
		strncpy(b->addr, addr, sizeof b->addr - 1);
		b->addr[sizeof b->addr - 1] = '\0';
		b->tokens = burst;
	} else if (now_ms > b->at_ms) {
		b->tokens += (double)(now_ms - b->at_ms) * burst / 1000.0;
		if (b->tokens > burst)
			b->tokens = burst;
	}
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
