/*
 * ctl_draw.h: waitroomctl draw [verify] QUEUE; see ctl_draw.c.
 */
#ifndef WR_CTL_DRAW_H
#define WR_CTL_DRAW_H

#include "ctl_cmd.h"

/* The draw's record, or with "verify" its check; the exit status. */
int cmd_draw(struct admin_opts *o);

#endif
