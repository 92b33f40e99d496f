/*
 * draw.h: this process's part in the draws of scheduled queues (doc/
 * design.md, "The draw"). The admission tick says when a queue's draw
 * is due; the process then tries to drive it through draw_step.lua,
 * which lets one instance at a time (a lock in Redis with a lifetime)
 * and keeps every step, so another instance finishes a draw whose
 * instance died. Each step is one round trip; the hashing of a chunk is
 * the only work done here, a few milliseconds.
 */
#ifndef WR_DRAW_H
#define WR_DRAW_H

struct app;
struct draws;

struct draws *draws_new(struct app *app);
/* Runs in flight end when their answer comes back. */
void draws_free(struct draws *d);

/* queue's draw is due: drive it, unless this process already does. */
void draws_due(struct draws *d, const char *queue);
/* queue has a schedule but no seed: draw one and commit to it. */
void draws_seed(struct draws *d, const char *queue);

#endif
