/*
 * qstore_call.h: what the files of the queue store share (qstore.c: the
 * visitors' and the ticks' scripts; qstore_join.c: the joins';
 * qstore_admin.c: the admin API's and the start's; qstore_draw.c: the
 * draw's). Not for callers of the store: they use qstore.h.
 *
 * A call is two things: a struct script_call (script.h), its keys and
 * arguments by slot, which the store copies when sending; and a struct
 * qcall, what the reply is read into and for whom.
 *
 * Invariant: a struct qcall is made per call and freed right after its
 * callback returned, in qstore.c's call_reply, whatever the outcome.
 */
#ifndef WR_QSTORE_CALL_H
#define WR_QSTORE_CALL_H

#include <hiredis/hiredis.h>

#include "keys.h"
#include "qstore.h"
#include "qstore_held.h"
#include "script.h"

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
	size_t n;		/* tokens or queues the caller sent */
	int list;		/* qcall_read_strings: the field holding the
				 * list; -1: the reply is the list */
	int held;		/* a join batch sent with held facts */
	void *extra;		/* the call's own bytes, allocated with it */
};

/* A call whose reply read reads for cb and arg; NULL when out of memory.
 * With extra, c->extra is that many bytes of its own. */
struct qcall *qcall_new(struct qstore *qs, qcall_read *read, void *cb,
    void *arg, const char *script, const char *queue);
struct qcall *qcall_new_extra(struct qstore *qs, qcall_read *read, void *cb,
    void *arg, const char *script, const char *queue, size_t extra);

/*
 * A call of script id with queue's ten keys in its slots from first on
 * (the events channel's name into k, when k is not NULL); NULL when out
 * of memory.
 */
struct script_call *qcall_script(struct qstore *qs, enum lua_script_id id,
    const char *queue, int first, struct queue_keys *k);

/*
 * Run sc (freed) for c; -1 (c freed) when the store is not ready or sc
 * is not whole. flags: STORE_DURABLE for what must survive a failover.
 */
int qcall_eval_flags(struct qstore *qs, struct qcall *c,
    struct script_call *sc, int flags);
int qcall_eval(struct qstore *qs, struct qcall *c, struct script_call *sc);
int qcall_command(struct qstore *qs, struct qcall *c, int argc,
    const char *const *argv);
/* A reply not shaped as its script promises: logged, RESULT_ERROR. */
enum result qcall_misshaped(struct qcall *c);
/*
 * An admin write's call sc records itself on the trail: its key
 * (key_slot: the script's KEY trail) and the admin's name (admin_slot:
 * its ARG admin; NULL: "").
 */
void qcall_trail(struct qstore *qs, struct script_call *sc,
    int key_slot, int admin_slot, const char *admin);

/* A list of strings: the reply, or its field c->list. */
void qcall_read_strings(struct qcall *c, enum result r, const redisReply *rp);
/* For a qs_done_cb: the result word that leads the reply. */
void qcall_read_done(struct qcall *c, enum result r, const redisReply *rp);

#endif
