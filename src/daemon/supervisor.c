/* supervisor.c: the main process of workers = N; see supervisor.h. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "notify.h"
#include "supervisor.h"

#define SUP_MAX 64
#define SUP_READY_MS 15000	/* workers must serve within this */
#define SUP_STOP_S 10		/* then SIGKILL */
#define SUP_BACKOFF_MAX_S 5
#define SUP_STABLE_S 30		/* a worker that lived this long resets backoff */

struct worker {
	pid_t pid;		/* 0: not running */
	time_t started;
	time_t restart_at;	/* 0: no restart due */
	int backoff;
};

struct sup {
	struct worker w[SUP_MAX];
	int n;
	supervisor_worker *run;
	void (*on_hup)(void *arg);
	void (*on_status)(void *arg);
	time_t status_at;	/* the next on_status */
	void *arg;
	int ready[2];		/* a worker writes its number when it serves */
	unsigned char serving[SUP_MAX];
	unsigned char reloaded[SUP_MAX];	/* told us since the SIGHUP */
	int reloading;		/* a SIGHUP went out; READY=1 once all told */
	int announced;		/* READY=1 was sent */
	sigset_t sigs;
	int stopping;
	int killed;		/* some worker needed SIGKILL */
	time_t stop_deadline;
};

static time_t
mono(void)
{
	return (time_t)(clock_mono_ms() / 1000);
}

static void
spawn(struct sup *s, int i)
{
	pid_t pid = fork();

	if (pid == -1) {
		log_error("event=fork_failed worker=%d error=\"%s\"", i,
		    strerror(errno));
		s->w[i].restart_at = mono() + 1;
		return;
	}
	if (pid == 0) {
		/* The signals stay blocked until the worker handles them. */
		close(s->ready[0]);
		srandom((unsigned)time(NULL) ^ (unsigned)getpid());
		_exit(s->run(i, s->ready[1], s->arg));
	}
	s->w[i].pid = pid;
	s->w[i].started = mono();
	s->w[i].restart_at = 0;
	log_info("event=worker_started worker=%d pid=%d", i, (int)pid);
}

static void
reap(struct sup *s)
{
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (int i = 0; i < s->n; i++) {
			struct worker *w = &s->w[i];

			if (w->pid != pid)
				continue;
			w->pid = 0;
			s->serving[i] = 0;
			if (s->stopping)
				break;
			if (mono() - w->started >= SUP_STABLE_S)
				w->backoff = 0;
			w->backoff = w->backoff ? w->backoff * 2 : 1;
			if (w->backoff > SUP_BACKOFF_MAX_S)
				w->backoff = SUP_BACKOFF_MAX_S;
			w->restart_at = mono() + w->backoff;
			log_error("event=worker_died worker=%d pid=%d %s=%d "
			    "restart_in=%ds", i, (int)pid,
			    WIFSIGNALED(status) ? "signal" : "status",
			    WIFSIGNALED(status) ? WTERMSIG(status) :
			    WEXITSTATUS(status), w->backoff);
		}
	}
}

static int
running(const struct sup *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->w[i].pid != 0;
	return n;
}

static void
forward(struct sup *s, int sig)
{
	for (int i = 0; i < s->n; i++)
		if (s->w[i].pid)
			kill(s->w[i].pid, sig);
}

/* Note the workers that wrote their number since the last look. */
static void
take_ready(struct sup *s)
{
	unsigned char buf[SUP_MAX];
	struct pollfd p = { s->ready[0], POLLIN, 0 };
	ssize_t r;

	if (poll(&p, 1, 100) <= 0 || (r = read(s->ready[0], buf,
	    sizeof buf)) <= 0)
		return;
	for (ssize_t k = 0; k < r; k++)
		if (buf[k] < s->n && s->w[buf[k]].pid != 0)
			s->serving[buf[k]] = s->reloaded[buf[k]] = 1;
}

static int
all_serving(const struct sup *s)
{
	for (int i = 0; i < s->n; i++)
		if (!s->serving[i])
			return 0;
	return 1;
}

