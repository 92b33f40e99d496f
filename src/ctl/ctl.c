/*
 * ctl.c: waitroomctl, the operator's tool. One table of subcommands; each
 * gets argv from its own name on and returns the exit status: 0 done,
 * 1 failed, 2 a usage error (message and usage on stderr).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "ctl_admin.h"
#include "ctl_invite.h"
#include "plan.h"
#include "validate.h"

#define EXIT_USAGE 2

struct ctl_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

static int ctl_plan(int argc, char **argv);

static const struct ctl_command ctl_commands[] = {
	{ "plan", "turn what the site can take into queue settings",
	  ctl_plan },
	{ "status", "every queue, or one, with live figures", ctl_admin },
	{ "pause", "stop admissions of a queue", ctl_admin },
	{ "resume", "restart admissions of a paused queue", ctl_admin },
	{ "close", "stop joins to a queue", ctl_admin },
	{ "open", "restart joins to a closed queue", ctl_admin },
	{ "set", "create a queue or change its settings", ctl_admin },
	{ "draw", "a scheduled queue's draw; draw verify checks it",
	  ctl_admin },
	{ "promote", "admit the next N of a queue now", ctl_admin },
	{ "kick", "remove one token from a queue", ctl_admin },
	{ "audit", "the trail of admin writes, newest first", ctl_admin },
	{ "notice", "a message to everyone waiting in a queue", ctl_admin },
	{ "fail-open", "admit every join at once for N minutes", ctl_admin },
	{ "report", "how a queue's line went: totals, waits, minutes",
	  ctl_admin },
	{ "invite", "print invitations to an invite-only queue",
	  ctl_invite },
};

#define NCOMMANDS (sizeof ctl_commands / sizeof ctl_commands[0])

static void
usage(FILE *f)
{
	fprintf(f, "usage: waitroomctl COMMAND [options]\n"
	    "       waitroomctl --help | --version\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", ctl_commands[i].name,
		    ctl_commands[i].summary);
	fprintf(f, "\n'waitroomctl COMMAND --help' lists a command's "
	    "options.\n\n");
	ctl_admin_usage(f);
}

static void
plan_usage(FILE *f)
{
	fputs("usage: waitroomctl plan --tps N --session S --calls N "
	    "--failure-rate R\n"
	    "                        [--utilisation U] [--interval S] "
	    "[--queue NAME] [--json]\n\n"
	    "Turns what the protected site can take into queue settings, "
	    "with the\nformulas of seed 000 (cost = calls x (1 + failure "
	    "rate)):\n"
	    "  concurrent       = tps x session / cost\n"
	    "  target           = concurrent x utilisation\n"
	    "  cycle            = session / utilisation\n"
	    "  tokens per cycle = tps x cycle / cost\n"
	    "  batch            = tokens per cycle x interval / cycle\n"
	    "batch and max_active (= target) are rounded DOWN, so no more "
	    "are admitted\nthan the site can take. The batch is the site's "
	    "full rate (tps x interval\n/ cost): utilisation lengthens the "
	    "cycle but does not lower the batch.\n\n"
	    "  --tps N             API requests per second the site serves "
	    "at most\n"
	    "  --session S         seconds a session lasts (becomes "
	    "active_ttl)\n"
	    "  --calls N           API requests one session makes\n"
	    "  --failure-rate R    share of requests failing and retried: "
	    "0.15 or 15%\n"
	    "  --utilisation U     share of capacity to aim for "
	    "(default 0.8 or 80%)\n"
	    "  --interval S        seconds between admissions in rate mode "
	    "(default 10)\n"
	    "  --queue NAME        name of the printed [queue] section "
	    "(default main)\n"
	    "  --json              print the figures as one JSON object\n"
	    "  --help              print this help and exit\n", f);
}

static int plan_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Usage errors: one line naming the problem, then the usage. */
static int
plan_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("waitroomctl plan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	plan_usage(stderr);
	return EXIT_USAGE;
}

struct plan_opts {
	struct plan_input in;
	const char *queue;
	int json;
};

static void
plan_print_text(const struct plan_opts *o, const struct plan *p)
{
	const struct plan_input *in = &o->in;

	printf("%g TPS, %ld s sessions, %g calls per session, %g%% failures, "
	    "%g%% utilisation:\n", in->tps, in->session, in->calls,
	    in->failure_rate * 100, in->utilisation * 100);
	printf("  concurrent capacity  %.2f sessions at once\n"
	    "  target concurrency   %.2f (max_active %ld)\n"
	    "  cycle                %.2f s\n"
	    "  tokens per cycle     %.2f\n"
	    "  interval             %ld s\n"
	    "  batch                %ld (%.2f x %ld / %.2f = %.2f, rounded "
	    "down)\n", p->concurrent, p->target, p->max_active, p->cycle,
	    p->tokens_per_cycle, in->interval, p->batch, p->tokens_per_cycle,
	    in->interval, p->cycle, p->batch_exact);
	printf("  note: rate mode admits at the site's full rate; with whole "
	    "%ld s sessions\n  about %ld are inside at once, the capacity "
	    "rather than the target.\n\n", in->session, p->rate_active);
	printf("# both caps: admit %ld every %ld s, and never more than "
	    "%ld inside at once\n[queue %s]\n"
	    "mode        = rate\nbatch       = %ld\ninterval    = %ld\n"
	    "max_active  = %ld\nactive_ttl  = %ld\n", p->batch, in->interval,
	    p->max_active, o->queue, p->batch, in->interval, p->max_active,
	    in->session);
}

