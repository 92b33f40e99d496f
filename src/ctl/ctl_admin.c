/*
 * ctl_admin.c: waitroomctl's admin commands; see ctl_admin.h. Each
 * command turns its arguments into one request (ctl_http.c) and the
 * answer into a table for people or, with --json, the server's JSON.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "admins.h"
#include "auth.h"
#include "ctl_audit.h"
#include "ctl_report.h"
#include "ctl_admin.h"
#include "ctl_cmd.h"
#include "ctl_draw.h"
#include "ctl_http.h"
#include "route.h"
#include "validate.h"

#define CTL_DEFAULT_URL "http://127.0.0.1:8080"
#define CTL_TIMEOUT_S 10

struct admin_cmd {
	const char *name;
	int min, max;		/* arguments after the name */
	const char *args;	/* for the usage line */
	int (*run)(struct admin_opts *o);
	int public;		/* needs no admin token */
};

void
ctl_admin_usage(FILE *f)
{
	fputs("admin commands:\n"
	    "  status [QUEUE]           every queue, or one, with live figures\n"
	    "  pause QUEUE              stop admissions (joins go on)\n"
	    "  resume QUEUE             restart admissions of a paused queue\n"
	    "  close QUEUE              stop joins (those waiting are still "
	    "admitted)\n"
	    "  open QUEUE               restart joins of a closed queue\n"
	    "  set QUEUE KEY=VALUE...   create a queue or change its settings\n"
	    "  promote QUEUE N          admit the next N now\n"
	    "  kick QUEUE TOKEN         remove one token\n"
	    "  notice QUEUE TEXT        a message to everyone waiting (up to "
	    "280\n"
	    "                           characters); notice clear QUEUE "
	    "removes it\n"
	    "  fail-open QUEUE MINUTES  admit every join at once for MINUTES "
	    "(1 to 1440),\n"
	    "                           then the mode it had; fail-open end "
	    "QUEUE ends it\n"
	    "  report QUEUE [--from T] [--to T] [--csv]\n"
	    "                           how the line went: totals, waits, a "
	    "line per\n"
	    "                           minute (T: unix seconds or RFC 3339 in "
	    "UTC)\n"
	    "  audit [QUEUE] [--limit N]\n"
	    "                           the trail of admin writes, newest "
	    "first (N: 1 to\n"
	    "                           1000, default 100)\n"
	    "  draw QUEUE               a scheduled queue's draw\n"
	    "  draw verify QUEUE [--ticket T]\n"
	    "                           check the drawn order against the seed "
	    "and its\n"
	    "                           commitment; where ticket (or token) T "
	    "stands\n\n"
	    "admin options:\n"
	    "  --url URL         the daemon, http://host:port (default "
	    "$WAITROOM_URL or\n"
	    "                    " CTL_DEFAULT_URL ")\n"
	    "  --admin-url URL   the admin API, when the daemon serves it on "
	    "admin_listen\n"
	    "                    (default $WAITROOM_ADMIN_URL or --url)\n"
	    "  --token-file FILE the admin token (default "
	    "$WAITROOM_ADMIN_TOKEN)\n"
	    "  --timeout S       give up after S seconds (default 10)\n"
	    "  --json            print the server's JSON, for scripts\n"
	    "  --ticket T        draw verify: where ticket (or token) T "
	    "stands\n"
	    "  --limit N         audit: at most N entries\n"
	    "  --from T, --to T  report: the minutes from T, to T\n"
	    "  --csv             report: the minutes as CSV\n\n"
	    "exit status: 0 done, 1 refused by the server, 2 usage error, "
	    "3 server\nunreachable, 4 not authorized (or the admin API is off), "
	    "5 no such queue\nor token\n", f);
}

/* ---- printing ------------------------------------------------------------- */

static const char *const columns[] = { "QUEUE", "STATE", "MODE", "WAITING",
    "ACTIVE", "ADMITTED/MIN", "JOINED", "ADMITTED", "EXPIRED", "LEFT",
    "ABANDONED", "REMOVED", "STREAMS" };
#define NCOLS (sizeof columns / sizeof columns[0])

