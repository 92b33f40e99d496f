/* connq.c: connections by state, oldest first; see connq.h. Pure. */
#include <string.h>

#include "connq.h"

void
connq_init(struct connq *q)
{
	for (int s = 0; s < CONNQ_BUSY; s++)
		TAILQ_INIT(&q->lists[s]);
	q->count = 0;
}

void
connq_add(struct connq *q, struct connq_entry *e, long long now)
{
	e->state = CONNQ_BUSY;
	q->count++;
	connq_set(q, e, CONNQ_HEAD, now);
}

static void
connq_unlink(struct connq *q, struct connq_entry *e)
{
	if (e->state != CONNQ_BUSY)
		TAILQ_REMOVE(&q->lists[e->state], e, link);
}

void
connq_set(struct connq *q, struct connq_entry *e, int state, long long now)
{
	connq_unlink(q, e);
	e->state = state;
	e->since = now;
	e->eol = 0;
	if (state != CONNQ_BUSY)
		TAILQ_INSERT_TAIL(&q->lists[state], e, link);
}

void
connq_remove(struct connq *q, struct connq_entry *e)
{
	connq_unlink(q, e);
	q->count--;
}

struct connq_entry *
connq_expired(const struct connq *q, int state, long long timeout_ms,
    long long now)
{
	return connq_due_in(q, state, timeout_ms, now) == 0 ?
	    TAILQ_FIRST(&q->lists[state]) : NULL;
}

long long
connq_due_in(const struct connq *q, int state, long long timeout_ms,
    long long now)
{
	const struct connq_entry *e = TAILQ_FIRST(&q->lists[state]);
	long long left;

	if (e == NULL)
		return -1;
	left = e->since + timeout_ms - now;
	return left > 0 ? left : 0;
}

struct connq_entry *
connq_victim(const struct connq *q)
{
	struct connq_entry *idle = TAILQ_FIRST(&q->lists[CONNQ_IDLE]);
	struct connq_entry *head = TAILQ_FIRST(&q->lists[CONNQ_HEAD]);

	if (idle == NULL || (head != NULL && head->since < idle->since))
		return head;
	return idle;
}

/*
 * eol: 0 inside a line, 1 just after "\n", 2 just after "\n\r". Inside a
 * line only its end matters, found by memchr rather than byte by byte.
 */
int
connq_scan(struct connq_entry *e, const char *p, size_t len)
{
	const char *end = p + len, *nl;

	while (p < end) {
		if (e->eol == 0) {
			if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
				return 0;
			e->eol = 1;
			p = nl + 1;
			continue;
		}
		if (*p == '\n')
			return 1;
		e->eol = *p == '\r' && e->eol == 1 ? 2 : 0;
		p++;
	}
	return 0;
}

int
connq_status(const char *line, size_t len)
{
	int status = 0;

	if (len < 13 || memcmp(line, "HTTP/1.", 7) != 0 ||
	    (line[7] != '0' && line[7] != '1') || line[8] != ' ' ||
	    line[12] != ' ')
		return -1;
	for (int i = 9; i < 12; i++) {
		if (line[i] < '0' || line[i] > '9')
			return -1;
		status = status * 10 + (line[i] - '0');
	}
	return status;
}

long
connq_high_water(long limit, long reserve_pct)
{
	long keep = limit / 100 * reserve_pct + limit % 100 * reserve_pct / 100;

	if (reserve_pct <= 0)
		return limit;
	return limit - (keep > 0 ? keep : 1);
}
