/* check_sentinel_spec.c: reading redis = sentinel://host:port,.../master. */
#include <string.h>

#include "conf_check.h"
#include "sentinel_spec.h"
#include "unit.h"

START_TEST(test_good)
{
	struct sentinel_spec sp;

	ck_assert_int_eq(sentinel_spec_parse("sentinel://127.0.0.1:26379,"
	    "localhost:26380,[::1]:26381/mymaster", &sp), 0);
	ck_assert_int_eq(sp.n, 3);
	ck_assert_str_eq(sp.host[0], "127.0.0.1");
	ck_assert_int_eq(sp.port[0], 26379);
	ck_assert_str_eq(sp.host[1], "localhost");
	ck_assert_str_eq(sp.host[2], "::1");
	ck_assert_int_eq(sp.port[2], 26381);
	ck_assert_str_eq(sp.master, "mymaster");
	ck_assert_int_eq(sentinel_spec_parse("sentinel://10.0.0.1:5000/a.b-c_1",
	    &sp), 0);
	ck_assert_int_eq(sp.n, 1);
	ck_assert(conf_check_redis("sentinel://127.0.0.1:26379/wr"));
	ck_assert(conf_check_redis("127.0.0.1:6379"));
}
END_TEST

START_TEST(test_bad)
{
	const char *bad[] = {
		"sentinel://", "sentinel:///m", "sentinel://127.0.0.1:26379",
		"sentinel://127.0.0.1:26379/", "sentinel://127.0.0.1/m",
		"sentinel://127.0.0.1:0/m", "sentinel://127.0.0.1:70000/m",
		"sentinel://127.0.0.1:1,/m", "sentinel://,127.0.0.1:1/m",
		"sentinel://127.0.0.1:1,,127.0.0.1:2/m",
		"sentinel://unix:/run/s.sock/m", "sentinel://127.0.0.1:1/m m",
		"sentinel://127.0.0.1:1/m/n", "sentinel://a:1,b:2,c:3,d:4,e:5,"
		"f:6,g:7,h:8,i:9/m", "Sentinel://127.0.0.1:1/m",
	};
	struct sentinel_spec sp;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(sentinel_spec_parse(bad[i], &sp) == -1,
		    "'%s' was read", bad[i]);
		ck_assert_msg(!conf_check_redis(bad[i]) ||
		    !sentinel_spec_is(bad[i]), "'%s' passed the check", bad[i]);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sentinel_spec");
	TCase *tc = tcase_create("sentinel_spec");

	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
