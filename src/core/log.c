/* log.c: logfmt lines on stderr, which journald keeps as they are. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"

static int log_level = LOGL_INFO;
static char log_tag[24];
static const char *log_names[] = { "debug", "info", "warn", "error" };

void
log_set_level(int level)
{
	if (level >= LOGL_DEBUG && level <= LOGL_ERROR)
		log_level = level;
}

void
log_set_tag(int worker)
{
	if (worker < 0)
		log_tag[0] = '\0';
	else
		snprintf(log_tag, sizeof log_tag, " worker=%d", worker);
}

int
log_get_level(void)
{
	return log_level;
}

int
log_level_parse(const char *name)
{
	for (int i = LOGL_DEBUG; i <= LOGL_ERROR; i++)
		if (strcmp(name, log_names[i]) == 0)
			return i;
	return -1;
}

const char *
log_level_name(int level)
{
	if (level < LOGL_DEBUG || level > LOGL_ERROR)
		return "unknown";
	return log_names[level];
}

void
log_write(int level, const char *fmt, ...)
{
	char line[1024], ts[32];
	struct tm tm;
	time_t now;
	va_list ap;

	if (level < log_level)
		return;
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* One write per line, so lines of several workers never interleave. */
	fprintf(stderr, "t=%s level=%s%s %s\n", ts, log_level_name(level),
	    log_tag, line);
}

const char *
log_tok(const char *token, char buf[9])
{
	size_t n = token ? strnlen(token, 8) : 0;

	memcpy(buf, token ? token : "", n);
	buf[n] = '\0';
	return buf;
}
