/*
 * check_stream_table.c: the open streams by token: finding a token's
 * streams in its chain, growing as it fills, removing from any place in a
 * chain.
 */
#include <string.h>

#include "sse.h"
#include "stream_table.h"
#include "unit.h"

#define N 3000

static struct stream st[N];

/* Token i: its first 8 bytes, the hash, spread; the rest marks it. */
static void
token_of(unsigned char tok[16], int i)
{
	unsigned long long h = (unsigned long long)i * 0x9e3779b97f4a7c15ULL;

	memcpy(tok, &h, 8);
	memset(tok + 8, 0, 8);
	memcpy(tok + 8, &i, sizeof i);
}

/* How many of token's streams its chain holds. */
static int
streams_of(const struct stream_table *t, const unsigned char tok[16])
{
	int n = 0;

	for (const struct stream *s = stream_table_chain(t, tok); s;
	    s = s->hnext)
		if (memcmp(s->token, tok, 16) == 0)
			n++;
	return n;
}

/* Every stream the buckets hold. */
static size_t
walk(const struct stream_table *t)
{
	size_t n = 0;

	for (size_t b = 0; b < t->size; b++)
		for (const struct stream *s = t->bucket[b]; s; s = s->hnext)
			n++;
	return n;
}

START_TEST(test_put_find_grow)
{
	struct stream_table t;
	unsigned char other[16];

	memset(st, 0, sizeof st);
	ck_assert_int_eq(stream_table_init(&t), 0);
	ck_assert_uint_eq(t.count, 0);
	for (int i = 0; i < N; i++) {
		token_of(st[i].token, i);
		stream_table_put(&t, &st[i]);
	}
	ck_assert_uint_eq(t.count, N);
	/* it grew, a power of two, to keep chains short */
	ck_assert_uint_ge(t.size, 2 * N);
	ck_assert_uint_eq(t.size & (t.size - 1), 0);
	ck_assert_uint_eq(walk(&t), N);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(streams_of(&t, st[i].token), 1);
	token_of(other, N + 1);
	ck_assert_int_eq(streams_of(&t, other), 0);
	stream_table_free(&t);
	ck_assert_ptr_null(t.bucket);
	ck_assert_uint_eq(t.count, 0);
}
END_TEST

START_TEST(test_same_token)
{
	struct stream_table t;

	/* a visitor with two tabs open: both streams in one chain */
	memset(st, 0, sizeof st);
	ck_assert_int_eq(stream_table_init(&t), 0);
	for (int i = 0; i < 3; i++) {
		token_of(st[i].token, 7);
		stream_table_put(&t, &st[i]);
	}
	ck_assert_int_eq(streams_of(&t, st[0].token), 3);
	stream_table_remove(&t, &st[1]);
	ck_assert_int_eq(streams_of(&t, st[0].token), 2);
	ck_assert_uint_eq(t.count, 2);
	for (const struct stream *s = stream_table_chain(&t, st[0].token); s;
	    s = s->hnext)
		ck_assert_ptr_ne(s, &st[1]);
	stream_table_free(&t);
}
END_TEST

START_TEST(test_remove)
{
	struct stream_table t;
	struct stream absent;

	memset(st, 0, sizeof st);
	ck_assert_int_eq(stream_table_init(&t), 0);
	for (int i = 0; i < N; i++) {
		token_of(st[i].token, i);
		stream_table_put(&t, &st[i]);
	}
	for (int i = 0; i < N; i += 2)
		stream_table_remove(&t, &st[i]);
	ck_assert_uint_eq(t.count, N / 2);
	ck_assert_uint_eq(walk(&t), N / 2);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(streams_of(&t, st[i].token), i % 2);
	/* a stream not in the table: nothing changes */
	memset(&absent, 0, sizeof absent);
	token_of(absent.token, 1);
	stream_table_remove(&t, &absent);
	ck_assert_uint_eq(t.count, N / 2);
	ck_assert_int_eq(streams_of(&t, st[1].token), 1);
	stream_table_free(&t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("stream_table");
	TCase *tc = tcase_create("stream_table");

	tcase_add_test(tc, test_put_find_grow);
	tcase_add_test(tc, test_same_token);
	tcase_add_test(tc, test_remove);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
