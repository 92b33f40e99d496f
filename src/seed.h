/*
 * seed.h: the configured queues written into Redis, at startup and when a
 * reload adds or changes one.
 */
#ifndef WR_SEED_H
#define WR_SEED_H

struct app;
struct queue_conf;

/* how: "replace" (the file wins) or "missing" (only a hash Redis lost). */
void seed_queue(struct app *app, const struct queue_conf *q, const char *how);

/* Every queue of app->conf. */
void seed_all(struct app *app, const char *how);

#endif
