/*
 * facts.h: the reply that join, status and summary scripts share (see
 * lua/lib.lua), read into a token status and the queue's facts.
 */
#ifndef WR_FACTS_H
#define WR_FACTS_H

#include <hiredis/hiredis.h>

#include "queue.h"
#include "reply.h"

#define FACTS_RESULT_MAX 16

struct facts {
	char result[FACTS_RESULT_MAX];	/* "ok", "new", "existing", "gone"... */
	char token[37];
	char status[16];		/* "waiting", "active", "summary" */
	long long n;			/* rank, expiry ms, or active count */
	long long waiting;
	char redirect[2049];
	struct queue_facts q;
};

/*
 * Read r into f. A shorter reply (e.g. { "gone" }, { "left", "active" })
 * fills only f->result. Returns -1 when r is not shaped as lib.lua
 * promises. Elements past the facts (ranks.lua's) are left to the caller.
 */
int facts_parse(const redisReply *r, struct facts *f);

/*
 * A reply in two parts, for scripts that answer many tokens at once
 * (join.lua): the head is the line's length before the batch, then the
 * queue's part of the facts (now_ms onward), or an empty array when there
 * is no queue; each entry is the token's part as one string of words split
 * by single spaces: "result token status n waiting", a result alone, or
 * "new" alone: the entry's own token (token, which the caller sent) took
 * the next place in line. Read the head into f once (its waiting is the
 * line's length), then each entry into the same f (an entry sets only the
 * token's part: result, token, status, n, waiting), with *line starting
 * at the head's waiting: a bare "new" is ranked *line, which it then
 * counts. -1 when not so shaped.
 */
int facts_parse_head(const redisReply *r, struct facts *f);
int facts_parse_entry(const redisReply *r, const char *token,
    long long *line, struct facts *f);

/* The status object's view of f; borrows from f and queue. */
void facts_status(const struct facts *f, const char *queue,
    struct token_status *st);

#endif
