/*
 * sseload: the load generator of bench/streams. It opens one Server-Sent
 * Events stream per token to http://HOST:PORT/v1/queues/Q/tokens/T/events
 * (or to any --path template, so nchan can be measured the same way), at a
 * given rate, holds them for a given time, closes them all and prints one
 * line of JSON with what it saw.
 *
 * One process, one libevent loop, no threads, raw bufferevents: a plain
 * HTTP/1.1 GET, then the answer is parsed by hand (status line, headers,
 * chunked or length-delimited or read-until-close body) and the body as SSE
 * frames (retry:, id:, event:, data:, comments). Per stream it keeps one
 * small struct conn beside libevent's bufferevent; the decoded body lives in
 * an evbuffer that is empty between frames.
 *
 * Every phase is bounded: the joins by an attempt count, the ramp by the
 * stream count, the hold by --hold, the whole run by --max-seconds.
 * SIGINT and SIGTERM end the run early, with the summary printed.
 *
 * Only loopback (127.0.0.0/8) may be contacted: any other --host is refused.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* memmem, strcasestr */
#endif
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/util.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define TOKEN_MAX	128		/* longest token or channel id */
#define LINE_MAX_LEN	65536		/* longest header or SSE line */
#define CONNECT_SECS	10
#define MAX_CODES	16		/* distinct non-200 codes counted */
#define FD_SPARE	32		/* descriptors kept for files and libevent */

enum phase { PH_JOIN, PH_RAMP, PH_HOLD, PH_END };
enum cstate { C_IDLE, C_CONNECTING, C_STATUS, C_HEADERS, C_BODY };
enum bkind { B_CLOSE, B_LENGTH, B_CHUNKED };
enum chunk { K_SIZE, K_DATA, K_CRLF, K_TRAILER };
enum evtype { E_NONE, E_STATUS, E_ENTERED, E_GONE, E_OTHER };
enum why { W_OURS, W_EOF, W_ENDED, W_ERROR, W_TIMEOUT, W_NON200, W_PROTO,
	W_CONNECT };

#define F_DATA		0x01	/* the frame being read has data: */
#define F_FINAL		0x02	/* entered or gone was received */
#define F_OPEN		0x04	/* answered 200: counted in open */
#define F_HAVE_ID	0x08
#define F_CLOSE		0x10	/* the answer said Connection: close */
#define F_JOIN		0x20	/* a join connection, not a stream */

struct conn {
	struct bufferevent *bev;
	struct evbuffer *body;		/* decoded body, SSE lines or JSON */
	uint64_t left;			/* bytes left of a chunk or a body */
	uint32_t idx;			/* token of a stream */
	uint32_t last_id;
	uint16_t code;
	uint8_t state, bkind, chunk, ev, flags;
};

struct counts {
	uint64_t connected, failed, non200, ok, server_closed, final_closed;
	uint64_t errors, timeouts, proto, id_errors, bytes;
	uint64_t status, entered, gone, keepalive, other;
	uint64_t open, peak_open, connecting;
	uint64_t joined, join_failed, join_attempts;
	int codes[MAX_CODES];
	uint64_t code_n[MAX_CODES];
};

static struct {
	/* options */
	const char *host, *queue, *path, *tokens_file, *tokens_out;
	const char *entered_path, *status_path;
	int port, sources, source_first, join_conns, join_only, verbose;
	uint64_t count, join_n;
	double rate, hold, max_seconds, idle_timeout, status_every;

	struct sockaddr_in dst;
	char hostport[96];
	char **tokens;
	uint64_t ntokens, cap_tokens;

	struct event_base *base;
	struct conn *conns;		/* one per stream, by index */
	struct conn *jconns;
	uint64_t total, launched;
	enum phase phase;
	struct timespec t0, ramp_t0;
	struct event *ramp_ev, *hold_ev, *max_ev, *stats_ev, *sig_int, *sig_term;
	FILE *entered_log;
	struct counts n;
	char first_error[160];
	int ending;
} g;

static const struct timeval connect_tv = { CONNECT_SECS, 0 };

static void conn_close(struct conn *c, enum why why);
static void ramp_start(void);
static void run_end(const char *why);

static void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	fputs("sseload: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static double
elapsed(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) +
	    (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

static long long
realtime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
note_error(const char *what, int err)
{
	if (g.first_error[0] == '\0')
		snprintf(g.first_error, sizeof g.first_error, "%s: %s", what,
		    evutil_socket_error_to_string(err));
}

static void
count_code(int code)
{
	int i;

	for (i = 0; i < MAX_CODES; i++) {
		if (g.n.codes[i] == code || g.n.codes[i] == 0) {
			g.n.codes[i] = code;
			g.n.code_n[i]++;
			return;
		}
	}
}

/* ---- tokens ----------------------------------------------------------- */

static int
token_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n >= TOKEN_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= ' ' || ch >= 0x7f || ch == '/' || ch == '?' ||
		    ch == '#' || ch == '%')
			return 0;
	}
	return 1;
}

static void
token_add(const char *s, size_t n)
{
	char *t;

	if (g.ntokens == g.cap_tokens) {
		uint64_t cap = g.cap_tokens ? g.cap_tokens * 2 : 1024;
		char **nt = realloc(g.tokens, cap * sizeof *nt);

		if (nt == NULL)
			die("out of memory for %" PRIu64 " tokens", cap);
		g.tokens = nt;
		g.cap_tokens = cap;
	}
	if ((t = malloc(n + 1)) == NULL)
		die("out of memory");
	memcpy(t, s, n);
	t[n] = '\0';
	g.tokens[g.ntokens++] = t;
}

