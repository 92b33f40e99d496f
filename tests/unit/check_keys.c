/* check_keys.c: every Redis key name, built in one place. */
#include <string.h>

#include "keys.h"
#include "unit.h"

START_TEST(test_queue_keys)
{
	struct queue_keys k;

	ck_assert_int_eq(keys_queue(&k, "wr", "concert"), 0);
	ck_assert_str_eq(k.config, "wr:{concert}:config");
	ck_assert_str_eq(k.seq, "wr:{concert}:seq");
	ck_assert_str_eq(k.waiting, "wr:{concert}:waiting");
	ck_assert_str_eq(k.active, "wr:{concert}:active");
	ck_assert_str_eq(k.seen, "wr:{concert}:seen");
	ck_assert_str_eq(k.stats, "wr:{concert}:stats");
	ck_assert_str_eq(k.tick, "wr:{concert}:tick");
	ck_assert_str_eq(k.events, "wr:{concert}:events");
	ck_assert_int_eq(keys_queue(&k, "shop.wr-1", "Q_2"), 0);
	ck_assert_str_eq(k.waiting, "shop.wr-1:{Q_2}:waiting");
}
END_TEST

START_TEST(test_queue_keys_longest)
{
	/* the longest prefix and queue fit */
	const char *prefix = "pppppppppppppppppppppppppppppppp";
	const char *queue = "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
	    "qqqqqqqqq";
	struct queue_keys k;

	ck_assert_uint_eq(strlen(prefix), 32);
	ck_assert_uint_eq(strlen(queue), 64);
	ck_assert_int_eq(keys_queue(&k, prefix, queue), 0);
	ck_assert_uint_eq(strlen(k.waiting), 32 + 2 + 64 + 2 + 7);
	ck_assert_str_eq(k.waiting + 32 + 2 + 64 + 2, "waiting");
	ck_assert_str_eq(k.events + 32 + 2 + 64 + 2, "events");
}
END_TEST

START_TEST(test_queue_keys_bad)
{
	struct queue_keys k;

	ck_assert_int_eq(keys_queue(&k, "", "concert"), -1);
	ck_assert_int_eq(keys_queue(&k, "w:r", "concert"), -1);
	ck_assert_int_eq(keys_queue(&k, "w{r}", "concert"), -1);
	ck_assert_int_eq(keys_queue(&k, "ppppppppppppppppppppppppppppppppp",
	    "concert"), -1);
	ck_assert_int_eq(keys_queue(&k, "wr", ""), -1);
	ck_assert_int_eq(keys_queue(&k, "wr", "bad!id"), -1);
	ck_assert_int_eq(keys_queue(&k, "wr", "a}b"), -1);
	ck_assert_int_eq(keys_queue(&k, "wr", "a:b"), -1);
}
END_TEST

/* The two keys the pass check reads, in the queue's hash slot. */
START_TEST(test_pass_keys)
{
	char buf[KEYS_MAX + 48];

	ck_assert_int_eq(keys_dropped(buf, "wr", "concert"), 0);
	ck_assert_str_eq(buf, "wr:{concert}:dropped");
	ck_assert_int_ge(keys_revoked(buf, sizeof buf, "wr", "concert",
	    "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21"), 0);
	ck_assert_str_eq(buf,
	    "wr:{concert}:revoked:0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21");
}
END_TEST

START_TEST(test_valid_prefix)
{
	ck_assert_int_eq(valid_key_prefix("wr"), 1);
	ck_assert_int_eq(valid_key_prefix("A.b_c-9"), 1);
	ck_assert_int_eq(valid_key_prefix("pppppppppppppppppppppppppppppppp"),
	    1);
	ck_assert_int_eq(valid_key_prefix("ppppppppppppppppppppppppppppppppp"),
	    0);
	ck_assert_int_eq(valid_key_prefix(""), 0);
	ck_assert_int_eq(valid_key_prefix("w r"), 0);
	ck_assert_int_eq(valid_key_prefix("w:r"), 0);
}
END_TEST

START_TEST(test_user_key)
{
	const char *want = "wr:{concert}:user:u-1";
	char buf[KEYS_USER_MAX];
	size_t n = strlen(want);

	ck_assert_int_ge(keys_user(buf, sizeof buf, "wr", "concert", "u-1"),
	    0);
	ck_assert_str_eq(buf, want);
	/* exactly big enough, then one byte short */
	ck_assert_int_ge(keys_user(buf, n + 1, "wr", "concert", "u-1"), 0);
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(keys_user(buf, n, "wr", "concert", "u-1"), -1);
	ck_assert_int_eq(keys_user(buf, 4, "wr", "concert", "u-1"), -1);
	/* a user of 128 three-byte characters fits KEYS_USER_MAX */
	{
		char user[3 * 128 + 1] = "";

		for (int i = 0; i < 128; i++)
			strcat(user, "\xed\x95\x9c");
		ck_assert_int_ge(keys_user(buf, sizeof buf, "wr", "concert",
		    user), 0);
		ck_assert_str_eq(buf + strlen("wr:{concert}:user:"), user);
	}
}
END_TEST

