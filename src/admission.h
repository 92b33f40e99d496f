/*
 * admission.h: the admission tick. Every instance runs one timer per queue;
 * each tick is one call of lua/tick.lua, whose tick key in Redis makes the
 * configured rate global however many instances run.
 */
#ifndef WR_ADMISSION_H
#define WR_ADMISSION_H

#include "app.h"

#define ADMISSION_PERIOD_MS 250	/* how often each instance ticks */
#define ADMISSION_CAP 5000	/* most tokens moved or swept per call */

struct admission;

/* Start ticking every queue of app->conf. */
struct admission *admission_new(struct app *app);
/* Free after store_free: a tick in flight is answered there. */
void admission_free(struct admission *a);

#endif
