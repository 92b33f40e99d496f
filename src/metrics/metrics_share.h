/*
 * metrics_share.h: with workers = N, one scrape of /metrics must tell the
 * figures of the whole daemon, whichever worker the kernel hands it to.
 *
 * The supervisor maps one slot per worker, shared, before it forks. A
 * worker counts into its own slot (struct metrics, written by it alone)
 * and publishes there, every second and before it answers a scrape, its
 * live figures: streams and connections open, streams per queue, and
 * Redis reconnects. The worker that answers a scrape adds up every slot.
 * A worker restarted in slot i counts on from where the dead one stopped,
 * so totals never go back.
 * Without workers nothing is mapped: the process's own figures are the
 * total.
 */
#ifndef WR_METRICS_SHARE_H
#define WR_METRICS_SHARE_H

#include "metrics.h"

#define MSHARE_QUEUES 256	/* queues with streams told per slot */

struct mshare_queue {
	char name[65];			/* CONF_QUEUE_ID_MAX + 1 */
	unsigned long streams;
};

struct mshare_live {
	unsigned long streams, streams_max;
	unsigned long connections;
	unsigned long reconnects_commands, reconnects_subscriber;
	int store_full;			/* any worker's Redis is full */
	int store_replicas_short;	/* any worker's WAIT falls short */
	size_t nqueues;
	struct mshare_queue queues[MSHARE_QUEUES];
};

/* The supervisor, before forking: n slots; -1 when mmap fails. */
int mshare_map(int n);
void mshare_unmap(void);
/* A worker: count into slot i from now on. */
void mshare_use(int i);
/* Publish this process's live figures in its slot. */
void mshare_publish(const struct mshare_live *l);
/* The sum over every slot (or this process's own figures); m may be
 * NULL when only the live figures are wanted. */
void mshare_total(struct metrics *m, struct mshare_live *l);
/* The streams of queue in l, 0 when it has none. */
unsigned long mshare_queue_streams(const struct mshare_live *l,
    const char *queue);

#endif
