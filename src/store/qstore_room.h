/*
 * qstore_room.h: the queue store's calls for the operator's console
 * (room_beat.lua, room_read.lua, room_history.lua); the plain figures
 * they fill for src/model's room.c are in figures.h.
 */
#ifndef WR_QSTORE_ROOM_H
#define WR_QSTORE_ROOM_H

#include <stddef.h>

#include "qstore.h"

/*
 * room_beat.lua: this process's beat under id; the second's samples
 * of names' queues and their join marks, if nobody wrote them yet.
 */
int qstore_room_beat(struct qstore *qs, const char *id, const char *beat,
    const char *const *names, size_t n, qs_done_cb *cb, void *arg);

/* room_read.lua: the room, names' queues in order. */
typedef void qs_room_cb(enum result r, const struct room_read *rr,
    void *arg);
int qstore_room_read(struct qstore *qs, const char *const *names, size_t n,
    qs_room_cb *cb, void *arg);

/* room_history.lua: names' samples since from_s (unix s), in order. */
typedef void qs_series_cb(enum result r, const struct room_series *s,
    size_t n, void *arg);
int qstore_room_history(struct qstore *qs, const char *const *names,
    size_t n, long long from_s, qs_series_cb *cb, void *arg);

#endif
