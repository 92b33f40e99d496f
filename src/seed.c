/* seed.c: the configured queues into Redis; see seed.h. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "conf.h"
#include "keys.h"
#include "log.h"
#include "lua_scripts.h"
#include "seed.h"
#include "store.h"

struct field_args {
	const char *argv[64];
	char *copies[32];	/* values are borrowed only during the call */
	int argc, ncopies;
};

static void
add_field(const char *key, const char *value, void *arg)
{
	struct field_args *a = arg;
	char *copy;

	if (a->argc + 2 > (int)(sizeof a->argv / sizeof a->argv[0]) ||
	    a->ncopies >= (int)(sizeof a->copies / sizeof a->copies[0]) ||
	    (copy = strdup(value)) == NULL)
		return;
	a->copies[a->ncopies++] = copy;
	a->argv[a->argc++] = key;
	a->argv[a->argc++] = copy;
}

static void
queue_written(const struct store_result *res, void *arg)
{
	if (res->status != STORE_OK)
		log_error("event=queue_config_failed error=\"%s\"",
		    res->error ? res->error : "");
}

void
seed_queue(struct app *app, const struct queue_conf *q, const char *how)
{
	struct field_args a = { { NULL }, { NULL }, 0, 0 };
	char registry[KEYS_MAX];
	struct queue_keys k;

	keys_registry(registry, app->conf->key_prefix);
	keys_queue(&k, app->conf->key_prefix, q->name);
	a.argv[a.argc++] = k.config;
	a.argv[a.argc++] = registry;
	a.argv[a.argc++] = how;
	a.argv[a.argc++] = q->name;
	conf_queue_fields(q, add_field, &a);
	store_eval(app->store, LUA_CONFIG_INIT, 2, a.argc, a.argv, NULL,
	    queue_written, NULL);
	for (int j = 0; j < a.ncopies; j++)
		free(a.copies[j]);
}

void
seed_all(struct app *app, const char *how)
{
	for (size_t i = 0; i < app->conf->nqueues; i++)
		seed_queue(app, &app->conf->queues[i], how);
}
