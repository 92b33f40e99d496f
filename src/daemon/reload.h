/*
 * reload.h: SIGHUP. The configuration file is read again into a fresh
 * struct conf; a bad file leaves the running one untouched. A good one
 * becomes the conf in force (every part reads the configuration through
 * app->conf and keeps no pointer into it past a call, so the old one is
 * freed at once). What only a restart changes (conf.c's restart column)
 * keeps its old value and says so. The pass keys are read again too (from
 * the same pass_key_file), so a key is rotated in or out without a
 * restart; a bad key file fails the whole reload.
 *
 * A worker's instance applies a reload to its app (reload_run); the
 * supervisor of workers reads the same way (reload_read), quietly, so a
 * worker it starts later serves the configuration in force.
 */
#ifndef WR_RELOAD_H
#define WR_RELOAD_H

#include <stddef.h>

struct app;
struct conf;
struct passkeys;

/* Reads the configuration (file, then command line) into a fresh conf. */
typedef int reload_load_fn(struct conf *c, const void *arg, char *err,
    size_t errlen);

/*
 * Read the configuration and pass keys again, against old: *fresh (to
 * conf_free and free) and *keys (NULL when passes are off). loud: log
 * what fails and each restart-only key that differed. -1 when the file or
 * the key file is bad (nothing to free).
 */
int reload_read(struct conf *old, reload_load_fn *load,
    const void *arg, int loud, struct conf **fresh, struct passkeys **keys);

/* 0: the new configuration is in force in app; -1: the old one stays. */
int reload_run(struct app *app);

#endif
