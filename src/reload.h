/*
 * reload.h: SIGHUP. The configuration file is read again into a fresh
 * struct conf; a bad file leaves the running one untouched. A good one
 * becomes app->conf (every part reads the configuration through app->conf
 * and keeps no pointer into it past a call, so the old one is freed at
 * once). What cannot change live keeps its old value and says so.
 */
#ifndef WR_RELOAD_H
#define WR_RELOAD_H

struct app;

struct conf;

/*
 * Give fresh the old values of what only a restart changes (listen,
 * redis, workers, ...); loud: log each one that differed.
 */
void reload_keep_fixed(struct conf *fresh, struct conf *old, int loud);

/* 0: the new configuration is in force; -1: the old one stays. */
int reload_run(struct app *app);

#endif