/* The cells of one queue's row, in the order of columns. */
static void
row_cells(json_t *q, char cells[NCOLS][72])
{
	static const char *const totals[] = { "joined", "admitted", "expired",
	    "left", "abandoned", "removed" };
	json_t *t = json_object_get(q, "totals");

	snprintf(cells[0], 72, "%s", str_of(json_object_get(q, "queue")));
	snprintf(cells[1], 72, "%s", str_of(json_object_get(q, "state")));
	snprintf(cells[2], 72, "%s", str_of(json_object_get(
	    json_object_get(q, "config"), "mode")));
	snprintf(cells[3], 72, "%lld", (long long)json_integer_value(
	    json_object_get(q, "waiting")));
	snprintf(cells[4], 72, "%lld", (long long)json_integer_value(
	    json_object_get(q, "active")));
	snprintf(cells[5], 72, "%lld", (long long)json_integer_value(
	    json_object_get(q, "admitted_last_minute")));
	for (int i = 0; i < 6; i++)
		snprintf(cells[6 + i], 72, "%lld", (long long)
		    json_integer_value(json_object_get(t, totals[i])));
	snprintf(cells[12], 72, "%lld", (long long)json_integer_value(
	    json_object_get(q, "streams")));
}

/* A table of queues: names left-aligned, figures right-aligned. */
static void
print_table(json_t *queues)
{
	size_t n = json_array_size(queues), w[NCOLS];
	char (*cells)[NCOLS][72] = calloc(n ? n : 1, sizeof *cells);

	if (cells == NULL)
		return;
	for (size_t c = 0; c < NCOLS; c++)
		w[c] = strlen(columns[c]);
	for (size_t i = 0; i < n; i++) {
		row_cells(json_array_get(queues, i), cells[i]);
		for (size_t c = 0; c < NCOLS; c++)
			if (strlen(cells[i][c]) > w[c])
				w[c] = strlen(cells[i][c]);
	}
	for (size_t c = 0; c < NCOLS; c++)
		printf(c < 3 ? "%-*s%s" : "%*s%s", (int)w[c], columns[c],
		    c + 1 < NCOLS ? "  " : "\n");
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < NCOLS; c++)
			printf(c < 3 ? "%-*s%s" : "%*s%s", (int)w[c],
			    cells[i][c], c + 1 < NCOLS ? "  " : "\n");
	free(cells);
}

static void
print_config(json_t *config)
{
	const char *key;
	json_t *v;

	printf("configuration:\n");
	json_object_foreach(config, key, v) {
		time_t t = (time_t)json_integer_value(v);
		char when[32];

		if (json_is_integer(v) && t > 0 && (strcmp(key, "opens_at") ==
		    0 || strcmp(key, "prequeue_from") == 0 ||
		    strcmp(key, "closes_at") == 0) &&
		    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ",
		    gmtime(&t)) > 0)
			printf("  %-12s %s (%lld)\n", key, when, (long long)t);
		else if (json_is_integer(v))
			printf("  %-12s %lld\n", key,
			    (long long)json_integer_value(v));
		else
			printf("  %-12s %s\n", key, json_is_string(v) ?
			    json_string_value(v) : "(none)");
	}
}

/* ---- the commands ------------------------------------------------------ */

static int
cmd_status(struct admin_opts *o)
{
	char path[128];
	json_t *doc, *list;
	int rc;

	snprintf(path, sizeof path, "/v1/admin/queues%s%s", o->nargs ? "/" :
	    "", o->nargs ? o->args[0] : "");
	if ((rc = request(o, "GET", path, NULL, &doc)) != 0 || o->json)
		goto done;
	if (o->nargs == 0) {
		if (json_array_size(list = json_object_get(doc, "queues")) == 0)
			printf("no queues\n");
		else
			print_table(list);
		goto done;
	}
	list = json_pack("[O]", doc);
	print_table(list);
	json_decref(list);
	print_config(json_object_get(doc, "config"));
done:
	json_decref(doc);
	return rc;
}

/* pause, resume, close, open */
static int
cmd_state(struct admin_opts *o)
{
	char path[128];
	json_t *doc;
	const char *now, *before;
	int rc;

	snprintf(path, sizeof path, "/v1/admin/queues/%s/%s", o->args[0],
	    o->cmd);
	if ((rc = request(o, "POST", path, NULL, &doc)) == 0 && !o->json) {
		now = json_string_value(json_object_get(doc, "state"));
		before = json_string_value(json_object_get(doc, "previous"));
		if (now && before && strcmp(now, before) == 0)
			printf("queue %s: %s (unchanged)\n", o->args[0], now);
		else
			printf("queue %s: %s (was %s)\n", o->args[0],
			    now ? now : "?", before ? before : "?");
	}
	json_decref(doc);
	return rc;
}

