/*
 * ctl_cmd.h: what waitroomctl's admin commands share (ctl_admin.c, which
 * parses the options and runs the command, and ctl_draw.c): the options,
 * a call of the admin API, a usage error, a string of an answer. The
 * draw's command is declared in ctl_draw.h.
 */
#ifndef WR_CTL_CMD_H
#define WR_CTL_CMD_H

#include <jansson.h>

#include "auth.h"
#include "ctl_http.h"

/* waitroomctl's exit statuses (ctl_admin.h says what each means). */
enum {
	CTL_EXIT_OK = 0, CTL_EXIT_REFUSED = 1, CTL_EXIT_USAGE = 2,
	CTL_EXIT_UNREACHABLE = 3, CTL_EXIT_UNAUTHORIZED = 4,
	CTL_EXIT_NOT_FOUND = 5
};

struct admin_opts {
	const char *cmd;
	const char *url;
	const char *admin_url;	/* the admin API's; NULL: url */
	const char *token_file;
	int json;
	int timeout;
	char token[AUTH_TOKEN_MAX + 1];
	const char *ticket;	/* draw verify --ticket */
	long limit;		/* audit --limit; 0: the server's default */
	const char *from, *to;	/* report --from, --to; NULL: not given */
	int csv;		/* report --csv */
	char **args;
	int nargs;
};

/* Say what is wrong with the command line; CTL_EXIT_USAGE. */
int usage_fail(const struct admin_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* METHOD path with body (or NULL): 0 and *doc (the answer, NULL for a
 * 204), else the exit status after saying what went wrong. */
int request(const struct admin_opts *o, const char *method,
    const char *path, json_t *body, json_t **doc);
/* An answer of 300 or more said as the server put it; its exit status. */
int answer_error(const struct admin_opts *o, const struct ctl_http_reply *r);
/* A string of the answer, or "?" when the server left it out. */
const char *str_of(json_t *j);


#endif
