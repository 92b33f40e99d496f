/*
 * ctl_draw.c: waitroomctl draw [verify] QUEUE: a scheduled queue's draw,
 * and its check against the seed, its commitment and the order, as
 * doc/api.md, "The draw", says any visitor can check it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/sha.h>

#include "ctl_cmd.h"
#include "ctl_draw.h"
#include "ctl_http.h"
#include "hex.h"
#include "ticket.h"
#include "validate.h"

static void
print_draw(json_t *d)
{
	static const char *const keys[] = { "state", "opens_at", "entrants",
	    "commit", "beacon_round", "seed", "beacon", "drawn_at",
	    "order_sha256", "draw_ms" };
	json_t *v;

	printf("draw of %s:\n", str_of(json_object_get(d, "queue")));
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if ((v = json_object_get(d, keys[i])) == NULL)
			continue;
		if (json_is_integer(v))
			printf("  %-13s %lld\n", keys[i],
			    (long long)json_integer_value(v));
		else
			printf("  %-13s %s\n", keys[i], json_is_string(v) ?
			    json_string_value(v) : "(none)");
	}
}

/* SHA-256 of n bytes as hex. */
static void
sha256_hex(const char *b, size_t n, char out[TICKET_HEX + 1])
{
	unsigned char md[32];

	SHA256((const unsigned char *)b, n, md);
	hex_encode(md, sizeof md, out);
}

/* The order against the draw's seed, commit and hash; 0 when it holds. */
static int
verify_order(struct admin_opts *o, json_t *d, const struct ctl_http_reply *r)
{
	const char *seed = str_of(json_object_get(d, "seed"));
	const char *beacon = str_of(json_object_get(d, "beacon"));
	char commit[TICKET_HEX + 1], sum[TICKET_HEX + 1], t[TICKET_LEN + 1];
	const char *ticket = NULL;
	unsigned char key[32];
	long n, place;

	if (ticket_commit(seed, commit) == -1 ||
	    strcmp(commit, str_of(json_object_get(d, "commit"))) != 0) {
		printf("FAILED: SHA-256(seed) is not the commitment\n");
		return CTL_EXIT_REFUSED;
	}
	sha256_hex(r->body, r->len, sum);
	if (strcmp(sum, str_of(json_object_get(d, "order_sha256"))) != 0) {
		printf("FAILED: SHA-256 of the order is not order_sha256\n");
		return CTL_EXIT_REFUSED;
	}
	if (o->ticket && strlen(o->ticket) == 36)
		ticket_of(o->ticket, t), ticket = t;	/* a token */
	else if (o->ticket)
		ticket = o->ticket;
	if (ticket_draw_key(seed, beacon, key) == -1 ||
	    (n = ticket_check_order(key, r->body, r->len, ticket, &place)) !=
	    json_integer_value(json_object_get(d, "entrants"))) {
		printf("FAILED: the order is not the tickets sorted by "
		    "HMAC(K, ticket), or not all of them\n");
		return CTL_EXIT_REFUSED;
	}
	printf("draw of %s verified: SHA-256(seed) is the commitment %s, and "
	    "the %ld tickets are in HMAC order\n", o->args[1], commit, n);
	if (ticket && place > 0)
		printf("ticket %s: place %ld of %ld\n", ticket, place, n);
	else if (ticket) {
		printf("ticket %s is not in the draw\n", ticket);
		return CTL_EXIT_NOT_FOUND;
	}
	return 0;
}

int
cmd_draw(struct admin_opts *o)
{
	int verify = o->nargs == 2 && strcmp(o->args[0], "verify") == 0;
	const char *q = o->args[verify ? 1 : 0];
	struct ctl_http_reply r = { 0, NULL, 0 };
	char path[160], err[512];
	json_t *doc = NULL;
	int rc;

	if (o->nargs == 2 && !verify)
		return usage_fail(o, "usage: waitroomctl draw [verify] QUEUE");
	if (!valid_queue_id(q))
		return usage_fail(o, "'%.64s' is not a queue name", q);
	snprintf(path, sizeof path, "/v1/queues/%s/draw", q);
	if ((rc = request(o, "GET", path, NULL, &doc)) != 0)
		goto done;
	if (!verify) {
		if (!o->json)
			print_draw(doc);
		goto done;
	}
	if (strcmp(str_of(json_object_get(doc, "state")), "drawn") != 0) {
		fprintf(stderr, "waitroomctl draw: the draw of %s is not done "
		    "(state %s)\n", q, str_of(json_object_get(doc, "state")));
		rc = CTL_EXIT_REFUSED;
		goto done;
	}
	snprintf(path, sizeof path, "/v1/queues/%s/draw/order", q);
	if (ctl_http(o->url, "GET", path, NULL, NULL, o->timeout, &r, err,
	    sizeof err) == -1 || r.status != 200) {
		fprintf(stderr, "waitroomctl draw: the order: %s\n",
		    r.body ? "the server refused it" : err);
		rc = CTL_EXIT_UNREACHABLE;
		goto done;
	}
	rc = verify_order(o, doc, &r);
done:
	free(r.body);
	json_decref(doc);
	return rc;
}
