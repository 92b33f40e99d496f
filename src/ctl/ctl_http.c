/* ctl_http.c: waitroomctl's blocking HTTP client; see ctl_http.h. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "ctl_http.h"

/* Split http://host[:port][/prefix]; -1 when url is not like that. */
static int
ctl_http_url(const char *url, char *host, size_t hostlen, char *port,
    size_t portlen, const char **prefix)
{
	const char *h, *end, *colon;
	size_t n;

	if (strncmp(url, "http://", 7) != 0)
		return -1;
	h = url + 7;
	end = h + strcspn(h, "/");
	*prefix = end;
	if (*h == '[') {		/* [v6]:port */
		if ((colon = memchr(h, ']', (size_t)(end - h))) == NULL)
			return -1;
		n = (size_t)(colon - h - 1), h++;
		colon = colon[1] == ':' ? colon + 1 : NULL;
	} else {
		colon = memchr(h, ':', (size_t)(end - h));
		n = (size_t)((colon ? colon : end) - h);
	}
	if (n == 0 || n >= hostlen)
		return -1;
	memcpy(host, h, n);
	host[n] = '\0';
	n = colon ? (size_t)(end - colon - 1) : 2;
	if (n == 0 || n >= portlen)
		return -1;
	if (colon) {
		memcpy(port, colon + 1, n);
		port[n] = '\0';
	} else
		snprintf(port, portlen, "80");
	return strspn(port, "0123456789") == strlen(port) ? 0 : -1;
}

static long
ms_left(long long deadline)
{
	return (long)(deadline - clock_mono_ms());
}

/* Wait for fd to be ready for events; 0, or -1 on timeout. */
static int
wait_fd(int fd, short events, long long deadline)
{
	struct pollfd p = { fd, events, 0 };
	long ms;
	int rc;

	do {
		if ((ms = ms_left(deadline)) <= 0)
			return -1;
		rc = poll(&p, 1, (int)ms);
	} while (rc == -1 && errno == EINTR);
	return rc == 1 ? 0 : -1;
}

/* A connected socket to host:port, or -1 with err. */
static int
dial(const char *host, const char *port, long long deadline,
    char *err, size_t errlen)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	int fd = -1, rc, soerr;
	socklen_t sl = sizeof soerr;

	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(err, errlen, "cannot resolve %s: %s", host,
		    gai_strerror(rc));
		return -1;
	}
	snprintf(err, errlen, "cannot connect to %s:%s", host, port);
	for (ai = res; ai && fd == -1; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK,
		    ai->ai_protocol)) == -1)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ||
		    (errno == EINPROGRESS && wait_fd(fd, POLLOUT, deadline) == 0 &&
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 &&
		    soerr == 0))
			break;
		snprintf(err, errlen, "cannot connect to %s:%s: %s", host, port,
		    errno == EINPROGRESS ? (soerr ? strerror(soerr) :
		    "timed out") : strerror(errno));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

static int
send_all(int fd, const char *buf, size_t len, long long deadline)
{
	while (len > 0) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n > 0) {
			buf += n, len -= (size_t)n;
		} else if (n == -1 && (errno == EAGAIN || errno == EINTR)) {
			if (wait_fd(fd, POLLOUT, deadline) == -1)
				return -1;
		} else
			return -1;
	}
	return 0;
}

/* Everything until the server closes; NULL on timeout or error. */
static char *
recv_all(int fd, size_t *len, long long deadline)
{
	size_t cap = 4096;
	char *buf = malloc(cap + 1), *grown;
	ssize_t n;

	*len = 0;
	while (buf) {
		if (*len == cap) {
			if (cap >= CTL_HTTP_BODY_MAX ||
			    (grown = realloc(buf, cap * 2 + 1)) == NULL)
				break;
			buf = grown, cap *= 2;
		}
		n = recv(fd, buf + *len, cap - *len, 0);
		if (n == 0) {
			buf[*len] = '\0';
			return buf;
		}
		if (n > 0)
			*len += (size_t)n;
		else if ((errno != EAGAIN && errno != EINTR) ||
		    wait_fd(fd, POLLIN, deadline) == -1)
			break;
	}
	free(buf);
	return NULL;
}

