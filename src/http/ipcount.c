/* ipcount.c: a small chained hash table of address -> open count. */
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "ipcount.h"

#define IPCOUNT_BUCKETS 4096	/* a power of two */

struct ipslot {
	struct ipslot *next;
	size_t count;
	long long logged_ms;	/* its last refusal line; 0: none */
	unsigned long refused;	/* refusals since */
	char addr[46];		/* INET6_ADDRSTRLEN */
};

struct ipcount {
	struct ipslot *buckets[IPCOUNT_BUCKETS];
};

static size_t
ipcount_hash(const char *s)
{
	return (size_t)(hash_str(HASH_SEED, s) & (IPCOUNT_BUCKETS - 1));
}

struct ipcount *
ipcount_new(void)
{
	return calloc(1, sizeof(struct ipcount));
}

void
ipcount_free(struct ipcount *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < IPCOUNT_BUCKETS; i++) {
		while (t->buckets[i]) {
			struct ipslot *s = t->buckets[i];

			t->buckets[i] = s->next;
			free(s);
		}
	}
	free(t);
}

static struct ipslot *
ipcount_find(const struct ipcount *t, const char *addr)
{
	struct ipslot *s = t->buckets[ipcount_hash(addr)];

	while (s && strcmp(s->addr, addr) != 0)
		s = s->next;
	return s;
}

struct ipslot *
ipcount_take(struct ipcount *t, const char *addr, size_t max, int *full)
{
	struct ipslot **head = &t->buckets[ipcount_hash(addr)];
	struct ipslot *s = ipcount_find(t, addr);

	*full = 0;
	if (s && max > 0 && s->count >= max) {
		*full = 1;
		return NULL;
	}
	if (s == NULL) {
		if ((s = calloc(1, sizeof *s)) == NULL)
			return NULL;
		strncpy(s->addr, addr, sizeof s->addr - 1);
		s->next = *head;
		*head = s;
	}
	s->count++;
	return s;
}

void
ipcount_release(struct ipcount *t, struct ipslot *slot)
{
	struct ipslot **p;

	if (slot == NULL || --slot->count > 0)
		return;
	for (p = &t->buckets[ipcount_hash(slot->addr)]; *p; p = &(*p)->next) {
		if (*p == slot) {
			*p = slot->next;
			free(slot);
			return;
		}
	}
}

size_t
ipcount_of(const struct ipcount *t, const char *addr)
{
	const struct ipslot *s = ipcount_find(t, addr);

	return s ? s->count : 0;
}

unsigned long
ipcount_refused(struct ipcount *t, const char *addr, long long now_ms)
{
	struct ipslot *s = ipcount_find(t, addr);
	unsigned long n;

	if (s == NULL)
		return 1;
	s->refused++;
	if (s->logged_ms != 0 && now_ms - s->logged_ms < 1000)
		return 0;
	n = s->refused;
	s->refused = 0;
	s->logged_ms = now_ms;
	return n;
}
