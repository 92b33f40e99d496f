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
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
