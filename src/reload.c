/* reload.c: apply a configuration file again; see reload.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "broadcast.h"
#include "conf.h"
#include "log.h"
#include "passkeys.h"
#include "reload.h"
#include "seed.h"

static int loud_keys = 1;

static void
needs_restart(const char *key)
{
	if (loud_keys)
		log_warn("event=reload_needs_restart key=%s msg=\"%s changes only "
	    "with a restart; the old value stays\"", key, key);
}

static void
keep_long(const char *key, long *fresh, long old)
{
	if (*fresh != old) {
		needs_restart(key);
		*fresh = old;
	}
}

/* Swap, so fresh holds the old string and the old conf frees the new. */
static void
keep_str(const char *key, char **fresh, char **old)
{
	char *t;

	if ((*fresh == NULL) != (*old == NULL) ||
	    (*fresh && strcmp(*fresh, *old) != 0)) {
		needs_restart(key);
		t = *fresh, *fresh = *old, *old = t;
	}
}

/* Listen, Redis, workers, the key prefix, what startup built: restart. */
void
reload_keep_fixed(struct conf *fresh, struct conf *old, int loud)
{
	loud_keys = loud;
	keep_str("listen", &fresh->listen, &old->listen);
	keep_str("redis", &fresh->redis, &old->redis);
	keep_str("key_prefix", &fresh->key_prefix, &old->key_prefix);
	keep_str("admin_token_file", &fresh->admin_token_file,
	    &old->admin_token_file);
	keep_str("page_template", &fresh->page_template, &old->page_template);
	keep_str("pass_key_file", &fresh->pass_key_file, &old->pass_key_file);
	keep_str("trusted_proxies", &fresh->trusted_proxies,
	    &old->trusted_proxies);
	keep_long("join_rate_per_ip", &fresh->join_rate_per_ip,
	    old->join_rate_per_ip);
	keep_long("workers", &fresh->workers, old->workers);
	for (size_t i = 0; i < fresh->nqueues; i++) {
		struct queue_conf *q = (struct queue_conf *)
		    conf_queue_find(old, fresh->queues[i].name);

		if (q)
			keep_str("page_template", &fresh->queues[i].page_template,
			    &q->page_template);
	}
	loud_keys = 1;
}

struct text {
	char buf[4096];
	size_t len;
};

static void
add_text(const char *key, const char *value, void *arg)
{
	struct text *t = arg;
	int n = snprintf(t->buf + t->len, sizeof t->buf - t->len, "%s=%s\n",
	    key, value);

	if (n > 0 && (size_t)n < sizeof t->buf - t->len)
		t->len += (size_t)n;
}

/* The queue is new, or its Redis fields differ from before. */
static int
queue_changed(const struct queue_conf *q, const struct conf *old)
{
	const struct queue_conf *was = conf_queue_find(old, q->name);
	struct text a = { "", 0 }, b = { "", 0 };

	if (was == NULL)
		return 1;
	conf_queue_fields(q, add_text, &a);
	conf_queue_fields(was, add_text, &b);
	return a.len != b.len || memcmp(a.buf, b.buf, a.len) != 0;
}

static void
apply(struct app *app, struct conf *fresh)
{
	struct conf *old = app->conf;
	size_t changed = 0;

	reload_keep_fixed(fresh, old, 1);
	app->conf = fresh;
	log_set_level(fresh->log_level);
	broadcast_reload(app->broadcast);
	for (size_t i = 0; i < fresh->nqueues; i++) {
		if (!queue_changed(&fresh->queues[i], old))
			continue;
		seed_queue(app, &fresh->queues[i], "replace");
		changed++;
	}
	log_info("event=reloaded queues=%zu queues_written=%zu",
	    fresh->nqueues, changed);
	if (old == app->conf_owned) {
		conf_free(old);
		free(old);
	}
	app->conf_owned = fresh;
}

int
reload_passkeys(const char *path, struct passkeys **k, int loud)
{
	char err[CONF_ERR_MAX];

	*k = NULL;
	if (path == NULL)
		return 0;
	if ((*k = passkeys_load_file(path, err, sizeof err)) == NULL) {
		if (loud)
			log_error("event=reload_failed error=\"%s\" msg=\"the "
			    "old configuration and pass keys stay\"", err);
		return -1;
	}
	if (loud)
		log_info("event=pass_keys_read keys=%zu signer=%s", (*k)->n,
		    passkeys_signer(*k)->kid);
	return 0;
}

/* The keys read at reload replace those in use. */
static void
use_passkeys(struct app *app, struct passkeys *k)
{
	if (k == NULL)
		return;
	passkeys_free(app->passkeys_owned);
	app->passkeys = app->passkeys_owned = k;
}

int
reload_run(struct app *app)
{
	struct conf *fresh = calloc(1, sizeof *fresh);
	struct passkeys *k;
	char err[CONF_ERR_MAX];

	if (fresh == NULL) {
		log_error("event=reload_failed error=\"out of memory\"");
		return -1;
	}
	if (app->conf_load(fresh, app->conf_load_arg, err, sizeof err) == -1) {
		log_error("event=reload_failed error=\"%s\" msg=\"the old "
		    "configuration stays\"", err);
		conf_free(fresh);
		free(fresh);
		return -1;
	}
	/* pass_key_file itself changes only with a restart: the old path. */
	if (reload_passkeys(app->conf->pass_key_file, &k, 1) == -1) {
		conf_free(fresh);
		free(fresh);
		return -1;
	}
	apply(app, fresh);
	use_passkeys(app, k);
	return 0;
}
