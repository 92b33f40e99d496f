/*
 * route.c: the table of endpoints. A path matches a route when its literal
 * segments match; ":q" and ":t" segments capture the queue and token, which
 * are validated only after the shape matched, so "/v1/queues/bad!" is a
 * bad queue id while "/v1/nothing" is simply not found.
 */
#include <stdio.h>
#include <string.h>

#include "route.h"
#include "validate.h"

#define ROUTE_SEGS 6

struct route {
	enum route_id id;
	const char *pattern;
	int methods;
	const char *name;
	enum route_kind kind;
};

static const struct route routes[] = {
#define ROUTE(id, pattern, methods, name, handler, kind) \
	{ ROUTE_##id, pattern, methods, name, kind },
#include "routes.def"
#undef ROUTE
};

#define NROUTES (sizeof routes / sizeof routes[0])

_Static_assert(NROUTES == ROUTE_COUNT - 1, "routes.def makes one row an id");

/* The row of route id: routes.def makes the ids and the table in one
 * order, ROUTE_NONE (0) before both, so the row is at id - 1. */
static const struct route *
route_at(int id)
{
	return id > 0 && id < ROUTE_COUNT ? &routes[id - 1] : NULL;
}

const char *
route_name(int id)
{
	const struct route *r = route_at(id);

	return r ? r->name : "none";
}

enum route_kind
route_kind(int id)
{
	const struct route *r = route_at(id);

	return r ? r->kind : RK_NONE;
}

int
route_is_admin(const char *path)
{
	return strncmp(path, "/v1/admin", 9) == 0 &&
	    (path[9] == '\0' || path[9] == '/');
}

int
route_is_console(const char *path)
{
	return strncmp(path, "/admin", 6) == 0 &&
	    (path[6] == '\0' || path[6] == '/');
}

struct segs {
	int n;
	const char *p[ROUTE_SEGS];
	size_t len[ROUTE_SEGS];
};

/* Split "/a/b/c" into segments; -1 on an empty segment or too many. */
static int
route_split(const char *path, struct segs *s)
{
	s->n = 0;
	if (path[0] != '/')
		return -1;
	while (*path == '/') {
		const char *start = path + 1;
		size_t len = strcspn(start, "/");

		if (len == 0 || s->n == ROUTE_SEGS)
			return -1;
		s->p[s->n] = start;
		s->len[s->n++] = len;
		path = start + len;
	}
	return 0;
}

static void
seg_copy(char *dst, size_t size, const struct segs *s, int i)
{
	size_t n = s->len[i] < size - 1 ? s->len[i] : size - 1;

	memcpy(dst, s->p[i], n);
	dst[n] = '\0';
}

/*
 * The patterns' segments, split once per process rather than for every
 * route on every request (a tenth of what routing a join cost).
 */
static const struct segs *
route_patterns(void)
{
	static struct segs pats[NROUTES];
	static int ready;

	if (!ready) {
		for (size_t i = 0; i < NROUTES; i++)
			route_split(routes[i].pattern, &pats[i]);
		ready = 1;
	}
	return pats;
}

/* Does the path have the pattern's shape? Captures into m. */
static int
route_shape(const struct segs *pat, const struct segs *s,
    struct route_match *m, int *long_capture)
{
	if (pat->n != s->n)
		return 0;
	for (int i = 0; i < s->n; i++) {
		if (pat->p[i][0] != ':') {
			if (s->len[i] != pat->len[i] ||
			    memcmp(s->p[i], pat->p[i], s->len[i]) != 0)
				return 0;
			continue;
		}
		if (pat->p[i][1] == 'q') {
			*long_capture |= s->len[i] > CONF_QUEUE_ID_MAX;
			seg_copy(m->queue, sizeof m->queue, s, i);
		} else if (pat->p[i][1] == 'f') {
			/* a name too long for m->file is no file of ours */
			if (s->len[i] >= sizeof m->file)
				return 0;
			seg_copy(m->file, sizeof m->file, s, i);
		} else {
			*long_capture |= (s->len[i] > 36) << 1;
			seg_copy(m->token, sizeof m->token, s, i);
		}
	}
	return 1;
}

/* HEAD is allowed wherever GET is (route_match). */
static void
route_allow(int methods, char *buf, size_t size)
{
	static const struct { int m; const char *name; } names[] = {
		{ RM_GET, "GET" }, { RM_GET, "HEAD" }, { RM_POST, "POST" },
		{ RM_PUT, "PUT" }, { RM_DELETE, "DELETE" },
	};

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (!(methods & names[i].m))
			continue;
		if (buf[0] != '\0')
			strncat(buf, ", ", size - strlen(buf) - 1);
		strncat(buf, names[i].name, size - strlen(buf) - 1);
	}
}

enum route_result
route_match(int method, const char *path, struct route_match *m)
{
	const struct segs *pats = route_patterns();
	struct segs s;
	int toolong = 0;

	memset(m, 0, sizeof *m);
	m->method = method;
	if (route_split(path, &s) == -1)
		return ROUTE_NOT_FOUND;
	for (size_t i = 0; i < NROUTES; i++) {
		if (!route_shape(&pats[i], &s, m, &toolong))
			continue;
		m->id = routes[i].id;
		if (m->queue[0] && ((toolong & 1) || !valid_queue_id(m->queue)))
			return ROUTE_BAD_QUEUE;
		if (m->token[0] && ((toolong & 2) || !valid_token(m->token)))
			return ROUTE_BAD_TOKEN;
		route_allow(routes[i].methods, m->allow, sizeof m->allow);
		/* HEAD is GET's answer without the body (http_reply.c). */
		if (method == RM_HEAD && (routes[i].methods & RM_GET))
			m->method = RM_GET;
		return (routes[i].methods & m->method) ? ROUTE_OK :
		    ROUTE_BAD_METHOD;
	}
	return ROUTE_NOT_FOUND;
}
