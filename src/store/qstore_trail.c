/*
 * qstore_trail.c: the trail of admin writes (<prefix>:trail, lib.lua's
 * trail_add). Each admin script records its own entry in the run that
 * makes the change (qstore.c's qcall_trail gives a call the trail's key
 * and the admin's name); qstore_trail reads the newest entries back.
 */
#include "keys.h"
#include "qstore.h"
#include "qstore_call.h"
#include "script.h"

int
qstore_trail(struct qstore *qs, const char *queue, long limit,
    qs_strings_cb *cb, void *arg)
{
	struct script_call *sc;
	char trail[KEYS_MAX];

	if (keys_trail(trail, qs->prefix) == -1 ||
	    (sc = script_call_new(LUA_TRAIL_READ)) == NULL)
		return -1;
	script_set(sc, TRAIL_READ_K_TRAIL, trail);
	script_set(sc, TRAIL_READ_A_QUEUE, queue != NULL ? queue : "");
	script_set_num(sc, TRAIL_READ_A_LIMIT, limit);
	return qcall_eval(qs, qcall_new(qs, qcall_read_strings, cb, arg,
	    "trail_read", queue), sc);
}