/* A chunked body (a drawn order is sent so) decoded in place; its new
 * length, or -1 when it is cut or garbled. */
static long
dechunk(char *b, size_t len)
{
	size_t in = 0, out = 0;
	unsigned long n;
	char *e;

	for (;;) {
		n = strtoul(b + in, &e, 16);
		if (e == b + in || (e = strstr(e, "\r\n")) == NULL ||
		    (size_t)(e - b) + 2 > len)
			return -1;
		in = (size_t)(e - b) + 2;
		if (n == 0)
			return (long)out;
		if (n > len - in || len - in - n < 2)
			return -1;
		memmove(b + out, b + in, n);
		out += n, in += n + 2;
	}
}

/* Status line and headers off the answer; the body stays in r. */
static int
parse_answer(char *raw, size_t len, struct ctl_http_reply *r)
{
	char *end = strstr(raw, "\r\n\r\n"), *cl;
	size_t body;
	long chunk_len = 0;
	int chunked = 0;

	if (end == NULL || sscanf(raw, "HTTP/1.%*d %d", &r->status) != 1 ||
	    r->status < 100 || r->status > 599)
		return -1;
	*end = '\0';
	body = (size_t)(end + 4 - raw);
	r->len = len - body;
	for (cl = raw; (cl = strchr(cl, '\n')) != NULL; cl++) {
		if (strncasecmp(cl + 1, "Content-Length:", 15) == 0 &&
		    strtoul(cl + 16, NULL, 10) < r->len)
			r->len = strtoul(cl + 16, NULL, 10);
		if (strncasecmp(cl + 1, "Transfer-Encoding: chunked", 26) == 0)
			chunked = 1;
	}
	memmove(raw, raw + body, r->len);
	raw[r->len] = '\0';
	if (chunked && (chunk_len = dechunk(raw, r->len)) < 0)
		return -1;
	if (chunked)
		r->len = (size_t)chunk_len;
	raw[r->len] = '\0';
	r->body = raw;
	return 0;
}

int
ctl_http(const char *url, const char *method, const char *path,
    const char *token, const char *body, int timeout_s,
    struct ctl_http_reply *r, char *err, size_t errlen)
{
	char host[256], port[8], *req = NULL, *raw = NULL;
	const char *prefix;
	long long deadline;
	size_t len;
	int fd, n = -1, rc = -1, plen;

	memset(r, 0, sizeof *r);
	if (ctl_http_url(url, host, sizeof host, port, sizeof port,
	    &prefix) == -1) {
		snprintf(err, errlen, "bad URL '%.200s' (accepted: "
		    "http://host[:port])", url);
		return -1;
	}
	plen = (int)strcspn(prefix, "?#");
	while (plen > 0 && prefix[plen - 1] == '/')
		plen--;
	deadline = clock_mono_ms() + 1000LL * timeout_s;
	if ((fd = dial(host, port, deadline, err, errlen)) == -1)
		return -1;
	n = asprintf(&req, "%s %.*s%s HTTP/1.1\r\nHost: %s:%s\r\n"
	    "Connection: close\r\nAccept: application/json\r\n%s%s%s"
	    "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
	    method, plen, prefix, path, host, port,
	    token ? "Authorization: Bearer " : "", token ? token : "",
	    token ? "\r\n" : "", body ? strlen(body) : 0, body ? body : "");
	if (n < 0 || send_all(fd, req, (size_t)n, deadline) == -1 ||
	    (raw = recv_all(fd, &len, deadline)) == NULL) {
		snprintf(err, errlen, "no answer from %s:%s (%s)", host, port,
		    ms_left(deadline) <= 0 ? "timed out" : "connection failed");
		goto done;
	}
	if (parse_answer(raw, len, r) == -1) {
		snprintf(err, errlen, "%s:%s did not answer HTTP", host, port);
		goto done;
	}
	raw = NULL;
	rc = 0;
done:
	if (n >= 0)
		free(req);
	free(raw);
	close(fd);
	return rc;
}
