/*
 * check_admin_view.c: a queue as the admin API shows it (doc/api.md): its
 * configuration typed by conf.c's key table, its figures and totals, and
 * the draw's figures for a scheduled queue only.
 */
#include <stdlib.h>
#include <string.h>

#include "admin_view.h"
#include "unit.h"

/* A configuration hash as admin_show.lua gives it. */
static void
config(struct qconfig *c, const char *const *pairs)
{
	memset(c, 0, sizeof *c);
	for (; pairs[0] != NULL; pairs += 2, c->n++) {
		c->key[c->n] = pairs[0];
		c->value[c->n] = pairs[1];
		c->len[c->n] = strlen(pairs[1]);
	}
}

/* j as sorted, compact JSON, checked against want; j is released. */
static void
json_is(json_t *j, const char *want)
{
	char *s;

	ck_assert_ptr_nonnull(j);
	s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, want);
	free(s);
	json_decref(j);
}

static const char *const concert[] = {
	"state", "paused",
	"mode", "capacity",
	"batch", "25",
	"max_active", "1400",
	"redirect", "",
	"beacon_round", "",
	"renew", "yes",
	"ver", "1700000000000001",	/* the hash's own, not configuration */
	"page_template", "/srv/concert.html",	/* each host's own */
	NULL
};

START_TEST(test_field)
{
	struct qconfig c;

	config(&c, concert);
	ck_assert_str_eq(admin_view_field(&c, "mode"), "capacity");
	ck_assert_str_eq(admin_view_field(&c, "redirect"), "");
	ck_assert_ptr_null(admin_view_field(&c, "interval"));
	ck_assert_ptr_null(admin_view_field(&c, "mod"));
}
END_TEST

START_TEST(test_config)
{
	struct qconfig c;

	config(&c, concert);
	/* integers as numbers, an empty text as null, the rest left out */
	json_is(admin_view_config(&c), "{\"batch\":25,\"beacon_round\":null,"
	    "\"max_active\":1400,\"mode\":\"capacity\",\"redirect\":null,"
	    "\"renew\":\"yes\",\"state\":\"paused\"}");
}
END_TEST

static struct queue_figures
figures(const char *const *pairs)
{
	struct queue_figures f;

	memset(&f, 0, sizeof f);
	f.exists = 1;
	config(&f.config, pairs);
	f.waiting = 50210;
	f.active = 1380;
	for (int i = 0; i < SHOW_NTOTALS; i++)
		f.totals[i] = 100 + i;
	f.last_minute = 8400;
	f.prequeue = 12;
	f.draw_ms = 345;
	return f;
}

START_TEST(test_queue)
{
	static const char *const rate[] = { "mode", "rate", "batch",
	    "1400", "notice", "Back at 10", "fail_open_until", "1798794000",
	    NULL };
	struct queue_figures f = figures(concert);

	json_is(admin_view_queue(&f, "concert", 1021), "{\"active\":1380,"
	    "\"admitted_last_minute\":8400,\"config\":{\"batch\":25,"
	    "\"beacon_round\":null,\"max_active\":1400,\"mode\":\"capacity\","
	    "\"redirect\":null,\"renew\":\"yes\",\"state\":\"paused\"},"
	    "\"fail_open_until\":0,\"notice\":null,"
	    "\"queue\":\"concert\",\"state\":\"paused\",\"streams\":1021,"
	    "\"totals\":{\"abandoned\":104,\"admitted\":101,\"expired\":102,"
	    "\"joined\":100,\"left\":103,\"noshows\":106,\"removed\":105},"
	    "\"waiting\":50210}");
	/* no state in the hash: open */
	f = figures(rate);
	json_is(admin_view_queue(&f, "line", 0), "{\"active\":1380,"
	    "\"admitted_last_minute\":8400,\"config\":{\"batch\":1400,"
	    "\"mode\":\"rate\"},\"fail_open_until\":1798794000,"
	    "\"notice\":\"Back at 10\",\"queue\":\"line\",\"state\":\"open\","
	    "\"streams\":0,\"totals\":{\"abandoned\":104,\"admitted\":101,"
	    "\"expired\":102,\"joined\":100,\"left\":103,\"noshows\":106,"
	    "\"removed\":105},"
	    "\"waiting\":50210}");
}
END_TEST

START_TEST(test_scheduled)
{
	static const char *const sale[] = { "mode", "rate", "opens_at",
	    "1798794000", NULL };
	static const char *const unset[] = { "mode", "rate", "opens_at", "0",
	    NULL };
	static const char *const empty[] = { "mode", "rate", "opens_at", "",
	    NULL };
	struct queue_figures f = figures(sale);
	json_t *j = admin_view_queue(&f, "sale", 3);

	/* a scheduled queue: who awaits the draw, and what it took */
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "prequeue")),
	    12);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "draw_ms")),
	    345);
	ck_assert_int_eq(json_integer_value(json_object_get(
	    json_object_get(j, "config"), "opens_at")), 1798794000);
	json_decref(j);
	/* none without an opening */
	f = figures(unset);
	ck_assert_ptr_nonnull(j = admin_view_queue(&f, "sale", 3));
	ck_assert_ptr_null(json_object_get(j, "prequeue"));
	ck_assert_ptr_null(json_object_get(j, "draw_ms"));
	json_decref(j);
	f = figures(empty);
	ck_assert_ptr_nonnull(j = admin_view_queue(&f, "sale", 3));
	ck_assert_ptr_null(json_object_get(j, "prequeue"));
	json_decref(j);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("admin_view");
	TCase *tc = tcase_create("admin_view");

	tcase_add_test(tc, test_field);
	tcase_add_test(tc, test_config);
	tcase_add_test(tc, test_queue);
	tcase_add_test(tc, test_scheduled);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
