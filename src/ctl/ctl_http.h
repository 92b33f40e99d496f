/*
 * ctl_http.h: the small blocking HTTP/1.1 client waitroomctl talks to the
 * admin API with. A command-line tool may block; one request per
 * connection (Connection: close), plain http only (reach a remote
 * waitroomd through an SSH tunnel or a TLS proxy).
 */
#ifndef WR_CTL_HTTP_H
#define WR_CTL_HTTP_H

#include <stddef.h>

#define CTL_HTTP_BODY_MAX (64 * 1024 * 1024)	/* a drawn order of 1.9M */

struct ctl_http_reply {
	int status;
	char *body;		/* NUL-terminated; free() it */
	size_t len;
};

/*
 * METHOD url+path with the bearer token (NULL: none) and a JSON body
 * (NULL: none), waiting at most timeout_s seconds in all. 0 with r filled,
 * or -1 when there is no HTTP answer (bad URL, unreachable, timeout,
 * garbled): err says which.
 */
int ctl_http(const char *url, const char *method, const char *path,
    const char *token, const char *body, int timeout_s,
    struct ctl_http_reply *r, char *err, size_t errlen);


#endif