static void
tokens_load(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	uint64_t lineno = 0;

	if (f == NULL)
		die("%s: %s", path, strerror(errno));
	while ((len = getline(&line, &size, f)) != -1) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r' || line[len - 1] == ' '))
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (!token_ok(line, (size_t)len))
			die("%s:%" PRIu64 ": not a token: '%.40s' (1 to %d "
			    "printable characters, no / ? # %% or space)", path,
			    lineno, line, TOKEN_MAX - 1);
		if (g.count > 0 && g.ntokens == g.count)
			break;
		token_add(line, (size_t)len);
	}
	free(line);
	fclose(f);
}

static void
tokens_write(const char *path)
{
	FILE *f = fopen(path, "w");
	uint64_t i;

	if (f == NULL)
		die("%s: %s", path, strerror(errno));
	for (i = 0; i < g.ntokens; i++)
		fprintf(f, "%s\n", g.tokens[i]);
	if (fclose(f) != 0)
		die("%s: write failed", path);
}

/* The request path of stream i: the template with %q, %t and %i filled. */
static int
stream_path(char *buf, size_t size, uint64_t i)
{
	const char *p;
	size_t n = 0;
	int w;

	for (p = g.path; *p != '\0'; p++) {
		if (p[0] == '%' && (p[1] == 'q' || p[1] == 't' || p[1] == 'i')) {
			p++;
			if (*p == 'q')
				w = snprintf(buf + n, size - n, "%s", g.queue);
			else if (*p == 't')
				w = snprintf(buf + n, size - n, "%s",
				    i < g.ntokens ? g.tokens[i] : "");
			else
				w = snprintf(buf + n, size - n, "%" PRIu64, i);
		} else {
			w = snprintf(buf + n, size - n, "%c", *p);
		}
		if (w < 0 || (size_t)w >= size - n)
			return -1;
		n += (size_t)w;
	}
	return 0;
}

/* ---- connections -------------------------------------------------------- */

/* A non-blocking socket bound to source address number i, or -1. */
static evutil_socket_t
conn_socket(uint64_t i)
{
	evutil_socket_t fd;
	struct sockaddr_in src;
	int one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		note_error("socket", errno);
		return -1;
	}
	if (g.sources > 0) {
		memset(&src, 0, sizeof src);
		src.sin_family = AF_INET;
		src.sin_addr.s_addr = htonl((127u << 24) |
		    (uint32_t)(g.source_first + (int)(i % (uint64_t)g.sources)));
		/* The port is chosen at connect(), by the whole 4-tuple. */
		(void)setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one,
		    sizeof one);
		if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0) {
			note_error("bind", errno);
			close(fd);
			return -1;
		}
	}
	return fd;
}

static void conn_read(struct bufferevent *bev, void *arg);
static void conn_event(struct bufferevent *bev, short what, void *arg);

static int
conn_open(struct conn *c, uint64_t i)
{
	evutil_socket_t fd = conn_socket(i);
	uint8_t keep = c->flags & F_JOIN;

	memset(c, 0, sizeof *c);
	c->flags = keep;
	c->idx = (uint32_t)i;
	if (fd < 0)
		goto fail;
	c->bev = bufferevent_socket_new(g.base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL) {
		close(fd);
		note_error("bufferevent_socket_new", ENOMEM);
		goto fail;
	}
	bufferevent_setcb(c->bev, conn_read, NULL, conn_event, c);
	bufferevent_set_timeouts(c->bev, NULL, &connect_tv);
	c->state = C_CONNECTING;
	g.n.connecting++;
	if (bufferevent_socket_connect(c->bev, (struct sockaddr *)&g.dst,
	    sizeof g.dst) != 0) {
		note_error("connect", EVUTIL_SOCKET_ERROR());
		g.n.connecting--;
		bufferevent_free(c->bev);
		c->bev = NULL;
		c->state = C_IDLE;
		goto fail;
	}
	return 0;
fail:
	if (!(c->flags & F_JOIN))
		g.n.failed++;
	return -1;
}

static void
join_send(struct conn *c)
{
	c->state = C_STATUS;
	c->flags &= (uint8_t)~(F_CLOSE | F_DATA);
	c->left = 0;
	c->code = 0;
	g.n.join_attempts++;
	evbuffer_add_printf(bufferevent_get_output(c->bev),
	    "POST /v1/queues/%s/tokens HTTP/1.1\r\nHost: %s\r\n"
	    "User-Agent: sseload\r\nContent-Length: 0\r\n\r\n",
	    g.queue, g.hostport);
}

static void
stream_send(struct conn *c)
{
	char path[1024];

	if (stream_path(path, sizeof path, c->idx) != 0) {
		conn_close(c, W_PROTO);
		return;
	}
	c->state = C_STATUS;
	evbuffer_add_printf(bufferevent_get_output(c->bev),
	    "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n"
	    "Cache-Control: no-cache\r\nUser-Agent: sseload\r\n\r\n",
	    path, g.hostport);
}

/* ---- the joins ------------------------------------------------------------ */

static void join_next(struct conn *c);

