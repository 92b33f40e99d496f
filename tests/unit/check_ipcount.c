/*
 * check_ipcount.c: open streams per client address: the cap, entries
 * that live while their count is above 0, and refusals logged at most
 * once a second.
 */
#include <stdio.h>

#include "ipcount.h"
#include "unit.h"

START_TEST(test_cap)
{
	struct ipcount *t = ipcount_new();
	struct ipslot *s[3];
	int full = -1;

	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(ipcount_of(t, "192.0.2.1"), 0);
	for (int i = 0; i < 3; i++) {
		ck_assert_ptr_nonnull(s[i] = ipcount_take(t, "192.0.2.1", 3,
		    &full));
		ck_assert_int_eq(full, 0);
	}
	ck_assert_uint_eq(ipcount_of(t, "192.0.2.1"), 3);
	/* the fourth is refused, and says why */
	ck_assert_ptr_null(ipcount_take(t, "192.0.2.1", 3, &full));
	ck_assert_int_eq(full, 1);
	ck_assert_uint_eq(ipcount_of(t, "192.0.2.1"), 3);
	/* another address has its own count */
	ck_assert_ptr_nonnull(ipcount_take(t, "192.0.2.2", 3, &full));
	ck_assert_uint_eq(ipcount_of(t, "192.0.2.2"), 1);
	/* one closes: one more may open */
	ipcount_release(t, s[1]);
	ck_assert_uint_eq(ipcount_of(t, "192.0.2.1"), 2);
	ck_assert_ptr_nonnull(ipcount_take(t, "192.0.2.1", 3, &full));
	ck_assert_int_eq(full, 0);
	ipcount_free(t);
	ipcount_free(NULL);
}
END_TEST

START_TEST(test_no_cap)
{
	struct ipcount *t = ipcount_new();
	int full;

	for (int i = 0; i < 1000; i++)
		ck_assert_ptr_nonnull(ipcount_take(t, "2001:db8::1", 0, &full));
	ck_assert_uint_eq(ipcount_of(t, "2001:db8::1"), 1000);
	ipcount_free(t);
}
END_TEST

/* Thousands of addresses share the buckets; each keeps its own count,
 * and an entry goes when its count reaches 0. */
START_TEST(test_many_addresses)
{
	static struct ipslot *s[5000];
	struct ipcount *t = ipcount_new();
	char a[48];
	int full;

	for (int i = 0; i < 5000; i++) {
		snprintf(a, sizeof a, "10.0.%d.%d", i / 256, i % 256);
		ck_assert_ptr_nonnull(s[i] = ipcount_take(t, a, 2, &full));
		if (i % 2 == 0)
			ck_assert_ptr_nonnull(ipcount_take(t, a, 2, &full));
	}
	for (int i = 0; i < 5000; i += 3)
		ipcount_release(t, s[i]);
	for (int i = 0; i < 5000; i++) {
		size_t want = (i % 2 == 0 ? 2 : 1) - (i % 3 == 0);

		snprintf(a, sizeof a, "10.0.%d.%d", i / 256, i % 256);
		ck_assert_uint_eq(ipcount_of(t, a), want);
	}
	/* gone at 0: a new first stream starts the count again */
	snprintf(a, sizeof a, "10.0.0.3");
	ck_assert_uint_eq(ipcount_of(t, a), 0);
	ck_assert_ptr_nonnull(ipcount_take(t, a, 1, &full));
	ck_assert_ptr_null(ipcount_take(t, a, 1, &full));
	ck_assert_int_eq(full, 1);
	ipcount_release(t, NULL);
	ipcount_free(t);
}
END_TEST

START_TEST(test_longest_address)
{
	const char *a = "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255";
	struct ipcount *t = ipcount_new();
	int full;

	ck_assert_ptr_nonnull(ipcount_take(t, a, 1, &full));
	ck_assert_uint_eq(ipcount_of(t, a), 1);
	ck_assert_ptr_null(ipcount_take(t, a, 1, &full));
	ck_assert_int_eq(full, 1);
	ipcount_free(t);
}
END_TEST

START_TEST(test_refused)
{
	struct ipcount *t = ipcount_new();
	int full;

	ipcount_take(t, "192.0.2.1", 1, &full);
	/* the first refusal is logged at once */
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.1", 10000), 1);
	/* then not within the second */
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.1", 10001), 0);
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.1", 10500), 0);
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.1", 10999), 0);
	/* a second on: this one and the three held back */
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.1", 11000), 4);
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.1", 11001), 0);
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.1", 12001), 2);
	/* an address with no entry: log it */
	ck_assert_uint_eq(ipcount_refused(t, "192.0.2.99", 12001), 1);
	ipcount_free(t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ipcount");
	TCase *tc = tcase_create("ipcount");

	tcase_add_test(tc, test_cap);
	tcase_add_test(tc, test_no_cap);
	tcase_add_test(tc, test_many_addresses);
	tcase_add_test(tc, test_longest_address);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