static int
cmd_set(struct admin_opts *o)
{
	json_t *body = json_object(), *doc = NULL;
	char path[128];
	int rc;

	for (int i = 1; i < o->nargs; i++) {
		char *eq = strchr(o->args[i], '=');

		if (eq == NULL || eq == o->args[i]) {
			json_decref(body);
			return usage_fail(o, "'%s' is not KEY=VALUE", o->args[i]);
		}
		*eq = '\0';
		json_object_set_new(body, o->args[i], json_string(eq + 1));
	}
	snprintf(path, sizeof path, "/v1/admin/queues/%s", o->args[0]);
	if ((rc = request(o, "PUT", path, body, &doc)) == 0 && !o->json) {
		printf("queue %s: %s\n", o->args[0],
		    str_of(json_object_get(doc, "result")));
		print_config(json_object_get(doc, "config"));
	}
	json_decref(body);
	json_decref(doc);
	return rc;
}

static int
cmd_promote(struct admin_opts *o)
{
	json_t *body, *doc = NULL, *tokens;
	char path[128], *end;
	long n = strtol(o->args[1], &end, 10);
	int rc;

	if (*o->args[1] == '\0' || *end != '\0' || n < 1)
		return usage_fail(o, "N must be a whole number of 1 or more, "
		    "not '%s'", o->args[1]);
	body = json_pack("{s:i}", "count", (int)(n > 1000000 ? 1000000 : n));
	snprintf(path, sizeof path, "/v1/admin/queues/%s/promote", o->args[0]);
	if ((rc = request(o, "POST", path, body, &doc)) == 0 && !o->json) {
		tokens = json_object_get(doc, "tokens");
		printf("queue %s: admitted %zu\n", o->args[0],
		    json_array_size(tokens));
		for (size_t i = 0; i < json_array_size(tokens); i++)
			printf("  %s\n", str_of(json_array_get(tokens, i)));
	}
	json_decref(body);
	json_decref(doc);
	return rc;
}

static int
cmd_kick(struct admin_opts *o)
{
	char path[160];
	json_t *doc;
	int rc;

	if (!valid_token(o->args[1]))
		return usage_fail(o, "'%.40s' is not a token (a lower-case "
		    "version 4 UUID)", o->args[1]);
	snprintf(path, sizeof path, "/v1/admin/queues/%s/tokens/%s",
	    o->args[0], o->args[1]);
	if ((rc = request(o, "DELETE", path, NULL, &doc)) == 0) {
		if (o->json)
			printf("{\"queue\":\"%s\",\"token\":\"%s\","
			    "\"removed\":true}\n", o->args[0], o->args[1]);
		else
			printf("queue %s: removed %s\n", o->args[0], o->args[1]);
	}
	json_decref(doc);
	return rc;
}

/* notice QUEUE TEXT, or notice clear QUEUE. */
static int
cmd_notice(struct admin_opts *o)
{
	int clear = strcmp(o->args[0], "clear") == 0;
	const char *q = o->args[clear ? 1 : 0];
	json_t *body = clear ? NULL : json_pack("{s:s}", "text", o->args[1]);
	char path[160];
	json_t *doc = NULL;
	int rc;

	if (!clear && body == NULL)
		return usage_fail(o, "the notice is not UTF-8 text");
	if (!valid_queue_id(q))
		return usage_fail(o, "'%.64s' is not a queue name", q);
	snprintf(path, sizeof path, "/v1/admin/queues/%s/notice", q);
	if ((rc = request(o, clear ? "DELETE" : "PUT", path, body, &doc)) ==
	    0 && !o->json)
		printf(clear ? "queue %s: notice cleared\n" :
		    "queue %s: notice set\n", q);
	json_decref(body);
	json_decref(doc);
	return rc;
}

/* fail-open QUEUE MINUTES, or fail-open end QUEUE. */
static int
cmd_fail_open(struct admin_opts *o)
{
	int end = strcmp(o->args[0], "end") == 0;
	const char *q = o->args[end ? 1 : 0];
	json_t *body = NULL, *doc = NULL;
	char path[160], *e;
	long n = end ? 0 : strtol(o->args[1], &e, 10);
	int rc;

	if (!end && (*o->args[1] == '\0' || *e != '\0' || n < 1 || n > 1440))
		return usage_fail(o, "MINUTES must be a whole number from 1 "
		    "to 1440, not '%s'", o->args[1]);
	if (!valid_queue_id(q))
		return usage_fail(o, "'%.64s' is not a queue name", q);
	if (!end)
		body = json_pack("{s:i}", "minutes", (int)n);
	snprintf(path, sizeof path, "/v1/admin/queues/%s/fail-open", q);
	if ((rc = request(o, end ? "DELETE" : "POST", path, body, &doc)) ==
	    0 && !o->json) {
		time_t t = (time_t)json_integer_value(json_object_get(doc,
		    "until"));
		char when[32] = "";

		if (t > 0)
			strftime(when, sizeof when, " until %Y-%m-%dT%H:%M:%SZ",
			    gmtime(&t));
		printf("queue %s: mode %s%s\n", q,
		    str_of(json_object_get(doc, "mode")), when);
	}
	json_decref(body);
	json_decref(doc);
	return rc;
}

