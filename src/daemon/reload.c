/* reload.c: apply a configuration file again; see reload.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "conf.h"
#include "draw.h"
#include "log.h"
#include "passkeys.h"
#include "qstore.h"
#include "reload.h"
#include "streams.h"

static void
needs_restart(const char *key, void *arg)
{
	(void)arg;
	log_warn("event=reload_needs_restart key=%s msg=\"%s changes only "
	    "with a restart; the old value stays\"", key, key);
}

static void
conf_discard(struct conf *c)
{
	if (c == NULL)
		return;
	conf_free(c);
	free(c);
}

/* The keys of path again, in *k (NULL when path is NULL); -1 when bad. */
static int
read_passkeys(const char *path, int loud, struct passkeys **k)
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

int
reload_read(struct conf *old, reload_load_fn *load, const void *arg,
    int loud, struct conf **fresh, struct passkeys **keys)
{
	char err[CONF_ERR_MAX];

	*keys = NULL;
	if ((*fresh = calloc(1, sizeof **fresh)) == NULL) {
		if (loud)
			log_error("event=reload_failed error=\"out of memory\"");
		return -1;
	}
	if (load(*fresh, arg, err, sizeof err) == -1) {
		if (loud)
			log_error("event=reload_failed error=\"%s\" msg=\"the "
			    "old configuration stays\"", err);
		goto fail;
	}
	/* pass_key_file itself changes only with a restart: the old path. */
	if (read_passkeys(old->pass_key_file, loud, keys) == -1)
		goto fail;
	conf_keep_restart(*fresh, old, loud ? needs_restart :
	    NULL, NULL);
	return 0;
fail:
	conf_discard(*fresh);
	*fresh = NULL;
	return -1;
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

	app->conf = fresh;
	log_set_level(fresh->log_level);
	streams_reload(app->api.streams);
	for (size_t i = 0; i < fresh->nqueues; i++) {
		if (!queue_changed(&fresh->queues[i], old))
			continue;
		draws_write_conf(app->draws, &fresh->queues[i], "replace",
		    NULL, NULL);
		changed++;
	}
	log_info("event=reloaded queues=%zu queues_written=%zu",
	    fresh->nqueues, changed);
	if (old == app->conf_owned)
		conf_discard(old);
	app->conf_owned = fresh;
}

int
reload_run(struct app *app)
{
	struct passkeys *k;
	struct conf *fresh;

	if (reload_read(app->conf, app->conf_load, app->conf_load_arg, 1,
	    &fresh, &k) == -1)
		return -1;
	apply(app, fresh);
	if (k) {
		passkeys_free(app->passkeys_owned);
		app->passkeys = app->passkeys_owned = k;
	}
	return 0;
}