/* KEYS_USER_MAX holds the key of any valid prefix, queue and user. */
START_TEST(test_user_key_longest)
{
	const char *prefix = "pppppppppppppppppppppppppppppppp";
	const char *queue = "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
	    "qqqqqqqqq";
	char buf[KEYS_USER_MAX], user[4 * 128 + 1] = "";

	for (int i = 0; i < 128; i++)
		strcat(user, "\xf0\x9f\x98\x80");	/* U+1F600 */
	ck_assert_int_ge(keys_user(buf, sizeof buf, prefix, queue, user), 0);
	ck_assert_uint_eq(strlen(buf), 32 + 2 + 64 + 2 + 5 + 4 * 128);
}
END_TEST

/* A use key: its layout, the longest fits, and what it refuses. */
START_TEST(test_used_key)
{
	const char *prefix = "pppppppppppppppppppppppppppppppp";
	const char *queue = "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
	    "qqqqqqqqq";
	char buf[KEYS_USED_MAX], id[KEYS_USED_ID_MAX + 2];

	ck_assert_int_eq(keys_used(buf, "wr", "concert", "pow", "ab-C_9"), 0);
	ck_assert_str_eq(buf, "wr:{concert}:used:pow:ab-C_9");
	memset(id, 'x', KEYS_USED_ID_MAX);
	id[KEYS_USED_ID_MAX] = '\0';
	ck_assert_int_eq(keys_used(buf, prefix, queue, "abcdefghijklmnop", id),
	    0);
	ck_assert_uint_eq(strlen(buf), 32 + 2 + 64 + 7 + 16 + 1 + 64);
	strcat(id, "x");
	ck_assert_int_eq(keys_used(buf, "wr", "q", "pow", id), -1);
	ck_assert_int_eq(keys_used(buf, "wr", "q", "pow", ""), -1);
	ck_assert_int_eq(keys_used(buf, "wr", "q", "pow", "a:b"), -1);
	ck_assert_int_eq(keys_used(buf, "wr", "q", "pow", "a}b"), -1);
	ck_assert_int_eq(keys_used(buf, "wr", "q", "Pow", "ab"), -1);
	ck_assert_int_eq(keys_used(buf, "wr", "q", "", "ab"), -1);
	ck_assert_int_eq(keys_used(buf, "wr", "q", "abcdefghijklmnopq", "ab"),
	    -1);
}
END_TEST

START_TEST(test_draw_keys)
{
	struct draw_keys k;

	ck_assert_int_eq(keys_draw(&k, "wr", "concert"), 0);
	ck_assert_str_eq(k.draw, "wr:{concert}:draw");
	ck_assert_str_eq(k.sorted, "wr:{concert}:draw:sorted");
	ck_assert_str_eq(k.order, "wr:{concert}:draw:order");
	ck_assert_str_eq(k.lock, "wr:{concert}:draw:lock");
	ck_assert_int_eq(keys_draw(&k, "wr", "bad queue"), -1);
}
END_TEST

/* The names of the whole prefix, no queue's. */
START_TEST(test_global_keys)
{
	const char *longest = "pppppppppppppppppppppppppppppppp";
	struct room_names rn;
	char buf[KEYS_MAX];

	ck_assert_int_eq(keys_registry(buf, "wr"), 0);
	ck_assert_str_eq(buf, "wr:queues");
	ck_assert_int_eq(keys_trail(buf, "wr"), 0);
	ck_assert_str_eq(buf, "wr:trail");
	ck_assert_int_eq(keys_epoch(buf, "wr"), 0);
	ck_assert_str_eq(buf, "wr:epoch");
	ck_assert_int_eq(keys_powkey(buf, "wr"), 0);
	ck_assert_str_eq(buf, "wr:powkey");
	ck_assert_int_eq(keys_events_pattern(buf, "wr"), 0);
	ck_assert_str_eq(buf, "wr:{*}:events");
	ck_assert_int_eq(keys_room(&rn, "wr"), 0);
	ck_assert_str_eq(rn.room, "wr:room");
	ck_assert_str_eq(rn.seen, "wr:room:seen");
	ck_assert_str_eq(rn.second, "wr:room:second");
	ck_assert_int_eq(keys_room(&rn, longest), 0);
	ck_assert_uint_eq(strlen(rn.second), strlen(longest) + 12);
	ck_assert_int_eq(keys_registry(buf, "w:r"), -1);
	ck_assert_int_eq(keys_trail(buf, ""), -1);
	ck_assert_int_eq(keys_epoch(buf, "w{r}"), -1);
	ck_assert_int_eq(keys_powkey(buf, "w r"), -1);
	ck_assert_int_eq(keys_events_pattern(buf, "w:r"), -1);
	ck_assert_int_eq(keys_room(&rn, "w:r"), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("keys");

	tcase_add_test(tc, test_queue_keys);
	tcase_add_test(tc, test_queue_keys_longest);
	tcase_add_test(tc, test_queue_keys_bad);
	tcase_add_test(tc, test_pass_keys);
	tcase_add_test(tc, test_valid_prefix);
	tcase_add_test(tc, test_user_key);
	tcase_add_test(tc, test_user_key_longest);
	tcase_add_test(tc, test_used_key);
	tcase_add_test(tc, test_draw_keys);
	tcase_add_test(tc, test_global_keys);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
