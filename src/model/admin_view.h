/*
 * admin_view.h: a queue's configuration and live figures (as the queue
 * store read them: qstore_reply.h) as the admin API shows them, in JSON.
 */
#ifndef WR_ADMIN_VIEW_H
#define WR_ADMIN_VIEW_H

#include <stddef.h>

#include <jansson.h>

#include "figures.h"

/* The value of a configuration field, or NULL. Borrowed from c. */
const char *admin_view_field(const struct qconfig *c, const char *field);

/* A configuration's fields as a JSON object, integers typed by conf.c. */
json_t *admin_view_config(const struct qconfig *c);

/* The admin API's view of one queue; a new reference. */
json_t *admin_view_queue(const struct queue_figures *f, const char *queue,
    size_t streams);

#endif
