/*
 * ctl_cmd.c: what waitroomctl's admin commands share; see ctl_cmd.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ctl_cmd.h"
#include "ctl_http.h"
#include "route.h"

int
usage_fail(const struct admin_opts *o, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "waitroomctl %s: ", o->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see waitroomctl --help)\n", stderr);
	return CTL_EXIT_USAGE;
}

/* ---- talking to the server -------------------------------------------- */

/* The exit status an error answer means, after saying what it was. */
int
answer_error(const struct admin_opts *o, const struct ctl_http_reply *r)
{
	json_t *doc = json_loads(r->body, 0, NULL);
	const char *code = json_string_value(json_object_get(
	    json_object_get(doc, "error"), "code"));
	const char *msg = json_string_value(json_object_get(
	    json_object_get(doc, "error"), "message"));
	int rc = CTL_EXIT_REFUSED;

	if (o->json)
		printf("%s\n", r->body);
	if (r->status == 401)
		rc = CTL_EXIT_UNAUTHORIZED;
	else if (r->status == 404 && code && strcmp(code, "not_found") == 0) {
		rc = CTL_EXIT_UNAUTHORIZED;
		msg = "no admin API here: it is off (no admin_token_file), "
		    "served on admin_listen (give --admin-url), or this is not "
		    "waitroomd";
	} else if (r->status == 404)
		rc = CTL_EXIT_NOT_FOUND;
	fprintf(stderr, "waitroomctl %s: %s (HTTP %d%s%s)\n", o->cmd,
	    msg ? msg : "the server answered an error", r->status,
	    code ? " " : "", code ? code : "");
	json_decref(doc);
	return rc;
}

/*
 * One request. 0 with *doc the answer's JSON (NULL for a 204), or the
 * exit status after saying what went wrong.
 */
int
request(const struct admin_opts *o, const char *method, const char *path,
    json_t *body, json_t **doc)
{
	struct ctl_http_reply r;
	char err[512], *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	int rc;

	*doc = NULL;
	rc = ctl_http(route_is_admin(path) && o->admin_url ? o->admin_url :
	    o->url, method, path, o->token, text, o->timeout, &r, err,
	    sizeof err);
	free(text);
	while (rc == 0 && r.len > 0 && r.body[r.len - 1] == '\n')
		r.body[--r.len] = '\0';
	if (rc == -1) {
		fprintf(stderr, "waitroomctl %s: %s\n", o->cmd, err);
		return CTL_EXIT_UNREACHABLE;
	}
	if (r.status >= 300)
		rc = answer_error(o, &r);
	else if (r.status != 204 && (*doc = json_loads(r.body, 0, NULL)) ==
	    NULL) {
		fprintf(stderr, "waitroomctl %s: the answer is not JSON (HTTP "
		    "%d)\n", o->cmd, r.status);
		rc = CTL_EXIT_UNREACHABLE;
	} else if (o->json && *doc)
		printf("%s\n", r.body);
	free(r.body);
	return rc;
}

/* ---- the answer ---------------------------------------------------------- */

/* A string of the answer, or "?" when the server left it out. */
const char *
str_of(json_t *j)
{
	const char *s = json_string_value(j);

	return s ? s : "?";
}
