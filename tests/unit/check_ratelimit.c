/*
 * check_ratelimit.c: join_rate_per_ip's token buckets: the burst, the
 * refill, Retry-After, addresses that share a slot, and a table shared
 * with a forked worker.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ratelimit.h"
#include "unit.h"

START_TEST(test_no_limit)
{
	struct ratelimit *r = ratelimit_new(0, 0);

	ck_assert_ptr_nonnull(r);
	for (int i = 0; i < 10000; i++)
		ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 0), 0);
	ratelimit_free(r);
	ratelimit_free(NULL);
}
END_TEST

START_TEST(test_burst_then_wait)
{
	struct ratelimit *r = ratelimit_new(3, 0);

	/* a burst of rate, then a second to wait */
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 1000), 0);
	ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 1000), 1);
	ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 1000), 1);
	/* another address has its own bucket */
	ck_assert_int_eq(ratelimit_take(r, "2001:db8::1", 1000), 0);
	ratelimit_free(r);
}
END_TEST

START_TEST(test_refill)
{
	struct ratelimit *r = ratelimit_new(3, 0);

	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 0), 0);
	/* one token every 333.3 ms */
	ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 333), 1);
	ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 334), 0);
	ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 334), 1);
	/* a long rest fills the bucket to the burst, no more */
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 60000), 0);
	ck_assert_int_eq(ratelimit_take(r, "192.0.2.1", 60000), 1);
	ratelimit_free(r);
}
END_TEST

/*
 * Two addresses that share a slot take turns, the newer one starting
 * with a full bucket: found from outside, as the address whose take gives
 * a drained address its burst back.
 */
START_TEST(test_shared_slot)
{
	struct ratelimit *r = ratelimit_new(1, 0);
	char b[32];
	int i;

	ck_assert_int_eq(ratelimit_take(r, "198.51.100.7", 0), 0);
	ck_assert_int_eq(ratelimit_take(r, "198.51.100.7", 0), 1);
	for (i = 0; i < 16 * RATELIMIT_SLOTS; i++) {
		snprintf(b, sizeof b, "10.%d.%d.%d", i >> 16 & 255,
		    i >> 8 & 255, i & 255);
		ck_assert_int_eq(ratelimit_take(r, b, 0), 0);
		if (ratelimit_take(r, "198.51.100.7", 0) == 0)
			break;
	}
	ck_assert_msg(i < 16 * RATELIMIT_SLOTS, "no address shares a slot");
	/* b lost its place to 198.51.100.7: it starts full again */
	ck_assert_int_eq(ratelimit_take(r, b, 0), 0);
	ck_assert_int_eq(ratelimit_take(r, b, 0), 1);
	ratelimit_free(r);
}
END_TEST

START_TEST(test_shared_with_fork)
{
	struct ratelimit *r = ratelimit_new(2, 1);
	int status;
	pid_t pid;

	ck_assert_ptr_nonnull(r);
	if ((pid = fork()) == 0)
		_exit(ratelimit_take(r, "192.0.2.9", 5000) == 0 &&
		    ratelimit_take(r, "192.0.2.9", 5000) == 0 ? 0 : 1);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the worker took the burst: this one is held to the same rate */
	ck_assert_int_eq(ratelimit_take(r, "192.0.2.9", 5000), 1);
	ratelimit_free(r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ratelimit");
	TCase *tc = tcase_create("ratelimit");

	tcase_add_test(tc, test_no_limit);
	tcase_add_test(tc, test_burst_then_wait);
	tcase_add_test(tc, test_refill);
	tcase_add_test(tc, test_shared_slot);
	tcase_add_test(tc, test_shared_with_fork);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