/* The queue name is [A-Za-z0-9_-], so it needs no JSON escaping. */
static void
plan_print_json(const struct plan_opts *o, const struct plan *p)
{
	const struct plan_input *in = &o->in;

	printf("{\"queue\":\"%s\",\"tps\":%.15g,\"session\":%ld,"
	    "\"calls\":%.15g,\"failure_rate\":%.15g,\"utilisation\":%.15g,"
	    "\"interval\":%ld,", o->queue, in->tps, in->session, in->calls,
	    in->failure_rate, in->utilisation, in->interval);
	printf("\"concurrent\":%.2f,\"target\":%.2f,\"cycle_seconds\":%.2f,"
	    "\"tokens_per_cycle\":%.2f,\"batch_exact\":%.2f,\"batch\":%ld,"
	    "\"max_active\":%ld,\"active_ttl\":%ld,\"rate_active\":%ld}\n",
	    p->concurrent, p->target, p->cycle, p->tokens_per_cycle,
	    p->batch_exact, p->batch, p->max_active, in->session,
	    p->rate_active);
}

/* One option of plan; -1: exit with *rc. */
static int
plan_option(struct plan_opts *o, const char *name, const char *arg, int *rc)
{
	char err[PLAN_ERR_MAX];

	if (strcmp(name, "help") == 0) {
		plan_usage(stdout);
		*rc = 0;
		return -1;
	}
	if (strcmp(name, "json") == 0) {
		o->json = 1;
	} else if (strcmp(name, "queue") == 0) {
		if (!valid_queue_id(arg)) {
			*rc = plan_fail("--queue: '%.64s' is not valid "
			    "(accepted: 1 to 64 of A-Z a-z 0-9 _ -)", arg);
			return -1;
		}
		o->queue = arg;
	} else if (plan_set(&o->in, name, arg, err, sizeof err) == -1) {
		*rc = plan_fail("%s", err);
		return -1;
	}
	return 0;
}

/* 0: go on; -1: exit with *rc. */
static int
plan_args(int argc, char **argv, struct plan_opts *o, int *rc)
{
	static const struct option longopts[] = {
		{ "tps", required_argument, NULL, 0 },
		{ "session", required_argument, NULL, 0 },
		{ "calls", required_argument, NULL, 0 },
		{ "failure-rate", required_argument, NULL, 0 },
		{ "utilisation", required_argument, NULL, 0 },
		{ "interval", required_argument, NULL, 0 },
		{ "queue", required_argument, NULL, 0 },
		{ "json", no_argument, NULL, 0 },
		{ "help", no_argument, NULL, 0 },
		{ NULL, 0, NULL, 0 }
	};
	int ch, i;

	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":", longopts, &i)) != -1) {
		if (ch == ':') {
			*rc = plan_fail("option '%s' needs a value",
			    argv[optind - 1]);
			return -1;
		}
		if (ch != 0) {
			char opt[3] = { '-', (char)optopt, '\0' };

			*rc = plan_fail("unknown option '%s'",
			    optopt != 0 ? opt : argv[optind - 1]);
			return -1;
		}
		if (plan_option(o, longopts[i].name, optarg, rc) == -1)
			return -1;
	}
	if (optind < argc) {
		*rc = plan_fail("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

static int
ctl_plan(int argc, char **argv)
{
	struct plan_opts o = { .queue = "main" };
	struct plan p;
	char err[PLAN_ERR_MAX];
	const char *missing;
	int rc = 0;

	plan_input_init(&o.in);
	if (plan_args(argc, argv, &o, &rc) == -1)
		return rc;
	if ((missing = plan_missing(&o.in)) != NULL)
		return plan_fail("--%s is required", missing);
	if (plan_compute(&o.in, &p, err, sizeof err) == -1) {
		fprintf(stderr, "waitroomctl plan: %s\n", err);
		return EXIT_USAGE;
	}
	if (o.json)
		plan_print_json(&o, &p);
	else
		plan_print_text(&o, &p);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "waitroomctl plan: cannot write the plan\n");
		return 1;
	}
	return 0;
}

/*
 * "waitroomctl --url U status": admin options may come before the
 * command. Move the command's name to argv[1], options keeping their order.
 */
static void
command_first(int argc, char **argv)
{
	static const char *const valued[] = { "--url", "--admin-url",
	    "--token-file", "--timeout" };
	int i = 1;

	while (i < argc && argv[i][0] == '-' && strcmp(argv[i], "--help") != 0 &&
	    strcmp(argv[i], "--version") != 0) {
		for (size_t v = 0; v < sizeof valued / sizeof valued[0]; v++)
			if (strcmp(argv[i], valued[v]) == 0)
				i++;
		i++;
	}
	if (i == 1 || i >= argc || argv[i][0] == '-')
		return;
	for (char *cmd = argv[i]; i > 1; i--)
		argv[i] = argv[i - 1], argv[i - 1] = cmd;
}

int
main(int argc, char **argv)
{
	command_first(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("waitroomctl %s\n", PACKAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], ctl_commands[i].name) == 0)
			return ctl_commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "waitroomctl: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