static void
join_finish(void)
{
	uint64_t i;

	for (i = 0; i < (uint64_t)g.join_conns; i++)
		if (g.jconns[i].bev != NULL)
			conn_close(&g.jconns[i], W_OURS);
	if (g.tokens_out != NULL)
		tokens_write(g.tokens_out);
	if (g.verbose)
		fprintf(stderr, "sseload: %" PRIu64 " joined, %" PRIu64
		    " failed, in %.1f s\n", g.n.joined, g.n.join_failed,
		    elapsed(&g.t0));
	if (g.join_only || g.ntokens == 0) {
		run_end("joins done");
		return;
	}
	g.count = g.ntokens;
	ramp_start();
}

static int
join_busy(void)
{
	int i;

	for (i = 0; i < g.join_conns; i++)
		if (g.jconns[i].bev != NULL)
			return 1;
	return 0;
}

/* What a join connection does next: another join, or close. */
static void
join_next(struct conn *c)
{
	uint64_t inflight = 0;
	int i, more;

	if (g.phase != PH_JOIN || g.ending)
		return;
	for (i = 0; i < g.join_conns; i++)
		if (&g.jconns[i] != c && g.jconns[i].bev != NULL)
			inflight++;
	/* bounded: at most join_n answers, and a budget of failures */
	more = g.n.joined + inflight < g.join_n &&
	    g.n.join_failed < 100 + g.join_n / 10;
	if (more && c->bev != NULL && !(c->flags & F_CLOSE)) {
		join_send(c);
		return;
	}
	if (c->bev != NULL)
		conn_close(c, W_OURS);
	if (more && conn_open(c, g.n.join_attempts) == 0)
		return;
	if (more)
		g.n.join_failed++;
	if (inflight == 0)
		join_finish();
}

static void
join_answer(struct conn *c)
{
	size_t len = evbuffer_get_length(c->body);
	const char *b = (const char *)evbuffer_pullup(c->body, -1);
	const char *p, *e;
	static const char key[] = "\"token\":\"";

	if ((c->code == 200 || c->code == 201) && b != NULL &&
	    (p = memmem(b, len, key, sizeof key - 1)) != NULL) {
		p += sizeof key - 1;
		e = memchr(p, '"', len - (size_t)(p - b));
		if (e != NULL && token_ok(p, (size_t)(e - p)) &&
		    g.n.joined < g.join_n) {
			token_add(p, (size_t)(e - p));
			g.n.joined++;
		} else {
			g.n.join_failed++;
		}
	} else {
		g.n.join_failed++;
		if (c->code != 200 && c->code != 201)
			count_code(c->code);
	}
	evbuffer_drain(c->body, len);
	c->state = C_IDLE;
	join_next(c);
}

/* ---- SSE ------------------------------------------------------------------ */

static void
sse_dispatch(struct conn *c)
{
	/* as a browser: a frame without data is not an event */
	if (!(c->flags & F_DATA)) {
		c->ev = E_NONE;
		return;
	}
	switch (c->ev) {
	case E_STATUS:
		g.n.status++;
		break;
	case E_ENTERED:
		g.n.entered++;
		c->flags |= F_FINAL;
		if (g.entered_log != NULL && c->idx < g.ntokens)
			fprintf(g.entered_log, "%s %lld\n", g.tokens[c->idx],
			    realtime_ms());
		break;
	case E_GONE:
		g.n.gone++;
		c->flags |= F_FINAL;
		break;
	default:
		g.n.other++;
		break;
	}
	c->ev = E_NONE;
	c->flags &= (uint8_t)~F_DATA;
}

static void
sse_line(struct conn *c, const char *line, size_t n)
{
	const char *colon, *v;
	size_t fl;

	if (n == 0) {
		sse_dispatch(c);
		return;
	}
	if (line[0] == ':') {
		g.n.keepalive++;
		return;
	}
	colon = memchr(line, ':', n);
	fl = colon != NULL ? (size_t)(colon - line) : n;
	v = colon != NULL ? colon + 1 : line + n;
	if (*v == ' ')
		v++;
	if (fl == 5 && memcmp(line, "event", 5) == 0) {
		if (strcmp(v, "status") == 0)
			c->ev = E_STATUS;
		else if (strcmp(v, "entered") == 0)
			c->ev = E_ENTERED;
		else if (strcmp(v, "gone") == 0)
			c->ev = E_GONE;
		else
			c->ev = E_OTHER;
	} else if (fl == 4 && memcmp(line, "data", 4) == 0) {
		c->flags |= F_DATA;
	} else if (fl == 2 && memcmp(line, "id", 2) == 0) {
		char *end;
		unsigned long id = strtoul(v, &end, 10);

		/* only numeric ids are checked to grow by one */
		if (end == v || *end != '\0')
			return;
		if ((c->flags & F_HAVE_ID) && id != (unsigned long)c->last_id + 1)
			g.n.id_errors++;
		c->last_id = (uint32_t)id;
		c->flags |= F_HAVE_ID;
	}
	/* retry: and unknown fields are ignored, as a browser does */
}

/* Feed the complete SSE lines of the decoded body; -1 on a runaway line. */
static int
sse_feed(struct conn *c)
{
	char *line;
	size_t n;

	while ((line = evbuffer_readln(c->body, &n, EVBUFFER_EOL_CRLF)) != NULL) {
		sse_line(c, line, n);
		free(line);
	}
	return evbuffer_get_length(c->body) > LINE_MAX_LEN ? -1 : 0;
}

