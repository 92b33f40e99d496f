/* result.c: the outcomes of a store call and how each is answered. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "result.h"

static const struct result_answer answers[] = {
	[RESULT_OK] = { 200, NULL, NULL, NULL, NULL },
	[RESULT_NEW] = { 201, NULL, NULL, NULL, NULL },
	[RESULT_EXISTING] = { 200, NULL, NULL, NULL, NULL },
	[RESULT_NO_QUEUE] = { 404, "queue_not_found", "no queue named '%s'",
	    NULL, "notfound" },
	[RESULT_GONE] = { 404, "token_not_found", "this token is not in "
	    "queue '%s' (it left, expired, or never existed)", NULL, "gone" },
	[RESULT_CLOSED] = { 409, "queue_closed", "queue '%s' does not accept "
	    "new visitors now", NULL, "closed" },
	[RESULT_FULL] = { 503, "queue_full", "the line for '%s' is full; try "
	    "again later", "10", "full" },
	/* The endpoint that gave the use key says what it was. */
	[RESULT_USED] = { 403, "used", "what this join carries for queue '%s' "
	    "was used up already", NULL, "used" },
	[RESULT_INVITE_REQUIRED] = { 403, "invite_required", "queue '%s' "
	    "takes joins by invitation only: send {\"invite\": \"<the "
	    "invitation>\"}", NULL, "closed" },
	[RESULT_NOT_OPEN] = { 409, "queue_not_open", "queue '%s' does not take "
	    "visitors yet: see opens_at and prequeue_from", NULL, "not_open" },
	[RESULT_DRAW_DONE] = { 409, "draw_done", "the draw of queue '%s' is "
	    "done: its record (opens_at, beacon_round) can no longer change",
	    NULL, "closed" },
	[RESULT_DRAW_STARTED] = { 409, "draw_started", "the opening of queue "
	    "'%s' has passed: its opens_at and beacon_round can no longer "
	    "change", NULL, "closed" },
	[RESULT_DRAW_ENTRANTS] = { 409, "draw_has_entrants", "queue '%s' has "
	    "entrants in its pre-queue, promised a draw: its opens_at cannot "
	    "be cleared (move it instead)", NULL, "closed" },
	/* The admin API names the key and the values (conf_check). */
	[RESULT_BAD_SCHEDULE] = { 400, "bad_request", "the schedule of queue "
	    "'%s' is out of order: prequeue_from <= opens_at <= closes_at",
	    NULL, "closed" },
	[RESULT_NO_DRAW] = { 404, "draw_not_found", "queue '%s' has no "
	    "scheduled opening, so no draw", NULL, "notfound" },
	[RESULT_DRAW_PENDING] = { 409, "draw_not_done", "queue '%s' admits "
	    "nobody before its opening's draw is done", NULL, "closed" },
	[RESULT_NOT_DUE] = { 409, "draw_not_due", "queue '%s' takes a beacon "
	    "only after its opening, when it announced a beacon_round", NULL,
	    "closed" },
	[RESULT_NOT_FAILING_OPEN] = { 409, "not_failing_open", "queue '%s' "
	    "is not failing open", NULL, "closed" },
	[RESULT_UNAVAILABLE] = { 503, "store_unavailable", "the queue store is "
	    "unreachable; try again shortly", "1", "unavailable" },
	[RESULT_ERROR] = { 500, "internal", "the queue store answered "
	    "something unexpected", NULL, "unavailable" },
};

const struct result_answer *
result_answer(enum result r)
{
	if ((unsigned)r >= sizeof answers / sizeof answers[0])
		r = RESULT_ERROR;
	return &answers[r];
}

/* Every word a script answers with, and what it means. */
static const struct {
	const char *word;
	enum result r;
} words[] = {
	{ "ok", RESULT_OK }, { "left", RESULT_OK }, { "removed", RESULT_OK },
	{ "dropped", RESULT_OK }, { "updated", RESULT_OK },
	{ "new", RESULT_NEW }, { "created", RESULT_NEW },
	{ "existing", RESULT_EXISTING }, { "no_queue", RESULT_NO_QUEUE },
	{ "gone", RESULT_GONE }, { "closed", RESULT_CLOSED },
	{ "full", RESULT_FULL }, { "used", RESULT_USED },
	{ "invite_required", RESULT_INVITE_REQUIRED },
	{ "full", RESULT_FULL }, { "not_open", RESULT_NOT_OPEN },
	{ "draw_done", RESULT_DRAW_DONE }, { "none", RESULT_NO_DRAW },
	{ "not_due", RESULT_NOT_DUE }, { "draw_pending", RESULT_DRAW_PENDING },
	{ "draw_started", RESULT_DRAW_STARTED },
	{ "draw_has_entrants", RESULT_DRAW_ENTRANTS },
	{ "bad_schedule", RESULT_BAD_SCHEDULE },
	{ "not_failing_open", RESULT_NOT_FAILING_OPEN },
};

enum result
result_parse(const char *word, size_t len)
{
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i].word) == len &&
		    memcmp(words[i].word, word, len) == 0)
			return words[i].r;
	return RESULT_ERROR;
}

char *
result_message(const struct result_answer *a, const char *queue, char *buf,
    size_t size)
{
	const char *m = a->message ? a->message : "";
	const char *at = strstr(m, "%s");

	if (at == NULL)
		snprintf(buf, size, "%s", m);
	else
		snprintf(buf, size, "%.*s%s%s", (int)(at - m), m, queue, at + 2);
	return buf;
}
