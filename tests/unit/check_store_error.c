/*
 * check_store_error.c: Redis's error replies, classified once
 * (store_error.c): a full Redis is told from a busy one and from a bad
 * command, whether Redis said so itself or wrapped it for a script.
 */
#include "store.h"
#include "unit.h"

START_TEST(test_codes)
{
	ck_assert_int_eq(store_error_of("OOM command not allowed when used "
	    "memory > 'maxmemory'."), STORE_ERR_OOM);
	/* what a script's call of a write meets in a full Redis */
	ck_assert_int_eq(store_error_of("ERR Error running script (call to "
	    "f_0123): @user_script:12: @user_script: 12: -OOM command not "
	    "allowed when used memory > 'maxmemory'."), STORE_ERR_OOM);
	ck_assert_int_eq(store_error_of("NOSCRIPT No matching script. Please "
	    "use EVAL."), STORE_ERR_NOSCRIPT);
	ck_assert_int_eq(store_error_of("READONLY You can't write against a "
	    "read only replica."), STORE_ERR_READONLY);
	ck_assert_int_eq(store_error_of("LOADING Redis is loading the dataset "
	    "in memory"), STORE_ERR_NOT_SERVING);
	ck_assert_int_eq(store_error_of("BUSY Redis is busy running a script."),
	    STORE_ERR_NOT_SERVING);
	ck_assert_int_eq(store_error_of("MISCONF Redis is configured to save "
	    "RDB snapshots, but it's currently unable to persist to disk."),
	    STORE_ERR_NOT_SERVING);
	ck_assert_int_eq(store_error_of("ERR wrong number of arguments for "
	    "'evalsha' command"), STORE_ERR_OTHER);
	ck_assert_int_eq(store_error_of("ERR Error running script: "
	    "attempt to compare nil with number"), STORE_ERR_OTHER);
	ck_assert_int_eq(store_error_of(""), STORE_ERR_OTHER);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("store_error");
	TCase *tc = tcase_create("store_error");

	tcase_add_test(tc, test_codes);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
