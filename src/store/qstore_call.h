/*
 * qstore_call.h: what the files of the queue store share (qstore.c: the
 * visitors' and the ticks' scripts; qstore_admin.c: the admin API's and
 * the start's). Not for callers of the store: they use qstore.h.
 *
 * Invariant: a struct qcall is made per call and freed right after its
 * callback returned, in qstore.c's call_reply, whatever the outcome.
 */
#ifndef WR_QSTORE_CALL_H
#define WR_QSTORE_CALL_H

#include <hiredis/hiredis.h>

#include "keys.h"
#include "lua_scripts.h"
#include "qstore.h"
#include "qstore_held.h"

#define QUEUE_KEYS 7		/* config seq waiting active seen stats tick */

struct qstore {
	struct store *store;
	char prefix[KEYS_PREFIX_MAX + 1];
	int full;		/* an episode of a full Redis: see qstore_full */
	long long full_at;	/* when it last refused a write (monotonic ms) */
	struct held *held;	/* configuration facts held for joins */
};

struct qcall;
/* Reads a reply (NULL when Redis did not answer) and calls back. */
typedef void qcall_read(struct qcall *c, enum result r, const redisReply *rp);

struct qcall {
	struct qstore *qs;
	qcall_read *read;
	void *cb;		/* the caller's typed callback */
	void *arg;
	const char *script;	/* for logs */
	char queue[CONF_QUEUE_ID_MAX + 1];
	size_t n;		/* tokens or queues the caller sent; for
				 * read_strings, 1: the list is the second */
	int held;		/* a join batch sent with held facts */
};

/* lib.lua's queue keys into argv[0 .. QUEUE_KEYS - 1]. */
void qcall_queue_argv(struct qstore *qs, const char *queue,
    struct queue_keys *k, const char **argv);
/* A call whose reply read reads for cb and arg; NULL when out of memory. */
struct qcall *qcall_new(struct qstore *qs, qcall_read *read, void *cb,
    void *arg, const char *script, const char *queue);
/* Run script id (or a plain command) for c; -1 (c freed) when the store
 * is not ready. flags: STORE_DURABLE for what must survive a failover. */
int qcall_eval_flags(struct qstore *qs, struct qcall *c,
    enum lua_script_id id, int nkeys, int argc, const char *const *argv,
    int flags);
int qcall_eval(struct qstore *qs, struct qcall *c, enum lua_script_id id,
    int nkeys, int argc, const char *const *argv);
int qcall_command(struct qstore *qs, struct qcall *c, int argc,
    const char *const *argv);
/* A reply not shaped as its script promises: logged, RESULT_ERROR. */
enum result qcall_misshaped(struct qcall *c);
/* A list of strings: the reply (c->n 0) or its second element (c->n 1). */
void qcall_read_strings(struct qcall *c, enum result r, const redisReply *rp);

#endif
