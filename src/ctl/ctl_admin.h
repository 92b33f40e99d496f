/*
 * ctl_admin.h: waitroomctl's admin commands (status, pause, resume, open,
 * close, set, promote, kick), each one call of the admin API.
 *
 * Exit status: 0 done; 1 the server refused (bad value, Redis down...);
 * 2 usage error; 3 no answer from the server (unreachable, timeout);
 * 4 not authorized (wrong or missing token, or the admin API is off);
 * 5 no such queue or token.
 */
#ifndef WR_CTL_ADMIN_H
#define WR_CTL_ADMIN_H

#include <stdio.h>

#include "ctl_cmd.h"		/* CTL_EXIT_* */

/* argv[0] is the command's name. */
int ctl_admin(int argc, char **argv);

/* The options every admin command takes, and the exit statuses. */
void ctl_admin_usage(FILE *f);

#endif
