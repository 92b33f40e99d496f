/*
 * fuzz_http.c: the pure parts of handling a request, as http.c and
 * api_tokens.c call them: route matching (route.c), the queue, token and
 * user checks (validate.c) and the join body rules (join_body.c). The
 * input is one byte of method, the path up to the first LF, and the body
 * after it.
 *
 * The invariants: nothing crashes or leaks; a route's captures are valid
 * ids, segments of the path; the Allow list agrees with the verdict; a
 * user accepted is valid UTF-8 (jansson's own check says so) and the body
 * it came from is an object with no field but "user", "challenge",
 * "nonce" and "invite", and "user" among them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "join_body.h"
#include "route.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

#define FAIL(...) do { fprintf(stderr, "fuzz_http: " __VA_ARGS__); \
	fputc('\n', stderr); abort(); } while (0)

/* Is seg one whole segment of path? */
static int
has_segment(const char *path, const char *seg)
{
	size_t n = strlen(seg);

	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/'))
		if (strncmp(p + 1, seg, n) == 0 &&
		    (p[1 + n] == '/' || p[1 + n] == '\0'))
			return 1;
	return 0;
}

/* Does the Allow list name the method? */
static int
allows(const char *allow, int method)
{
	static const struct { int m; const char *name; } names[] = {
		{ RM_GET, "GET" }, { RM_HEAD, "HEAD" }, { RM_POST, "POST" },
		{ RM_PUT, "PUT" }, { RM_DELETE, "DELETE" },
	};
	char list[40];

	snprintf(list, sizeof list, ", %s,", allow);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char item[12];

		if (names[i].m != method)
			continue;
		snprintf(item, sizeof item, ", %s,", names[i].name);
		return strstr(list, item) != NULL;
	}
	return 0;
}

static void
check_route(int method, const char *path)
{
	struct route_match m;
	enum route_result r = route_match(method, path, &m);
	int admin = route_is_admin(path);

	if (strlen(m.allow) >= sizeof m.allow ||
	    strlen(m.queue) >= sizeof m.queue ||
	    strlen(m.token) >= sizeof m.token || strlen(m.file) >= sizeof m.file)
		FAIL("an unterminated capture for %s", path);
	if (r == ROUTE_NOT_FOUND)
		return;
	if (m.id <= ROUTE_NONE || m.id >= ROUTE_COUNT ||
	    strcmp(route_name(m.id), "none") == 0)
		FAIL("verdict %d without a route for %s", r, path);
	if (admin != (strncmp(route_name(m.id), "admin_", 6) == 0))
		FAIL("%s is admin %d, but routed to %s", path, admin,
		    route_name(m.id));
	if (r == ROUTE_BAD_QUEUE || r == ROUTE_BAD_TOKEN)
		return;
	if (m.queue[0] != '\0' && (!valid_queue_id(m.queue) ||
	    !has_segment(path, m.queue)))
		FAIL("queue %s from %s", m.queue, path);
	if (m.token[0] != '\0' && (!valid_token(m.token) ||
	    !has_segment(path, m.token)))
		FAIL("token %s from %s", m.token, path);
	if (m.file[0] != '\0' && !has_segment(path, m.file))
		FAIL("file %s from %s", m.file, path);
	if (r == ROUTE_OK && (method & (RM_OPTIONS | RM_OTHER)))
		FAIL("method %d routed for %s", method, path);
	/* HEAD routes exactly where GET does, and is handled as GET. */
	if (method == RM_HEAD && r == ROUTE_OK && m.method != RM_GET)
		FAIL("HEAD routed as method %d for %s", m.method, path);
	if ((r == ROUTE_OK) != allows(m.allow, method))
		FAIL("verdict %d, but Allow: %s for method %d on %s", r,
		    m.allow, method, path);
}

static void
check_body(const char *body, size_t len)
{
	enum join_body v;
	json_error_t err;
	const char *user;
	json_t *doc, *s;

	v = join_body_jansson(body, len, &doc, &user, &err);
	if (v != JOIN_BODY_OK) {
		if (user != NULL)
			FAIL("a user from a refused body");
		json_decref(doc);
		return;
	}
	if ((len == 0) != (doc == NULL) ||
	    (doc != NULL && (!json_is_object(doc) ||
	    json_object_size(doc) != join_body_known(doc) ||
	    (json_object_get(doc, "user") != NULL) != (user != NULL))))
		FAIL("accepted body of %zu bytes: %.*s", len, (int)len, body);
	if (user != NULL) {
		if (!valid_user(user, strlen(user)) ||
		    (s = json_stringn(user, strlen(user))) == NULL)
			FAIL("accepted user %s", user);
		json_decref(s);
	}
	json_decref(doc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	const uint8_t *lf;
	char *path;
	size_t plen;
	int method;
	json_t *s;

	if (size < 1)
		return 0;
	method = 1 << (in[0] % 7);
	lf = memchr(in + 1, '\n', size - 1);
	plen = lf ? (size_t)(lf - in - 1) : size - 1;
	if ((path = malloc(plen + 1)) == NULL)
		abort();
	memcpy(path, in + 1, plen);
	path[plen] = '\0';
	check_route(method, path);
	/* the identifiers alone, on whatever bytes came */
	if (valid_queue_id(path) && strspn(path, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(path))
		FAIL("queue id %s", path);
	if (valid_token(path) && strlen(path) != 36)
		FAIL("token %s", path);
	if (valid_user(path, plen)) {
		if ((s = json_stringn(path, plen)) == NULL)
			FAIL("user of bad UTF-8, %zu bytes", plen);
		json_decref(s);
	}
	free(path);
	if (lf != NULL)
		check_body((const char *)lf + 1, size - plen - 2);
	return 0;
}
