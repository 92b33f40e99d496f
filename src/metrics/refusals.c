/* refusals.c: joins refused at a guard, per queue; see refusals.h. */
#include <stdio.h>
#include <string.h>

#include "refusals.h"

static struct refusals_queue table[REFUSALS_QUEUES];
static size_t nqueues;
static struct refusals_queue total;

static const char *const names[REFUSED_NREASONS] = { "work", "invitation",
    "rate", "origin" };

int
refusals_reason_of(const char *code)
{
	if (code == NULL)
		return -1;
	if (strncmp(code, "challenge_", 10) == 0)
		return REFUSED_WORK;
	if (strncmp(code, "invite_", 7) == 0)
		return REFUSED_INVITATION;
	if (strcmp(code, "rate_limited") == 0)
		return REFUSED_RATE;
	if (strcmp(code, "forbidden_origin") == 0)
		return REFUSED_ORIGIN;
	return -1;
}

const char *
refusals_reason_name(enum refusal_reason r)
{
	return r < REFUSED_NREASONS ? names[r] : "";
}

/* queue's entry, made when there is room; NULL past the table. */
static struct refusals_queue *
entry(const char *queue)
{
	for (size_t i = 0; i < nqueues; i++)
		if (strcmp(table[i].name, queue) == 0)
			return &table[i];
	if (nqueues == REFUSALS_QUEUES || strlen(queue) >= sizeof table[0].name)
		return NULL;
	snprintf(table[nqueues].name, sizeof table[0].name, "%s", queue);
	table[nqueues].eta_told = -1;
	return &table[nqueues++];
}

void
refusals_count(const char *queue, const char *code)
{
	int r = refusals_reason_of(code);
	struct refusals_queue *q;

	if (r < 0)
		return;
	total.refused[r]++;
	if (queue != NULL && (q = entry(queue)) != NULL)
		q->refused[r]++;
}

void
refusals_invite_used(const char *queue)
{
	struct refusals_queue *q = entry(queue);

	total.invites_used++;
	if (q != NULL)
		q->invites_used++;
}

void
refusals_eta_told(const char *queue, long long eta, long long position,
    long long at_ms)
{
	struct refusals_queue *q = entry(queue);

	if (q != NULL && eta >= 0 && position >= 1)
		q->eta_told = eta, q->eta_position = position,
		q->eta_told_ms = at_ms;
}

const struct refusals_queue *
refusals_queues(size_t *n)
{
	*n = nqueues;
	return table;
}

const struct refusals_queue *
refusals_total(void)
{
	return &total;
}
