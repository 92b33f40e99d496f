/*
 * route.h: which endpoint a method and path name. Pure: no libevent, so the
 * table is unit-tested without a server. Unknown paths are 404, known paths
 * with another method 405 with the Allow list, and a path whose queue or
 * token segment is malformed is a 400 before anything touches Redis.
 */
#ifndef WR_ROUTE_H
#define WR_ROUTE_H

#include "conf.h"

enum route_method {
	RM_GET = 1, RM_POST = 2, RM_PUT = 4, RM_DELETE = 8,
	RM_HEAD = 16, RM_OPTIONS = 32, RM_OTHER = 64
};

enum route_id {
	ROUTE_NONE,
#define ROUTE(id, pattern, methods, name, handler, kind) ROUTE_##id,
#include "routes.def"
#include "validate.h"
#undef ROUTE
	ROUTE_COUNT
};

/* Who calls a route and where it is served (routes.def says each one's). */
enum route_kind {
	RK_NONE,	/* no route */
	RK_API,		/* the public API: other origins' pages call it */
	RK_PROBE,	/* health and metrics: on admin_listen too */
	RK_PAGE,	/* the waiting page and its files */
	RK_FRONT,	/* the front's question about a pass */
	RK_ADMIN,	/* the admin API: /v1/admin, behind the admin gate */
	RK_CONSOLE	/* the console: under /admin, on admin_listen only */
};

enum route_result {
	ROUTE_OK,
	ROUTE_NOT_FOUND,	/* 404 not_found */
	ROUTE_BAD_METHOD,	/* 405, m->allow names the methods */
	ROUTE_BAD_QUEUE,	/* 400 bad_queue_id */
	ROUTE_BAD_TOKEN		/* 400 bad_token */
};

struct route_match {
	enum route_id id;
	int method;		/* enum route_method of the request */
	char allow[32];		/* "GET, HEAD, DELETE" */
	char queue[CONF_QUEUE_ID_MAX + 1];
	char token[VALID_TOKEN_LEN + 1];
	char file[64];		/* ROUTE_ASSET */
	/*
	 * An admin route's caller: the admin's name (admins.c), set by
	 * dispatch once the admin gate let it in, NULL elsewhere. Borrowed
	 * for the handler's call only: a reload may free it after.
	 */
	const char *admin;
};

/* A short name of a route for metrics labels ("none" for ROUTE_NONE). */
const char *route_name(int id);
/* The route's kind (RK_NONE for ROUTE_NONE). */
enum route_kind route_kind(int id);

/*
 * 1 when path is under /v1/admin: such a request is checked for the admin
 * token before anything else, so a caller without it learns nothing, not
 * even which paths exist.
 */
int route_is_admin(const char *path);

/* 1 when path is the console's: /admin or under /admin/. */
int route_is_console(const char *path);

/*
 * path is the decoded-free path of the URI, without query. HEAD matches
 * where GET does, and m->method is then RM_GET: the handler answers it
 * as GET, and the reply leaves the body out (http_reply.c); a handler
 * that answers in pieces (a stream) asks evhttp whether it is HEAD.
 */
enum route_result route_match(int method, const char *path,
    struct route_match *m);

#endif
