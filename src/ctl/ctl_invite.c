/*
 * ctl_invite.c: waitroomctl invite QUEUE: print invitations to a queue
 * with access = invite (invite.h), one a line, signed with the last key
 * of the pass key file, each with a random jti. It needs no waitroomd:
 * the key file is all, so a site can as well mint its own with any JWT
 * library.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/rand.h>

#include "b64url.h"
#include "ctl_invite.h"
#include "invite.h"
#include "passkeys.h"
#include "validate.h"

#define INVITE_KEYS_DEFAULT "/etc/waitroom/pass.keys"
#define INVITE_COUNT_MAX 100000
#define INVITE_TTL_MAX (366L * 86400)

struct invite_opts {
	const char *queue, *keys;
	long uses, ttl, count;
};

static void
invite_usage(FILE *f)
{
	fputs("usage: waitroomctl invite QUEUE [--uses N] [--ttl S] "
	    "[--count K] [--key-file FILE]\n\n"
	    "Prints K invitations to QUEUE (a queue with access = invite), "
	    "one a line:\nHS256 JWTs with aud, a random jti, exp and "
	    "max_uses, signed with the last\nkey of the pass key file.\n\n"
	    "  --uses N         joins one invitation buys (default 1)\n"
	    "  --ttl S          seconds it stays valid (default 86400)\n"
	    "  --count K        how many to print (default 1)\n"
	    "  --key-file FILE  the pass_key_file (default "
	    "$WAITROOM_PASS_KEY_FILE,\n"
	    "                   else " INVITE_KEYS_DEFAULT ")\n"
	    "  --help           print this help and exit\n", f);
}

static int
invite_fail(const char *what)
{
	fprintf(stderr, "waitroomctl invite: %s\n\n", what);
	invite_usage(stderr);
	return 2;
}

/* A whole number from lo to hi; -1 when s is not one. */
static long
invite_number(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end != '\0' || v < lo || v > hi ? -1 : v;
}

/* 0: go on; else the exit status. */
static int
invite_args(int argc, char **argv, struct invite_opts *o)
{
	static const struct option longopts[] = {
		{ "uses", required_argument, NULL, 'u' },
		{ "ttl", required_argument, NULL, 't' },
		{ "count", required_argument, NULL, 'c' },
		{ "key-file", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (ch) {
		case 'u':
			if ((o->uses = invite_number(optarg, 1,
			    INVITE_USES_MAX)) == -1)
				return invite_fail("--uses: accepted: an "
				    "integer from 1 to 1000000");
			break;
		case 't':
			if ((o->ttl = invite_number(optarg, 1,
			    INVITE_TTL_MAX)) == -1)
				return invite_fail("--ttl: accepted: seconds "
				    "from 1 to 31622400");
			break;
		case 'c':
			if ((o->count = invite_number(optarg, 1,
			    INVITE_COUNT_MAX)) == -1)
				return invite_fail("--count: accepted: an "
				    "integer from 1 to 100000");
			break;
		case 'k':
			o->keys = optarg;
			break;
		case 'h':
			invite_usage(stdout);
			return -1;
		default:
			return invite_fail(ch == ':' ? "an option needs a value" :
			    "unknown option");
		}
	}
	if (optind + 1 != argc)
		return invite_fail("name one queue");
	o->queue = argv[optind];
	if (!valid_queue_id(o->queue))
		return invite_fail("the queue's name is not valid (accepted: "
		    "1 to 64 of A-Z a-z 0-9 _ -)");
	return 0;
}

int
ctl_invite(int argc, char **argv)
{
	struct invite_opts o = { .uses = 1, .ttl = 86400, .count = 1 };
	struct passkeys *k;
	char err[512], out[INVITE_MAX], jti[32];
	unsigned char rnd[16];
	long long exp;
	int rc;

	o.keys = getenv("WAITROOM_PASS_KEY_FILE") ?
	    getenv("WAITROOM_PASS_KEY_FILE") : INVITE_KEYS_DEFAULT;
	if ((rc = invite_args(argc, argv, &o)) != 0)
		return rc == -1 ? 0 : rc;
	if ((k = passkeys_load_file(o.keys, err, sizeof err)) == NULL) {
		fprintf(stderr, "waitroomctl invite: %s\n", err);
		return 1;
	}
	exp = (long long)time(NULL) + o.ttl;
	for (long i = 0; i < o.count; i++) {
		if (RAND_bytes(rnd, sizeof rnd) != 1 ||
		    (b64url_encode(rnd, sizeof rnd, jti), 0) ||
		    invite_sign(k, o.queue, jti, exp, o.uses, out,
		    sizeof out) == -1) {
			fprintf(stderr, "waitroomctl invite: cannot sign\n");
			passkeys_free(k);
			return 1;
		}
		puts(out);
	}
	passkeys_free(k);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "waitroomctl invite: cannot write\n");
		return 1;
	}
	return 0;
}