/* ---- HTTP ---------------------------------------------------------------- */

static int
header_is(const char *line, const char *name, const char **value)
{
	size_t n = strlen(name);

	if (strncasecmp(line, name, n) != 0 || line[n] != ':')
		return 0;
	*value = line + n + 1;
	while (**value == ' ' || **value == '\t')
		(*value)++;
	return 1;
}

static int
http_header(struct conn *c, const char *line)
{
	const char *v;

	if (header_is(line, "Transfer-Encoding", &v)) {
		if (strcasestr(v, "chunked") != NULL) {
			c->bkind = B_CHUNKED;
			c->chunk = K_SIZE;
		}
	} else if (header_is(line, "Content-Length", &v)) {
		char *end;
		unsigned long long len = strtoull(v, &end, 10);

		if (end == v)
			return -1;
		if (c->bkind != B_CHUNKED) {
			c->bkind = B_LENGTH;
			c->left = len;
		}
	} else if (header_is(line, "Connection", &v)) {
		if (strcasestr(v, "close") != NULL)
			c->flags |= F_CLOSE;
	}
	return 0;
}

/*
 * Move decoded body bytes from in to c->body. Returns 1 when the body is
 * complete, 0 when more is needed, -1 on a malformed body.
 */
static int
http_body(struct conn *c, struct evbuffer *in)
{
	char *line, *end;
	size_t n, len;

	if (c->bkind == B_CLOSE) {
		evbuffer_add_buffer(c->body, in);
		return 0;
	}
	if (c->bkind == B_LENGTH) {
		len = evbuffer_get_length(in);
		if (len > c->left)
			len = (size_t)c->left;
		evbuffer_remove_buffer(in, c->body, len);
		c->left -= len;
		return c->left == 0;
	}
	for (;;) {
		switch (c->chunk) {
		case K_SIZE:
		case K_CRLF:
		case K_TRAILER:
			line = evbuffer_readln(in, &n, EVBUFFER_EOL_CRLF);
			if (line == NULL)
				return evbuffer_get_length(in) > LINE_MAX_LEN ?
				    -1 : 0;
			if (c->chunk == K_SIZE) {
				errno = 0;
				c->left = strtoull(line, &end, 16);
				if (end == line || errno != 0) {
					free(line);
					return -1;
				}
				c->chunk = c->left == 0 ? K_TRAILER : K_DATA;
			} else if (c->chunk == K_CRLF) {
				c->chunk = K_SIZE;
				if (n != 0) {
					free(line);
					return -1;
				}
			} else if (n == 0) {
				free(line);
				return 1;
			}
			free(line);
			break;
		case K_DATA:
			len = evbuffer_get_length(in);
			if (len == 0)
				return 0;
			if (len > c->left)
				len = (size_t)c->left;
			evbuffer_remove_buffer(in, c->body, len);
			c->left -= len;
			if (c->left == 0)
				c->chunk = K_CRLF;
			break;
		default:
			return -1;
		}
	}
}

/* Headers are read: a stream starts, a join waits for its body. */
static int
http_headers_done(struct conn *c)
{
	if (c->body == NULL && (c->body = evbuffer_new()) == NULL)
		return -1;
	if (c->flags & F_JOIN) {
		/* a join answer without a length ends at the close */
		c->state = C_BODY;
		return 0;
	}
	if (c->code != 200) {
		g.n.non200++;
		count_code(c->code);
		conn_close(c, W_NON200);
		return 1;
	}
	g.n.ok++;
	g.n.open++;
	if (g.n.open > g.n.peak_open)
		g.n.peak_open = g.n.open;
	c->flags |= F_OPEN;
	c->state = C_BODY;
	return 0;
}

/* Parse what arrived; 1 when the connection was closed here. */
static int
conn_parse(struct conn *c, struct evbuffer *in)
{
	char *line;
	size_t n;
	int r;

	for (;;) {
		switch (c->state) {
		case C_STATUS:
		case C_HEADERS:
			line = evbuffer_readln(in, &n, EVBUFFER_EOL_CRLF);
			if (line == NULL) {
				if (evbuffer_get_length(in) <= LINE_MAX_LEN)
					return 0;
				conn_close(c, W_PROTO);
				return 1;
			}
			if (c->state == C_STATUS) {
				unsigned code;

				if (sscanf(line, "HTTP/1.%*1[01] %3u", &code) != 1 ||
				    code < 100 || code > 599) {
					free(line);
					conn_close(c, W_PROTO);
					return 1;
				}
				c->code = (uint16_t)code;
				c->bkind = B_CLOSE;
				c->state = C_HEADERS;
			} else if (n == 0) {
				free(line);
				if (c->code >= 100 && c->code < 200) {
					c->state = C_STATUS;	/* interim */
					continue;
				}
				if ((r = http_headers_done(c)) != 0) {
					if (r < 0)
						conn_close(c, W_PROTO);
					return 1;
				}
				if (c->bkind == B_LENGTH && c->left == 0 &&
				    (c->flags & F_JOIN)) {
					join_answer(c);
					return 1;
				}
				continue;
			} else if (http_header(c, line) != 0) {
				free(line);
				conn_close(c, W_PROTO);
				return 1;
			}
			free(line);
			break;
		case C_BODY:
			r = http_body(c, in);
			if (r < 0) {
				conn_close(c, W_PROTO);
				return 1;
			}
			if (c->flags & F_JOIN) {
				if (r == 1) {
					join_answer(c);
					return 1;
				}
				return 0;
			}
			if (sse_feed(c) != 0) {
				conn_close(c, W_PROTO);
				return 1;
			}
			if (r == 1) {
				conn_close(c, W_ENDED);
				return 1;
			}
			return 0;
		default:
			return 0;
		}
	}
}