static int
cmd_audit(struct admin_opts *o)
{
	char path[160], limit[32] = "";
	json_t *doc;
	int rc;

	if (o->limit > 0)
		snprintf(limit, sizeof limit, "%slimit=%ld", o->nargs ? "&" :
		    "?", o->limit);
	snprintf(path, sizeof path, "/v1/admin/audit%s%s%s", o->nargs ?
	    "?queue=" : "", o->nargs ? o->args[0] : "", limit);
	if ((rc = request(o, "GET", path, NULL, &doc)) == 0 && !o->json)
		ctl_audit_print(stdout, json_object_get(doc, "entries"));
	json_decref(doc);
	return rc;
}

/* ---- the report ----------------------------------------------------------- */

/* s into out for a query, %-escaping all but [A-Za-z0-9:._-]. */
static void
query_escape(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s && n + 4 < size; s++) {
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789:._-", *s))
			out[n++] = *s;
		else
			n += (size_t)snprintf(out + n, size - n, "%%%02X",
			    (unsigned char)*s);
	}
	out[n] = '\0';
}

/* The report's path for o into path. */
static void
report_path(const struct admin_opts *o, char *path, size_t size)
{
	char from[128] = "", to[128] = "";
	size_t n;

	if (o->from)
		query_escape(o->from, from, sizeof from);
	if (o->to)
		query_escape(o->to, to, sizeof to);
	n = (size_t)snprintf(path, size, "/v1/admin/queues/%s/report%s",
	    o->args[0], o->csv ? ".csv" : "");
	if (n < size && (o->from || o->to))
		snprintf(path + n, size - n, "?%s%s%s%s%s", o->from ? "from=" :
		    "", from, o->from && o->to ? "&" : "", o->to ? "to=" : "",
		    to);
}

/* --csv: the answer's text as it is. */
static int
report_csv(struct admin_opts *o, const char *path)
{
	struct ctl_http_reply r = { 0, NULL, 0 };
	char err[512];
	int rc = 0;

	if (ctl_http(o->admin_url ? o->admin_url : o->url, "GET", path,
	    o->token, NULL, o->timeout, &r, err, sizeof err) == -1) {
		fprintf(stderr, "waitroomctl %s: %s\n", o->cmd, err);
		return CTL_EXIT_UNREACHABLE;
	}
	if (r.status >= 300)
		rc = answer_error(o, &r);
	else
		fwrite(r.body, 1, r.len, stdout);
	free(r.body);
	return rc;
}

static int
cmd_report(struct admin_opts *o)
{
	char path[512];
	json_t *doc;
	int rc;

	if (!valid_queue_id(o->args[0]))
		return usage_fail(o, "'%.64s' is not a queue name", o->args[0]);
	report_path(o, path, sizeof path);
	if (o->csv)
		return report_csv(o, path);
	if ((rc = request(o, "GET", path, NULL, &doc)) == 0 && !o->json)
		ctl_report_print(stdout, doc);
	json_decref(doc);
	return rc;
}

static const struct admin_cmd admin_cmds[] = {
	{ "status", 0, 1, "[QUEUE]", cmd_status, 0 },
	{ "pause", 1, 1, "QUEUE", cmd_state, 0 },
	{ "resume", 1, 1, "QUEUE", cmd_state, 0 },
	{ "close", 1, 1, "QUEUE", cmd_state, 0 },
	{ "open", 1, 1, "QUEUE", cmd_state, 0 },
	{ "set", 2, 64, "QUEUE KEY=VALUE...", cmd_set, 0 },
	{ "promote", 2, 2, "QUEUE N", cmd_promote, 0 },
	{ "kick", 2, 2, "QUEUE TOKEN", cmd_kick, 0 },
	{ "draw", 1, 2, "[verify] QUEUE", cmd_draw, 1 },
	{ "audit", 0, 1, "[QUEUE]", cmd_audit, 0 },
	{ "notice", 2, 2, "QUEUE TEXT | clear QUEUE", cmd_notice, 0 },
	{ "fail-open", 2, 2, "QUEUE MINUTES | end QUEUE", cmd_fail_open, 0 },
	{ "report", 1, 1, "QUEUE", cmd_report, 0 },
};