static void
on_sig(struct sup *s, int sig, time_t now)
{
	if (sig == SIGCHLD)
		reap(s);
	else if (sig == SIGHUP && !s->stopping) {
		if (s->on_hup)
			s->on_hup(s->arg);
		if (s->announced) {	/* else the manager awaits READY=1 */
			notify_reloading();
			memset(s->reloaded, 0, sizeof s->reloaded);
			s->reloading = 1;
		}
		forward(s, SIGHUP);
	} else if ((sig == SIGTERM || sig == SIGINT) && !s->stopping) {
		log_info("event=shutdown signal=%d workers=%d", sig, running(s));
		notify_send("STOPPING=1");
		notify_status("stopping: draining %d workers", running(s));
		s->stopping = 1;
		s->stop_deadline = now + SUP_STOP_S;
		forward(s, SIGTERM);
	}
}

/* Ready workers, pending signals, SIGKILL past the deadline, restarts. */
static void
step(struct sup *s)
{
	struct timespec zero = { 0, 0 };
	time_t now;
	int sig;

	take_ready(s);
	now = mono();
	while ((sig = sigtimedwait(&s->sigs, NULL, &zero)) > 0)
		on_sig(s, sig, now);
	if (s->stopping && now >= s->stop_deadline && running(s) > 0) {
		s->killed = 1;
		forward(s, SIGKILL);
	}
	for (int i = 0; i < s->n && !s->stopping; i++)
		if (s->w[i].pid == 0 && s->w[i].restart_at &&
		    now >= s->w[i].restart_at)
			spawn(s, i);
}

/* Every running worker has reloaded (or died and came back serving). */
static int
all_reloaded(const struct sup *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->w[i].pid != 0 && !s->reloaded[i])
			return 0;
	return 1;
}

/*
 * Run until every worker has stopped. on_ready once every worker serves
 * (a worker that died and came back counts once it serves again).
 */
static void
run_loop(struct sup *s, void (*on_ready)(void *), void *arg)
{
	time_t late = mono() + SUP_READY_MS / 1000;
	int warned = 0;

	while (!s->stopping || running(s) > 0) {
		step(s);
		if (!s->announced && !s->stopping && all_serving(s)) {
			on_ready(arg);
			notify_status("serving workers=%d", s->n);
			s->announced = 1;
		}
		if (s->reloading && !s->stopping && all_reloaded(s)) {
			s->reloading = 0;
			notify_send("READY=1");
			notify_status("serving workers=%d reloaded", s->n);
		} else if (s->announced && !s->stopping && !s->reloading &&
		    s->on_status && mono() >= s->status_at) {
			s->on_status(s->arg);
			s->status_at = mono() + SUPERVISOR_STATUS_S;
		} else if (!s->announced && !warned && mono() >= late) {
			log_error("event=workers_not_ready msg=\"not every "
			    "worker serves yet\"");
			warned = 1;
		}
	}
}

int
supervise(int n, supervisor_worker *worker, void *arg,
    void (*on_ready)(void *arg), void (*on_hup)(void *arg),
    void (*on_status)(void *arg))
{
	struct sup s;

	memset(&s, 0, sizeof s);
	s.n = n > SUP_MAX ? SUP_MAX : n;
	s.run = worker, s.arg = arg, s.on_hup = on_hup;
	s.on_status = on_status;
	if (pipe(s.ready) == -1)
		return 1;
	sigemptyset(&s.sigs);
	sigaddset(&s.sigs, SIGCHLD);
	sigaddset(&s.sigs, SIGTERM);
	sigaddset(&s.sigs, SIGINT);
	sigaddset(&s.sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &s.sigs, NULL);
	for (int i = 0; i < s.n; i++)
		spawn(&s, i);
	run_loop(&s, on_ready, arg);
	close(s.ready[0]);
	close(s.ready[1]);
	log_info("event=stopped%s", s.killed ? " killed=yes" : "");
	return s.killed;
}