static void
conn_read(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	size_t before = evbuffer_get_length(in);

	if (conn_parse(c, in) == 0)
		g.n.bytes += before - evbuffer_get_length(in);
	else
		g.n.bytes += before;	/* closed: the rest is dropped */
}

static void
conn_event(struct bufferevent *bev, short what, void *arg)
{
	struct conn *c = arg;
	struct timeval idle;

	if (what & BEV_EVENT_CONNECTED) {
		g.n.connecting--;
		g.n.connected++;
		if (g.idle_timeout > 0 && !(c->flags & F_JOIN)) {
			idle.tv_sec = (time_t)g.idle_timeout;
			idle.tv_usec = (suseconds_t)((g.idle_timeout -
			    (double)idle.tv_sec) * 1e6);
			bufferevent_set_timeouts(bev, &idle, &connect_tv);
		} else {
			/* a join answers within the connect time, or fails */
			bufferevent_set_timeouts(bev, (c->flags & F_JOIN) ?
			    &connect_tv : NULL, &connect_tv);
		}
		bufferevent_enable(bev, EV_READ);
		if (c->flags & F_JOIN)
			join_send(c);
		else
			stream_send(c);
		return;
	}
	if (c->state == C_CONNECTING) {
		g.n.connecting--;
		if (c->flags & F_JOIN)
			g.n.join_failed++;
		else
			g.n.failed++;
		note_error("connect", (what & BEV_EVENT_TIMEOUT) ? ETIMEDOUT :
		    EVUTIL_SOCKET_ERROR());
		conn_close(c, W_CONNECT);
	} else if (what & BEV_EVENT_TIMEOUT) {
		conn_close(c, W_TIMEOUT);
	} else if (what & BEV_EVENT_EOF) {
		/* a body that runs until the close ends here, complete */
		if ((c->flags & F_JOIN) && c->state == C_BODY &&
		    c->bkind == B_CLOSE) {
			c->flags |= F_CLOSE;
			join_answer(c);
			return;
		}
		conn_close(c, W_EOF);
	} else {
		note_error("read", EVUTIL_SOCKET_ERROR());
		conn_close(c, W_ERROR);
	}
}

/* One teardown per connection, counted by why it ended. */
static void
conn_close(struct conn *c, enum why why)
{
	int join = c->flags & F_JOIN;

	if (c->bev == NULL)
		return;
	if (c->flags & F_OPEN) {
		g.n.open--;
		c->flags &= (uint8_t)~F_OPEN;
	}
	switch (why) {
	case W_EOF:
	case W_ENDED:
	case W_ERROR:
		if (join) {
			if (c->state != C_IDLE && c->state != C_STATUS)
				g.n.join_failed++;
			break;
		}
		g.n.server_closed++;
		if (c->flags & F_FINAL)
			g.n.final_closed++;
		if (why == W_ERROR)
			g.n.errors++;
		break;
	case W_TIMEOUT:
		g.n.timeouts++;
		break;
	case W_PROTO:
		g.n.proto++;
		break;
	default:
		break;
	}
	bufferevent_free(c->bev);
	c->bev = NULL;
	if (c->body != NULL) {
		evbuffer_free(c->body);
		c->body = NULL;
	}
	c->state = C_IDLE;
	if (join) {
		if (why != W_OURS)
			join_next(c);
		return;
	}
	if (g.phase != PH_JOIN && g.launched == g.total && g.n.open == 0 &&
	    g.n.connecting == 0 && !g.ending)
		run_end("every stream ended");
}

/* ---- phases ------------------------------------------------------------------ */

static void
hold_over(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	run_end("hold over");
}

static void
ramp_tick(evutil_socket_t fd, short what, void *arg)
{
	uint64_t target;
	double t = elapsed(&g.ramp_t0);
	struct timeval tv;

	(void)fd;
	(void)what;
	(void)arg;
	target = (uint64_t)(t * g.rate) + 1;
	if (target > g.total)
		target = g.total;
	/* never more than a second's worth of handshakes in flight */
	while (g.launched < target && !g.ending &&
	    g.n.connecting < (uint64_t)g.rate + 1) {
		(void)conn_open(&g.conns[g.launched], g.launched);
		g.launched++;
	}
	if (g.launched < g.total || g.ending)
		return;
	event_del(g.ramp_ev);
	g.phase = PH_HOLD;
	if (g.verbose)
		fprintf(stderr, "sseload: %" PRIu64 " streams started in %.1f s;"
		    " holding %.0f s\n", g.total, t, g.hold);
	tv.tv_sec = (time_t)g.hold;
	tv.tv_usec = (suseconds_t)((g.hold - (double)tv.tv_sec) * 1e6);
	g.hold_ev = evtimer_new(g.base, hold_over, NULL);
	if (g.hold_ev == NULL || evtimer_add(g.hold_ev, &tv) != 0)
		die("cannot arm the hold timer");
	if (g.n.open == 0 && g.n.connecting == 0)
		run_end("every stream ended");
}