/* ---- options ---------------------------------------------------------- */

/* 0, or the exit status. */
static int
admin_args(int argc, char **argv, struct admin_opts *o)
{
	static const struct option longopts[] = {
		{ "url", required_argument, NULL, 'u' },
		{ "admin-url", required_argument, NULL, 'a' },
		{ "token-file", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "ticket", required_argument, NULL, 'k' },
		{ "limit", required_argument, NULL, 'l' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 'o' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int ch;

	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (ch) {
		case 'u': o->url = optarg; break;
		case 'a': o->admin_url = optarg; break;
		case 't': o->token_file = optarg; break;
		case 'j': o->json = 1; break;
		case 'k': o->ticket = optarg; break;
		case 'f': o->from = optarg; break;
		case 'o': o->to = optarg; break;
		case 'c': o->csv = 1; break;
		case 'l':
			o->limit = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || o->limit < 1 ||
			    o->limit > 1000)
				return usage_fail(o, "--limit: '%s' is not 1 "
				    "to 1000", optarg);
			break;
		case 'T':
			o->timeout = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || o->timeout < 1 || o->timeout > 3600)
				return usage_fail(o, "--timeout: '%s' is not "
				    "1 to 3600 seconds", optarg);
			break;
		case 'h':
			ctl_admin_usage(stdout);
			return -1;
		case ':':
			return usage_fail(o, "option '%s' needs a value",
			    argv[optind - 1]);
		default:
			return usage_fail(o, "unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	return 0;
}

static int
admin_token(struct admin_opts *o)
{
	const char *env = getenv("WAITROOM_ADMIN_TOKEN");
	struct admins *ad;
	char err[512];

	if (o->token_file) {
		if ((ad = admins_load(o->token_file, err, sizeof err)) == NULL)
			return usage_fail(o, "%s", err);
		/* A file of several admins: the first one's token. */
		snprintf(o->token, sizeof o->token, "%s", ad->a[0].token);
		admins_free(ad);
		return 0;
	}
	if (env == NULL || *env == '\0')
		return usage_fail(o, "no admin token: give --token-file FILE "
		    "or set WAITROOM_ADMIN_TOKEN");
	if (strlen(env) > AUTH_TOKEN_MAX)
		return usage_fail(o, "WAITROOM_ADMIN_TOKEN is longer than %d "
		    "characters", AUTH_TOKEN_MAX);
	snprintf(o->token, sizeof o->token, "%s", env);
	return 0;
}

int
ctl_admin(int argc, char **argv)
{
	struct admin_opts o = { .cmd = argv[0], .timeout = CTL_TIMEOUT_S };
	const struct admin_cmd *c = NULL;
	int rc;

	for (size_t i = 0; i < sizeof admin_cmds / sizeof admin_cmds[0]; i++)
		if (strcmp(admin_cmds[i].name, argv[0]) == 0)
			c = &admin_cmds[i];
	if (c == NULL)
		return CTL_EXIT_USAGE;
	o.url = getenv("WAITROOM_URL") ? getenv("WAITROOM_URL") :
	    CTL_DEFAULT_URL;
	o.admin_url = getenv("WAITROOM_ADMIN_URL");
	if ((rc = admin_args(argc, argv, &o)) != 0)
		return rc == -1 ? 0 : rc;
	if (o.nargs < c->min || o.nargs > c->max)
		return usage_fail(&o, "usage: waitroomctl %s %s [options]",
		    c->name, c->args);
	if (o.nargs > 0 && !valid_queue_id(o.args[0]))
		return usage_fail(&o, "'%.64s' is not a queue name (accepted: "
		    "1 to 64 of A-Z a-z 0-9 _ -)", o.args[0]);
	if ((!c->public || o.token_file || getenv("WAITROOM_ADMIN_TOKEN")) &&
	    (rc = admin_token(&o)) != 0)
		return rc;
	rc = c->run(&o);
	if (fflush(stdout) != 0)
		return CTL_EXIT_REFUSED;
	return rc;
}
