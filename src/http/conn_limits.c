/* conn_limits.c: see conn_limits.h. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "clientaddr.h"
#include "conf.h"
#include "conn_limits.h"
#include "connq.h"
#include "ipcount.h"
#include "log.h"

/* The descriptors open before us lie below this one. */
#define CONN_LIMITS_BASE_FDS 256
/* RLIMIT_NOFILE is read again this often. */
#define CONN_LIMITS_NOFILE_MS 1000

struct conn_limits {
	struct conf *const *conf;	/* the one in force: *conf */
	const struct netlist *trusted;
	struct conn_log *log;
	struct ipcount *ips;
	long nofile;		/* RLIMIT_NOFILE, read at nofile_ms */
	long long nofile_ms;
	int base;		/* open before any connection */
};

/* RLIMIT_NOFILE, read again when a second old or fresh is set. */
static long
conn_limits_nofile(struct conn_limits *cl, long long now, int fresh)
{
	struct rlimit rl;

	if (!fresh && cl->nofile > 0 &&
	    now - cl->nofile_ms < CONN_LIMITS_NOFILE_MS)
		return cl->nofile;
	cl->nofile_ms = now;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		cl->nofile = rl.rlim_cur == RLIM_INFINITY ||
		    rl.rlim_cur > LONG_MAX ? LONG_MAX : (long)rl.rlim_cur;
	return cl->nofile;
}

/* Descriptors open, at least: ours and those before us, and since the
 * kernel gives the lowest free one, every one below the newest. */
static long
conn_limits_open(const struct conn_limits *cl, size_t count,
    evutil_socket_t newest)
{
	long n = (long)count + cl->base;

	return newest >= n ? (long)newest + 1 : n;
}

int
conn_limits_over(struct conn_limits *cl, size_t count,
    evutil_socket_t newest, long long now)
{
	long pct = (*cl->conf)->fd_reserve;

	return pct != 0 && conn_limits_open(cl, count, newest) >
	    connq_high_water(conn_limits_nofile(cl, now, 0), pct);
}

long
conn_limits_shed(struct conn_limits *cl, long long now)
{
	long pct = (*cl->conf)->fd_reserve, limit;

	if (pct == 0)
		return 0;
	limit = conn_limits_nofile(cl, now, 1);
	return limit - connq_high_water(limit, pct);
}

static void
conn_limits_refused(struct conn_limits *cl, const char *peer, long long now)
{
	unsigned long n = ipcount_refused(cl->ips, peer, now);

	if (n > 0)
		log_info("event=conn_refused reason=max_conns_per_ip addr=%s "
		    "open=%zu refused=%lu", peer, ipcount_of(cl->ips, peer), n);
	conn_log_note(cl->log, MCONN_PER_IP, 1, now);
}

int
conn_limits_admit(struct conn_limits *cl, const char *peer, long long now,
    struct ipslot **slot)
{
	size_t max = (size_t)(*cl->conf)->max_conns_per_ip;
	int full;

	*slot = NULL;
	if (peer == NULL)
		return 1;
	/* A trusted proxy carries many visitors; it caps them itself. */
	if (cl->trusted && netlist_has(cl->trusted, peer))
		max = 0;
	if ((*slot = ipcount_take(cl->ips, peer, max, &full)) != NULL || !full)
		return 1;
	conn_limits_refused(cl, peer, now);
	return 0;
}

void
conn_limits_release(struct conn_limits *cl, struct ipslot *slot)
{
	ipcount_release(cl->ips, slot);
}

/* Descriptors open now, before any connection. */
static int
conn_limits_fds_open(void)
{
	int n = 0;

	for (int fd = 0; fd < CONN_LIMITS_BASE_FDS; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

struct conn_limits *
conn_limits_new(struct conf *const *conf, const struct netlist *trusted,
    struct conn_log *log)
{
	struct conn_limits *cl = calloc(1, sizeof *cl);

	if (cl == NULL)
		return NULL;
	cl->conf = conf, cl->trusted = trusted, cl->log = log;
	cl->base = conn_limits_fds_open();
	if ((cl->ips = ipcount_new()) == NULL) {
		free(cl);
		return NULL;
	}
	return cl;
}

void
conn_limits_free(struct conn_limits *cl)
{
	if (cl == NULL)
		return;
	ipcount_free(cl->ips);
	free(cl);
}