static void
ramp_start(void)
{
	static const struct timeval every = { 0, 10000 };

	g.total = g.count;
	g.conns = calloc(g.total ? g.total : 1, sizeof *g.conns);
	if (g.conns == NULL)
		die("out of memory for %" PRIu64 " streams", g.total);
	g.phase = PH_RAMP;
	clock_gettime(CLOCK_MONOTONIC, &g.ramp_t0);
	g.ramp_ev = event_new(g.base, -1, EV_PERSIST, ramp_tick, NULL);
	if (g.ramp_ev == NULL || event_add(g.ramp_ev, &every) != 0)
		die("cannot arm the ramp timer");
	ramp_tick(-1, 0, NULL);
}

static void
join_start(void)
{
	int i;

	g.phase = PH_JOIN;
	if ((uint64_t)g.join_conns > g.join_n)
		g.join_conns = (int)g.join_n;
	g.jconns = calloc((size_t)g.join_conns, sizeof *g.jconns);
	if (g.jconns == NULL)
		die("out of memory");
	for (i = 0; i < g.join_conns; i++) {
		g.jconns[i].flags = F_JOIN;
		if (conn_open(&g.jconns[i], (uint64_t)i) != 0)
			g.n.join_failed++;
	}
	if (!join_busy())
		join_finish();
}

/* ---- the summary ----------------------------------------------------------- */

static void
summary(FILE *f, const char *phase)
{
	int i;

	fprintf(f, "{\"connected\":%" PRIu64 ",\"failed\":%" PRIu64
	    ",\"non200\":%" PRIu64 ",\"events\":{\"status\":%" PRIu64
	    ",\"entered\":%" PRIu64 ",\"gone\":%" PRIu64 ",\"keepalive\":%"
	    PRIu64 ",\"other\":%" PRIu64 "},\"server_closed\":%" PRIu64
	    ",\"bytes\":%" PRIu64 ",\"open_at_end\":%" PRIu64
	    ",\"seconds\":%.3f", g.n.connected, g.n.failed, g.n.non200,
	    g.n.status, g.n.entered, g.n.gone, g.n.keepalive, g.n.other,
	    g.n.server_closed, g.n.bytes, g.n.open, elapsed(&g.t0));
	fprintf(f, ",\"streams\":%" PRIu64 ",\"open\":%" PRIu64
	    ",\"peak_open\":%" PRIu64 ",\"connecting\":%" PRIu64
	    ",\"closed_after_final\":%" PRIu64 ",\"errors\":%" PRIu64
	    ",\"timeouts\":%" PRIu64 ",\"protocol_errors\":%" PRIu64
	    ",\"id_errors\":%" PRIu64 ",\"planned\":%" PRIu64
	    ",\"launched\":%" PRIu64, g.n.ok, g.n.open, g.n.peak_open,
	    g.n.connecting, g.n.final_closed, g.n.errors, g.n.timeouts,
	    g.n.proto, g.n.id_errors, g.total, g.launched);
	if (g.join_n > 0)
		fprintf(f, ",\"joined\":%" PRIu64 ",\"join_failed\":%" PRIu64,
		    g.n.joined, g.n.join_failed);
	fputs(",\"codes\":{", f);
	for (i = 0; i < MAX_CODES && g.n.codes[i] != 0; i++)
		fprintf(f, "%s\"%d\":%" PRIu64, i ? "," : "", g.n.codes[i],
		    g.n.code_n[i]);
	fputc('}', f);
	if (g.first_error[0] != '\0') {
		char *p;

		/* the text comes from strerror: no quote or backslash */
		for (p = g.first_error; *p != '\0'; p++)
			if (*p == '"' || *p == '\\' || (unsigned char)*p < ' ')
				*p = ' ';
		fprintf(f, ",\"first_error\":\"%s\"", g.first_error);
	}
	if (phase != NULL)
		fprintf(f, ",\"phase\":\"%s\"", phase);
	fputs("}\n", f);
}

static void
stats_tick(evutil_socket_t fd, short what, void *arg)
{
	static const char *const names[] = { "join", "ramp", "hold", "end" };
	char tmp[PATH_MAX];
	FILE *f;

	(void)fd;
	(void)what;
	(void)arg;
	if (g.verbose)
		fprintf(stderr, "sseload: %.0f s %s: open %" PRIu64
		    ", connecting %" PRIu64 ", failed %" PRIu64 ", status %"
		    PRIu64 ", entered %" PRIu64 "\n", elapsed(&g.t0),
		    names[g.phase], g.n.open, g.n.connecting, g.n.failed,
		    g.n.status, g.n.entered);
	if (g.status_path == NULL)
		return;
	if (snprintf(tmp, sizeof tmp, "%s.tmp", g.status_path) >=
	    (int)sizeof tmp || (f = fopen(tmp, "w")) == NULL)
		return;
	summary(f, names[g.phase]);
	if (fclose(f) == 0)
		(void)rename(tmp, g.status_path);
}

static void
run_end(const char *why)
{
	if (g.ending)
		return;
	g.ending = 1;
	if (g.verbose)
		fprintf(stderr, "sseload: ending after %.1f s: %s\n",
		    elapsed(&g.t0), why);
	event_base_loopbreak(g.base);
}

static void
on_signal(evutil_socket_t fd, short what, void *arg)
{
	(void)what;
	(void)arg;
	run_end(fd == SIGINT ? "SIGINT" : "SIGTERM");
}

static void
max_over(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	run_end("--max-seconds passed");
}

