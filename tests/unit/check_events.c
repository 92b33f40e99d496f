/*
 * check_events.c: the events channel's messages (events.def): what
 * events.c writes it reads back, whatever is not a message is refused,
 * and the messages the Lua scripts' formatters wrote in a real Redis
 * (tests/integration/events.sh captures them and runs this with
 * WR_EVENTS_CAPTURED naming the file, one message a line, and
 * WR_EVENTS_KINDS the words it must hold) all parse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "unit.h"

static const char *const toks[] = {
	"0b3c5e1a-0000-4000-8000-000000000001",
	"0b3c5e1a-0000-4000-8000-000000000002",
};

/* msg parsed: its kind, its arg, and its tokens joined by commas. */
static void
parsed(const char *msg, enum event_kind kind, const char *arg,
    const char *tokens)
{
	struct queue_event e;
	char tok[40], all[256] = "";
	int rc;

	ck_assert_msg(event_parse(msg, strlen(msg), &e) == 0, "'%s' was "
	    "refused", msg);
	ck_assert_int_eq(e.kind, kind);
	ck_assert_str_eq(e.arg, arg);
	while ((rc = event_token(&e, tok, sizeof tok)) == 1)
		snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
		    all[0] ? "," : "", tok);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(all, tokens);
}

/* Every kind, written by events.c, reads back as written. */
START_TEST(test_round_trip)
{
	char buf[256], both[128];

	snprintf(both, sizeof both, "%s,%s", toks[0], toks[1]);
	ck_assert_int_gt(event_format(buf, sizeof buf, EVENT_ENTERED,
	    "1795460399000", toks, 2), 0);
	parsed(buf, EVENT_ENTERED, "1795460399000", both);
	ck_assert_int_gt(event_format(buf, sizeof buf, EVENT_GONE, "removed",
	    toks, 1), 0);
	parsed(buf, EVENT_GONE, "removed", toks[0]);
	ck_assert_int_eq(event_format(buf, sizeof buf, EVENT_DROPPED, NULL,
	    NULL, 0), 7);
	ck_assert_str_eq(buf, "dropped");
	parsed(buf, EVENT_DROPPED, "", "");
	ck_assert_int_eq(event_format(buf, sizeof buf, EVENT_DRAWN, NULL, NULL,
	    0), 5);
	parsed(buf, EVENT_DRAWN, "", "");
}
END_TEST

/* What the scripts publish today, as doc/design.md shows it. */
START_TEST(test_the_scripts_words)
{
	parsed("entered 1795460399000 t1 t2", EVENT_ENTERED, "1795460399000",
	    "t1,t2");
	parsed("gone removed t1", EVENT_GONE, "removed", "t1");
	parsed("dropped", EVENT_DROPPED, "", "");
	parsed("drawn", EVENT_DRAWN, "", "");
}
END_TEST

START_TEST(test_not_messages)
{
	const char *bad[] = {
		"", " ", "entered", "entered 17", "entered 17 ", " entered 17 t",
		"entered  17 t", "entered 17  t", "gone removed", "dropped x",
		"drawn ", "dropped drawn", "admitted 17 t", "Entered 17 t",
		"entered 012345678901234567890123456789012 t",
	};
	struct queue_event e;
	char buf[16];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(event_parse(bad[i], strlen(bad[i]), &e) == -1,
		    "'%s' was read", bad[i]);
	/* what would not be a message is not written either */
	ck_assert_int_eq(event_format(buf, sizeof buf, EVENT_ENTERED, "1",
	    NULL, 0), -1);
	ck_assert_int_eq(event_format(buf, sizeof buf, EVENT_DROPPED, "x",
	    NULL, 0), -1);
	ck_assert_int_eq(event_format(buf, sizeof buf, EVENT_GONE, "removed",
	    toks, 1), -1);		/* does not fit */
}
END_TEST

/* A token too long to keep is skipped, the next still read. */
START_TEST(test_long_token)
{
	const char *msg = "gone removed 0123456789 t2";
	struct queue_event e;
	char tok[8];

	ck_assert_int_eq(event_parse(msg, strlen(msg), &e), 0);
	ck_assert_int_eq(event_token(&e, tok, sizeof tok), -1);
	ck_assert_int_eq(event_token(&e, tok, sizeof tok), 1);
	ck_assert_str_eq(tok, "t2");
	ck_assert_int_eq(event_token(&e, tok, sizeof tok), 0);
}
END_TEST

/* The messages a real Redis carried, as the scripts wrote them. */
START_TEST(test_captured)
{
	const char *path = getenv("WR_EVENTS_CAPTURED");
	const char *kinds = getenv("WR_EVENTS_KINDS");
	int seen[EVENT_KINDS] = { 0 }, n = 0;
	char line[8192];
	FILE *f;

	ck_assert_msg(path && kinds, "WR_EVENTS_CAPTURED and WR_EVENTS_KINDS");
	ck_assert_msg((f = fopen(path, "r")) != NULL, "cannot read %s", path);
	while (fgets(line, sizeof line, f) != NULL) {
		struct queue_event e;
		char tok[40];

		line[strcspn(line, "\n")] = '\0';
		ck_assert_msg(event_parse(line, strlen(line), &e) == 0,
		    "a script published '%s', which is no message", line);
		while (event_token(&e, tok, sizeof tok) == 1)
			;
		seen[e.kind]++, n++;
	}
	fclose(f);
	for (int k = 0; k < EVENT_KINDS; k++)
		ck_assert_msg(strstr(kinds, event_word(k)) == NULL || seen[k],
		    "no '%s' among the %d messages captured", event_word(k),
		    n);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("events");

	if (getenv("WR_EVENTS_CAPTURED") != NULL)
		tcase_add_test(tc, test_captured);
	else {
		tcase_add_test(tc, test_round_trip);
		tcase_add_test(tc, test_the_scripts_words);
		tcase_add_test(tc, test_not_messages);
		tcase_add_test(tc, test_long_token);
	}
	suite_add_tcase(s, tc);
	return unit_run(s);
}
