/* check_clientaddr.c: the client behind trusted proxies, and its bucket. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clientaddr.h"
#include "ratelimit.h"
#include "unit.h"

static const char *
pick(const char *trusted, const char *peer, const char *xff)
{
	static char out[CLIENTADDR_MAX];
	int bad;
	struct netlist *l = netlist_parse(trusted, &bad, NULL, 0);

	ck_assert(!bad);
	clientaddr_pick(l, peer, xff, out);
	netlist_free(l);
	return out;
}

START_TEST(test_pick)
{
	/* an untrusted peer's header is ignored */
	ck_assert_str_eq(pick(NULL, "203.0.113.9", "1.2.3.4"), "203.0.113.9");
	ck_assert_str_eq(pick("10.0.0.1", "203.0.113.9", "1.2.3.4"),
	    "203.0.113.9");
	/* a trusted peer: the nearest untrusted hop */
	ck_assert_str_eq(pick("10.0.0.1", "10.0.0.1", "1.2.3.4"), "1.2.3.4");
	ck_assert_str_eq(pick("127.0.0.1", "127.0.0.1", "6.6.6.6, 1.2.3.4"),
	    "1.2.3.4");	/* the client wrote 6.6.6.6 itself */
	ck_assert_str_eq(pick("10.0.0.0/8", "10.1.2.3",
	    "6.6.6.6,1.2.3.4 , 10.9.9.9"), "1.2.3.4");
	ck_assert_str_eq(pick("10.0.0.1", "10.0.0.1", NULL), "10.0.0.1");
	ck_assert_str_eq(pick("10.0.0.1", "10.0.0.1", "garbage"), "10.0.0.1");
	ck_assert_str_eq(pick("10.0.0.1", "10.0.0.1", "1.2.3.4, garbage"),
	    "10.0.0.1");
	ck_assert_str_eq(pick("::1", "::1", "2001:db8::7"), "2001:db8::7");
	ck_assert_str_eq(pick("10.0.0.1", "10.0.0.1", "10.0.0.1"), "10.0.0.1");
}
END_TEST

START_TEST(test_netlist)
{
	char err[128];
	int bad;
	struct netlist *l = netlist_parse("10.0.0.0/8 192.168.1.1,::1 "
	    "2001:db8::/32", &bad, err, sizeof err);

	ck_assert(!bad);
	ck_assert(netlist_has(l, "10.255.0.1"));
	ck_assert(!netlist_has(l, "11.0.0.1"));
	ck_assert(netlist_has(l, "192.168.1.1"));
	ck_assert(!netlist_has(l, "192.168.1.2"));
	ck_assert(netlist_has(l, "2001:db8:ffff::1"));
	ck_assert(!netlist_has(l, "2001:db9::1"));
	ck_assert(!netlist_has(l, "not an address"));
	netlist_free(l);
	ck_assert_ptr_null(netlist_parse("10.0.0.0/33", &bad, err, sizeof err));
	ck_assert(bad);
	ck_assert_str_eq(err, "'10.0.0.0/33' is not an address or CIDR block "
	    "(or more than 64 entries)");
	ck_assert(!netlist_valid("localhost"));
	ck_assert(netlist_valid("127.0.0.1 ::1"));
	ck_assert_ptr_null(netlist_parse("", &bad, NULL, 0));
	ck_assert(!bad);
}
END_TEST

START_TEST(test_bucket)
{
	struct ratelimit *r = ratelimit_new(2, 0);	/* 2 a second, burst 2 */

	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1000), 0);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1000), 0);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1000), 1); /* Retry 1 s */
	ck_assert_int_eq(ratelimit_take(r, "5.6.7.8", 1000), 0); /* its own */
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1499), 1);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1500), 0); /* refilled 1 */
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1500), 1);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 60000), 0); /* capped */
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 60000), 0);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 60000), 1);
	ratelimit_free(r);
	r = ratelimit_new(1, 0);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1000), 0);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1000), 1);
	ratelimit_free(r);
	r = ratelimit_new(0, 0);		/* off */
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1000), 0);
	ratelimit_free(r);
	ratelimit_free(NULL);
}
END_TEST

/* Shared: a token a forked worker took is gone for its siblings too. */
START_TEST(test_bucket_shared)
{
	struct ratelimit *r = ratelimit_new(1, 1);
	int status = 0;
	pid_t pid;

	ck_assert_ptr_nonnull(r);
	if ((pid = fork()) == 0)
		_exit(ratelimit_take(r, "1.2.3.4", 1000) == 0 ? 0 : 1);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 1000), 1);
	ck_assert_int_eq(ratelimit_take(r, "5.6.7.8", 1000), 0);
	ck_assert_int_eq(ratelimit_take(r, "1.2.3.4", 2000), 0);
	ratelimit_free(r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("clientaddr");
	TCase *tc = tcase_create("clientaddr");

	tcase_add_test(tc, test_pick);
	tcase_add_test(tc, test_netlist);
	tcase_add_test(tc, test_bucket);
	tcase_add_test(tc, test_bucket_shared);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
