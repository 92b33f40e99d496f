/* supervisor.c: the main process of workers = N; see supervisor.h. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
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
	void *arg;
	int ready[2];		/* workers write a byte when they serve */
	sigset_t sigs;
	int stopping;
	time_t stop_deadline;
};

static time_t
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
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
		sigprocmask(SIG_UNBLOCK, &s->sigs, NULL);
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

/* Wait until every first worker wrote its byte; 0 when they all did. */
static int
wait_ready(struct sup *s)
{
	int got = 0;
	char buf[SUP_MAX];
	struct pollfd p = { s->ready[0], POLLIN, 0 };
	time_t end = mono() + SUP_READY_MS / 1000;

	while (got < s->n && mono() < end && running(s) == s->n) {
		ssize_t r;

		if (poll(&p, 1, 100) <= 0)
			continue;
		if ((r = read(s->ready[0], buf, sizeof buf)) > 0)
			got += (int)r;
	}
	return got >= s->n ? 0 : -1;
}

/* One signal, or a timeout when a restart is due within a second. */
static void
step(struct sup *s)
{
	struct timespec ts = { 1, 0 };
	int sig = sigtimedwait(&s->sigs, NULL, &ts);
	time_t now = mono();

	if (sig == SIGCHLD)
		reap(s);
	else if (sig == SIGHUP)
		forward(s, SIGHUP);
	else if ((sig == SIGTERM || sig == SIGINT) && !s->stopping) {
		log_info("event=shutdown signal=%d workers=%d", sig, running(s));
		s->stopping = 1;
		s->stop_deadline = now + SUP_STOP_S;
		forward(s, SIGTERM);
	}
	if (s->stopping && now >= s->stop_deadline)
		forward(s, SIGKILL);
	for (int i = 0; i < s->n && !s->stopping; i++)
		if (s->w[i].pid == 0 && s->w[i].restart_at &&
		    now >= s->w[i].restart_at)
			spawn(s, i);
}

int
supervise(int n, supervisor_worker *worker, void *arg,
    void (*on_ready)(void *arg))
{
	struct sup s;

	memset(&s, 0, sizeof s);
	s.n = n > SUP_MAX ? SUP_MAX : n;
	s.run = worker, s.arg = arg;
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
	if (wait_ready(&s) == 0)
		on_ready(arg);
	else
		log_error("event=workers_not_ready msg=\"not every worker "
		    "serves yet\"");
	while (!s.stopping || running(&s) > 0)
		step(&s);
	close(s.ready[0]);
	close(s.ready[1]);
	log_info("event=stopped");
	return 0;
}
