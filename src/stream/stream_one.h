/*
 * stream_one.h: the streams of a process as streams.c holds them, and
 * what can be done to one of them: send it an event (a status,
 * `entered`, `gone`, a keepalive), close it. streams.c
 * (the schedule, the batches, the events channel, the public side) is
 * built on these.
 */
#ifndef WR_STREAM_ONE_H
#define WR_STREAM_ONE_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "sse.h"
#include "standing.h"
#include "stream_table.h"
#include "streams_setup.h"
#include "wheel.h"

#define STREAMS_STALLS 5	/* skipped pushes before "slow client" */

struct stream_queue {
	char name[CONF_QUEUE_ID_MAX + 1];
	char redirect[2049];
	long long waiting;
	size_t streams;		/* open streams of this queue */
	struct stream *first;	/* they, in a list (stream_link) */
	unsigned long notice_serial;	/* the notice its streams were sent */
	struct line_cache *line;	/* its line as read for them */
};

struct streams {
	struct streams_setup set;
	struct stream_table streams;	/* token -> open streams */
	size_t reserved;	/* reservations not yet started */
	struct wheel wheel;	/* the schedule */
	struct event *timer;
	struct stream_queue *queues;
	size_t nqueues;
	struct ipcount *ips;
	struct store *sub;
	size_t max_streams, max_per_ip;
	int timeout;		/* seconds, of every stream's connection */
};

/* The configuration in force (a reload replaces it). */
static inline const struct conf *
streams_conf(const struct streams *ss)
{
	return *ss->set.conf;
}

enum close_how { CLOSE_END, CLOSE_ABORT, CLOSE_GONE };

/*
 * The one teardown of a stream, whatever ends it, with a reason that is
 * logged and counted; the free waits while a rank batch holds it.
 */
void stream_close(struct streams *ss, struct stream *st, const char *reason,
    enum close_how how);
/* st, open, joins the list of its queue (st->queue); stream_close takes
 * it out. */
void stream_link(struct streams *ss, struct stream *st);
/* A client that stopped reading: logged, and the stream aborted. */
void stream_slow(struct streams *ss, struct stream *st);
/* Send event with the JSON text data (NULL: out of memory, nothing
 * sent); 0, or -1 if st was closed. stream_send frees data. */
int stream_send_text(struct streams *ss, struct stream *st,
    const char *event, const char *data);
int stream_send(struct streams *ss, struct stream *st, const char *event,
    char *data);
/* st's token was admitted, its session ending at expiry_ms: `entered`,
 * and the stream ends. */
void stream_entered(struct streams *ss, struct stream *st,
    long long expiry_ms);
/* st's token is gone for reason: `gone`, and the stream ends. */
void stream_gone(struct streams *ss, struct stream *st, const char *reason);
/* A `status` of a waiting token at rank (kind 'w'), or of one awaiting
 * the draw among rank entrants ('p'); force: even with output unsent. */
void stream_status(struct streams *ss, struct stream *st,
    const struct standing *s, char kind, long long rank, int force);
/* A keepalive comment, if keepalive_interval passed in silence. */
void stream_keepalive(struct streams *ss, struct stream *st, uint32_t now);

#endif
