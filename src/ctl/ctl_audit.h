/*
 * ctl_audit.h: waitroomctl audit's table, from the entries of GET
 * /v1/admin/audit (doc/api.md, "The trail"). Pure: no I/O but f.
 */
#ifndef WR_CTL_AUDIT_H
#define WR_CTL_AUDIT_H

#include <stdio.h>

#include <jansson.h>

/* entries (newest first) as a table: time (UTC, RFC 3339), admin, queue,
 * action, then the changes as "key: before -> after" and the detail. */
void ctl_audit_print(FILE *f, json_t *entries);

#endif
