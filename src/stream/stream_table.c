/* stream_table.c: the open streams by token; see stream_table.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stream_table.h"

#define TABLE_FIRST 1024

static size_t
tok_hash(const struct stream_table *t, const unsigned char *tok)
{
	uint64_t h;

	memcpy(&h, tok, sizeof h);	/* random bits: any 8 bytes will do */
	return (size_t)h & (t->size - 1);
}

int
stream_table_init(struct stream_table *t)
{
	t->size = TABLE_FIRST;
	t->count = 0;
	t->bucket = calloc(t->size, sizeof *t->bucket);
	return t->bucket ? 0 : -1;
}

void
stream_table_free(struct stream_table *t)
{
	free(t->bucket);
	t->bucket = NULL;
	t->size = t->count = 0;
}

static void
link_in(struct stream_table *t, struct stream *st)
{
	size_t i = tok_hash(t, st->token);

	st->hnext = t->bucket[i];
	t->bucket[i] = st;
}

static void
grow(struct stream_table *t)
{
	struct stream **old = t->bucket, **fresh;
	size_t oldsize = t->size;

	if ((fresh = calloc(oldsize * 2, sizeof *fresh)) == NULL)
		return;		/* longer chains, still correct */
	t->bucket = fresh;
	t->size = oldsize * 2;
	for (size_t i = 0; i < oldsize; i++) {
		while (old[i]) {
			struct stream *st = old[i];

			old[i] = st->hnext;
			link_in(t, st);
		}
	}
	free(old);
}

void
stream_table_put(struct stream_table *t, struct stream *st)
{
	if (t->count * 2 >= t->size)
		grow(t);
	link_in(t, st);
	t->count++;
}

void
stream_table_remove(struct stream_table *t, struct stream *st)
{
	struct stream **p = &t->bucket[tok_hash(t, st->token)];

	for (; *p; p = &(*p)->hnext) {
		if (*p == st) {
			*p = st->hnext;
			t->count--;
			return;
		}
	}
}

struct stream *
stream_table_chain(const struct stream_table *t,
    const unsigned char token[16])
{
	return t->bucket[tok_hash(t, token)];
}
