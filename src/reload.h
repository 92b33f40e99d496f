/*
 * reload.h: SIGHUP. The configuration file is read again into a fresh
 * struct conf; a bad file leaves the running one untouched. A good one
 * becomes app->conf (every part reads the configuration through app->conf
 * and keeps no pointer into it past a call, so the old one is freed at
 * once). What cannot change live keeps its old value and says so.
 * The pass keys are read again too (from the same pass_key_file), so a
 * key is rotated in or out without a restart; a bad key file fails the
 * whole reload.
 */
#ifndef WR_RELOAD_H
#define WR_RELOAD_H

struct app;

struct conf;
struct passkeys;

/*
 * Give fresh the old values of what only a restart changes (listen,
 * redis, workers, ...); loud: log each one that differed.
 */
void reload_keep_fixed(struct conf *fresh, struct conf *old, int loud);

/*
 * The keys of path again, in *k (NULL when path is NULL); -1 when the
 * file is bad, logged when loud.
 */
int reload_passkeys(const char *path, struct passkeys **k, int loud);

/* 0: the new configuration is in force; -1: the old one stays. */
int reload_run(struct app *app);

#endif
