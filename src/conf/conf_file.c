/*
 * conf_file.c: reading waitroom.conf, line by line, into the section last
 * opened; every key = value goes through conf.c's table (conf_global_set,
 * conf_queue_set), so the file, the flags and the admin API share rules
 * and messages.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "conf_check.h"
#include "msg.h"
#include "validate.h"

#define CONF_FILE_MAX (1024 * 1024)

struct parser {
	struct conf *c;
	const char *fname;
	int line;
	long cur;		/* index of the current queue; -1: global */
	char *err;
	size_t errlen;
};

static int parse_fail(struct parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
parse_fail(struct parser *p, const char *fmt, ...)
{
	char msg[CONF_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	msg_set(p->err, p->errlen, "%s:%d: %s", p->fname, p->line, msg);
	return -1;
}

static char *
trim(char *s)
{
	size_t n;

	s += strspn(s, " \t\r");
	n = strlen(s);
	while (n > 0 && strchr(" \t\r", s[n - 1]) != NULL)
		s[--n] = '\0';
	return s;
}

/* A # starts a comment at the start of a line or after whitespace. */
static void
strip_comment(char *s)
{
	for (char *h = s; (h = strchr(h, '#')) != NULL; h++) {
		if (h == s || h[-1] == ' ' || h[-1] == '\t') {
			*h = '\0';
			return;
		}
	}
}

static int
queue_add(struct parser *p, const char *name)
{
	struct conf *c = p->c;
	struct queue_conf *qs;

	if ((qs = realloc(c->queues, (c->nqueues + 1) * sizeof *qs)) == NULL)
		return parse_fail(p, "out of memory");
	c->queues = qs;
	conf_queue_init(&qs[c->nqueues], name);
	p->cur = (long)c->nqueues++;
	return 0;
}

/* [queue NAME] */
static int
parse_section(struct parser *p, char *s)
{
	char sbuf[MSG_SHOWN_SIZE], *body, *name;
	size_t n = strlen(s);

	msg_shown(sbuf, s);
	if (s[n - 1] != ']')
		goto bad;
	s[n - 1] = '\0';
	body = trim(s + 1);
	if (strncmp(body, "queue", 5) != 0 || body[5] == '\0' ||
	    strchr(" \t", body[5]) == NULL)
		goto bad;
	name = trim(body + 5);
	if (!valid_queue_id(name))
		return parse_fail(p, "bad queue name '%s' (accepted: 1 to %d "
		    "of A-Z a-z 0-9 _ -)", msg_shown(sbuf, name),
		    CONF_QUEUE_ID_MAX);
	if (conf_queue_find(p->c, name) != NULL)
		return parse_fail(p, "duplicate section [queue %s]", name);
	return queue_add(p, name);
bad:
	return parse_fail(p, "bad section header '%s' (accepted: [queue NAME])",
	    sbuf);
}

/* The section's schedule so far in order (the line that breaks it is
 * the one named); -1 and why in msg. */
static int
schedule_check(const struct queue_conf *q, char *msg, size_t size)
{
	return conf_check_schedule(q->opens_at, q->prequeue_from, q->closes_at,
	    msg, size) == NULL ? 0 : -1;
}

/* key = value */
static int
parse_pair(struct parser *p, char *s)
{
	char *eq = strchr(s, '='), msg[CONF_ERR_MAX], sbuf[MSG_SHOWN_SIZE];
	const char *key, *value;
	int rc;

	if (eq == NULL || eq == s)
		return parse_fail(p, "malformed line '%s' (accepted: key = "
		    "value, [queue NAME], or a # comment)", msg_shown(sbuf, s));
	*eq = '\0';
	key = trim(s);
	value = trim(eq + 1);
	if (p->cur < 0)
		rc = conf_global_set(p->c, key, value, msg, sizeof msg);
	else
		rc = conf_queue_set(&p->c->queues[p->cur], key, value, msg,
		    sizeof msg);
	if (rc == 0 && p->cur >= 0)
		rc = schedule_check(&p->c->queues[p->cur], msg, sizeof msg);
	return rc == 0 ? 0 : parse_fail(p, "%s", msg);
}

static int
parse_line(struct parser *p, char *line)
{
	strip_comment(line);
	line = trim(line);
	if (*line == '\0')
		return 0;
	if (*line == '[')
		return parse_section(p, line);
	return parse_pair(p, line);
}

int
conf_load_string(struct conf *c, const char *text, const char *fname,
    char *err, size_t errlen)
{
	struct parser p = { c, fname, 0, -1, err, errlen };
	char *buf, *line, *next;
	int rc = 0;

	if ((buf = strdup(text)) == NULL) {
		msg_set(err, errlen, "%s: out of memory", fname);
		return -1;
	}
	for (line = buf; line != NULL && rc == 0; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		p.line++;
		rc = parse_line(&p, line);
	}
	free(buf);
	return rc;
}

int
conf_load_file(struct conf *c, const char *path, char *err, size_t errlen)
{
	const char *why = NULL;
	char *text;
	FILE *f;
	size_t n = 0;
	int rc = -1;

	if ((text = malloc(CONF_FILE_MAX + 1)) == NULL ||
	    (f = fopen(path, "r")) == NULL)
		goto fail;
	n = fread(text, 1, CONF_FILE_MAX + 1, f);
	if (ferror(f))
		why = strerror(errno);
	else if (n > CONF_FILE_MAX)
		why = "larger than 1 MiB";
	else if (memchr(text, '\0', n) != NULL)
		why = "holds a NUL byte";
	fclose(f);
	if (why != NULL) {
		msg_set(err, errlen, "%s: cannot read: %s", path, why);
		goto done;
	}
	text[n] = '\0';
	rc = conf_load_string(c, text, path, err, errlen);
	goto done;
fail:
	msg_set(err, errlen, "%s: cannot read: %s", path, strerror(errno));
done:
	free(text);
	return rc;
}
