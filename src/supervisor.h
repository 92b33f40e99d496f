/*
 * supervisor.h: workers = N. The main process forks N single-loop workers
 * (each an ordinary instance with its own Redis connections), restarts one
 * that dies (with backoff), passes SIGHUP and SIGTERM on, and exits 0 only
 * after its workers have. It uses no event loop itself: it waits for
 * signals with sigtimedwait, so a forked worker inherits no loop state.
 */
#ifndef WR_SUPERVISOR_H
#define WR_SUPERVISOR_H

/* Run worker number i; its return value is its exit status. ready_fd gets
 * one byte once the worker serves. */
typedef int supervisor_worker(int i, int ready_fd, void *arg);

/*
 * Start n workers and supervise them until SIGTERM/SIGINT. on_ready runs
 * once, when the first n workers all serve. Returns the exit status.
 */
int supervise(int n, supervisor_worker *worker, void *arg,
    void (*on_ready)(void *arg));

#endif