/* ---- main ---------------------------------------------------------------- */

static void
usage(FILE *f)
{
	fputs(
"usage: sseload --port PORT [--host 127.0.0.1] [--queue Q]\n"
"               (--tokens FILE | --join N | --count N) [options]\n"
"  --path TEMPLATE     request path; %q queue, %t token, %i stream number\n"
"                      (default /v1/queues/%q/tokens/%t/events)\n"
"  --tokens FILE       one token per line; one stream per token\n"
"  --count N           at most N streams (without tokens: N streams, use %i)\n"
"  --join N            first join N tokens (POST /v1/queues/Q/tokens)\n"
"  --join-conns C      concurrent keep-alive join connections (default 32)\n"
"  --join-only         join, write --tokens-out, and exit\n"
"  --tokens-out FILE   write the joined tokens there\n"
"  --sources N         bind socket i to 127.0.0.(FIRST + i %% N) (default 0:\n"
"                      no bind)\n"
"  --source-first K    FIRST above (default 2)\n"
"  --rate R            new connections per second (default 1000)\n"
"  --hold S            seconds to hold once all are started (default 30)\n"
"  --idle-timeout S    close a stream silent for S seconds (default 0: off)\n"
"  --max-seconds S     end the whole run after S seconds (default 120)\n"
"  --entered-log FILE  append \"TOKEN UNIX_MS\" per entered event\n"
"  --status-file FILE  rewrite the running summary there (with \"phase\")\n"
"  --status-interval S how often: status file and -v lines (default 1)\n"
"  -v, --verbose       progress on stderr\n"
"Prints one line of JSON at the end.\n", f);
}

static double
num_arg(const char *opt, const char *v, double min, double max)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end != '\0' || errno != 0 || d < min || d > max)
		die("%s: '%s' is not a number from %g to %g", opt, v, min, max);
	return d;
}

static void
options(int argc, char **argv)
{
	enum { OPT_HOST = 256, OPT_SEVERY, OPT_PORT, OPT_QUEUE, OPT_PATH, OPT_TOKENS, OPT_COUNT,
		OPT_JOIN, OPT_JOINC, OPT_JOINONLY, OPT_TOUT, OPT_SOURCES, OPT_SFIRST,
		OPT_RATE, OPT_HOLD, OPT_IDLE, OPT_MAX, OPT_ENTERED, OPT_STATUS };
	static const struct option lo[] = {
		{ "host", required_argument, NULL, OPT_HOST },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "queue", required_argument, NULL, OPT_QUEUE },
		{ "path", required_argument, NULL, OPT_PATH },
		{ "tokens", required_argument, NULL, OPT_TOKENS },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "join", required_argument, NULL, OPT_JOIN },
		{ "join-conns", required_argument, NULL, OPT_JOINC },
		{ "join-only", no_argument, NULL, OPT_JOINONLY },
		{ "tokens-out", required_argument, NULL, OPT_TOUT },
		{ "sources", required_argument, NULL, OPT_SOURCES },
		{ "source-first", required_argument, NULL, OPT_SFIRST },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "hold", required_argument, NULL, OPT_HOLD },
		{ "idle-timeout", required_argument, NULL, OPT_IDLE },
		{ "max-seconds", required_argument, NULL, OPT_MAX },
		{ "entered-log", required_argument, NULL, OPT_ENTERED },
		{ "status-file", required_argument, NULL, OPT_STATUS },
		{ "status-interval", required_argument, NULL, OPT_SEVERY },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int o;

	g.host = "127.0.0.1";
	g.queue = "bench";
	g.path = "/v1/queues/%q/tokens/%t/events";
	g.source_first = 2;
	g.join_conns = 32;
	g.rate = 1000;
	g.hold = 30;
	g.max_seconds = 120;
	g.status_every = 1;
	while ((o = getopt_long(argc, argv, "vh", lo, NULL)) != -1) {
		switch (o) {
		case OPT_HOST: g.host = optarg; break;
		case OPT_PORT: g.port = (int)num_arg("--port", optarg, 1, 65535);
			break;
		case OPT_QUEUE: g.queue = optarg; break;
		case OPT_PATH: g.path = optarg; break;
		case OPT_TOKENS: g.tokens_file = optarg; break;
		case OPT_COUNT:
			g.count = (uint64_t)num_arg("--count", optarg, 1, 1e7);
			break;
		case OPT_JOIN:
			g.join_n = (uint64_t)num_arg("--join", optarg, 1, 1e7);
			break;
		case OPT_JOINC:
			g.join_conns = (int)num_arg("--join-conns", optarg, 1,
			    1000);
			break;
		case OPT_JOINONLY: g.join_only = 1; break;
		case OPT_TOUT: g.tokens_out = optarg; break;
		case OPT_SOURCES:
			g.sources = (int)num_arg("--sources", optarg, 0, 250);
			break;
		case OPT_SFIRST:
			g.source_first = (int)num_arg("--source-first", optarg,
			    1, 254);
			break;
		case OPT_RATE: g.rate = num_arg("--rate", optarg, 1, 1e6); break;
		case OPT_HOLD: g.hold = num_arg("--hold", optarg, 0, 86400);
			break;
		case OPT_IDLE:
			g.idle_timeout = num_arg("--idle-timeout", optarg, 0,
			    86400);
			break;
		case OPT_MAX:
			g.max_seconds = num_arg("--max-seconds", optarg, 1,
			    86400);
			break;
		case OPT_ENTERED: g.entered_path = optarg; break;
		case OPT_STATUS: g.status_path = optarg; break;
		case OPT_SEVERY:
			g.status_every = num_arg("--status-interval", optarg,
			    0.05, 60);
			break;
		case 'v': g.verbose = 1; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind != argc)
		die("unexpected argument '%s' (try --help)", argv[optind]);
	if (g.port == 0)
		die("--port is required (try --help)");
	if ((g.tokens_file != NULL) + (g.join_n > 0) != 1 &&
	    !(g.tokens_file == NULL && g.join_n == 0 && g.count > 0))
		die("give one of --tokens FILE, --join N or --count N");
	if (g.join_only && g.join_n == 0)
		die("--join-only needs --join N");
	if (g.sources > 0 && g.source_first + g.sources - 1 > 254)
		die("--source-first %d + --sources %d goes past 127.0.0.254",
		    g.source_first, g.sources);
	if (strstr(g.path, "%t") != NULL && g.tokens_file == NULL &&
	    g.join_n == 0)
		die("--path uses %%t: give --tokens or --join");
	if (strlen(g.queue) == 0 || !token_ok(g.queue, strlen(g.queue)))
		die("--queue '%s' is not a queue id", g.queue);
	memset(&g.dst, 0, sizeof g.dst);
	g.dst.sin_family = AF_INET;
	g.dst.sin_port = htons((uint16_t)g.port);
	if (strcmp(g.host, "localhost") == 0)
		g.host = "127.0.0.1";
	if (inet_pton(AF_INET, g.host, &g.dst.sin_addr) != 1)
		die("--host '%s' is not an IPv4 address", g.host);
	if ((ntohl(g.dst.sin_addr.s_addr) >> 24) != 127)
		die("--host %s: only 127.0.0.0/8 may be load tested", g.host);
	snprintf(g.hostport, sizeof g.hostport, "%s:%d", g.host, g.port);
}

