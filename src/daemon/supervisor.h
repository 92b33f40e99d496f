/*
 * supervisor.h: workers = N. The main process forks N single-loop workers
 * (each an ordinary instance with its own Redis connections), restarts one
 * that dies (with backoff), passes SIGHUP and SIGTERM on, and exits 0 only
 * after its workers have. It uses no event loop itself: it waits for
 * signals with sigtimedwait, so a forked worker inherits no loop state.
 */
#ifndef WR_SUPERVISOR_H
#define WR_SUPERVISOR_H

/* Run worker number i; its return value is its exit status. It starts
 * with SIGINT, SIGTERM, SIGHUP and SIGCHLD blocked, and writes i as one
 * byte to ready_fd once it handles them and serves. */
typedef int supervisor_worker(int i, int ready_fd, void *arg);

/*
 * Start n workers and supervise them until SIGTERM/SIGINT. on_ready runs
 * once, when all n workers serve; on_hup at each SIGHUP, before it goes
 * on to the workers (so a worker started later forks with what on_hup
 * made of arg); on_status every SUPERVISOR_STATUS_S while they serve.
 * Returns the exit status: 1 when a worker had to be killed.
 */
#define SUPERVISOR_STATUS_S 5

int supervise(int n, supervisor_worker *worker, void *arg,
    void (*on_ready)(void *arg), void (*on_hup)(void *arg),
    void (*on_status)(void *arg));

#endif
