/*
 * figures.h: one queue's entry of lua/admin_show.lua's reply (its
 * configuration and live figures), read for the admin API and /metrics.
 */
#ifndef WR_FIGURES_H
#define WR_FIGURES_H

#include <hiredis/hiredis.h>
#include <jansson.h>

#define FIGURES_NTOTALS 6

struct figures {
	int exists;
	const redisReply *config;	/* borrowed: field, value, ... */
	long long waiting;
	long long active;
	long long totals[FIGURES_NTOTALS];	/* joined .. removed */
	long long last_minute;		/* admitted in the last minute */
};

/* -1 when e is not shaped as admin_show.lua promises. */
int figures_parse(const redisReply *e, struct figures *f);

/* The value of a configuration field, or NULL. Borrowed from the reply. */
const char *figures_config(const struct figures *f, const char *field);

/* A config hash's pairs as a JSON object, integers typed by conf.c. */
json_t *figures_config_json(const redisReply *pairs);

/* The admin API's view of one queue; a new reference. */
json_t *figures_json(const struct figures *f, const char *queue,
    size_t streams);

#endif
