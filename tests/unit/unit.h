/* unit.h: run one Check suite, reporting TAP on stdout for the test driver. */
#ifndef WR_UNIT_H
#define WR_UNIT_H

#include <check.h>
#include <stdlib.h>

static inline int
unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_tap(sr, "/dev/stdout");
#ifdef __SANITIZE_ADDRESS__
	/* Check forks a process per test, and each one's exit makes
	 * LeakSanitizer scan the whole heap: the sanitized unit tests took
	 * half a minute of the suite that way. In one process the scan runs
	 * once, at the end, and a leak still fails the program (the test
	 * driver reports its exit status as an ERROR). CK_FORK=yes in the
	 * environment restores a fork per test (and Check's timeouts). */
	if (getenv("CK_FORK") == NULL)
		srunner_set_fork_status(sr, CK_NOFORK);
#endif
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