/* Raise the soft descriptor limit to the hard one; die when too low. */
static void
fd_limit(uint64_t need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		die("getrlimit: %s", strerror(errno));
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && need + FD_SPARE > rl.rlim_cur)
		die("%" PRIu64 " streams need %" PRIu64 " descriptors; this "
		    "process may open %llu: run several sseload processes",
		    need, need + FD_SPARE, (unsigned long long)rl.rlim_cur);
}

int
main(int argc, char **argv)
{
	struct timeval tv;
	uint64_t i;

	options(argc, argv);
	clock_gettime(CLOCK_MONOTONIC, &g.t0);
	if (g.tokens_file != NULL) {
		tokens_load(g.tokens_file);
		g.count = g.ntokens;
		if (g.count == 0)
			die("%s holds no token", g.tokens_file);
	}
	fd_limit(g.join_only ? (uint64_t)g.join_conns :
	    g.join_n > 0 ? g.join_n : g.count);
	if (g.entered_path != NULL &&
	    (g.entered_log = fopen(g.entered_path, "a")) == NULL)
		die("%s: %s", g.entered_path, strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	if ((g.base = event_base_new()) == NULL)
		die("event_base_new failed");

	g.sig_int = evsignal_new(g.base, SIGINT, on_signal, NULL);
	g.sig_term = evsignal_new(g.base, SIGTERM, on_signal, NULL);
	g.max_ev = evtimer_new(g.base, max_over, NULL);
	g.stats_ev = event_new(g.base, -1, EV_PERSIST, stats_tick, NULL);
	if (g.sig_int == NULL || g.sig_term == NULL || g.max_ev == NULL ||
	    g.stats_ev == NULL)
		die("cannot make the loop's events");
	tv.tv_sec = (time_t)g.max_seconds;
	tv.tv_usec = (suseconds_t)((g.max_seconds - (double)tv.tv_sec) * 1e6);
	evsignal_add(g.sig_int, NULL);
	evsignal_add(g.sig_term, NULL);
	evtimer_add(g.max_ev, &tv);
	tv.tv_sec = (time_t)g.status_every;
	tv.tv_usec = (suseconds_t)((g.status_every - (double)tv.tv_sec) * 1e6);
	event_add(g.stats_ev, &tv);

	if (g.join_n > 0)
		join_start();
	else
		ramp_start();
	if (!g.ending)
		event_base_dispatch(g.base);

	g.phase = PH_END;
	stats_tick(-1, 0, NULL);
	summary(stdout, NULL);
	fflush(stdout);

	for (i = 0; i < g.total; i++)
		conn_close(&g.conns[i], W_OURS);
	for (i = 0; g.jconns != NULL && i < (uint64_t)g.join_conns; i++)
		conn_close(&g.jconns[i], W_OURS);
	if (g.entered_log != NULL && fclose(g.entered_log) != 0)
		fprintf(stderr, "sseload: %s: write failed\n", g.entered_path);
	event_free(g.sig_int);
	event_free(g.sig_term);
	event_free(g.max_ev);
	event_free(g.stats_ev);
	if (g.ramp_ev != NULL)
		event_free(g.ramp_ev);
	if (g.hold_ev != NULL)
		event_free(g.hold_ev);
	event_base_free(g.base);
	for (i = 0; i < g.ntokens; i++)
		free(g.tokens[i]);
	free(g.tokens);
	free(g.conns);
	free(g.jconns);
	return 0;
}
