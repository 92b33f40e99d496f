/*
 * log.h: one event per line on stderr, logfmt (key=value), with a level:
 *   t=2026-11-23T10:00:00Z level=info event=listen addr=127.0.0.1:8080
 * Callers write the key=value body; never a whole token (use log_tok).
 */
#ifndef WR_LOG_H
#define WR_LOG_H

enum log_level { LOGL_DEBUG, LOGL_INFO, LOGL_WARN, LOGL_ERROR };

void log_set_level(int level);
/* Lines of worker i carry worker=i; -1 for none. */
void log_set_tag(int worker);
int log_get_level(void);
/* "debug", "info", "warn", "error" -> level; -1 when unknown. */
int log_level_parse(const char *name);
const char *log_level_name(int level);

void log_write(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The first 8 characters of a token, enough to follow it in logs. */
const char *log_tok(const char *token, char buf[9]);

/* Debug lines are per request: their arguments are not even computed
 * unless the level asks for them. */
#define log_debug(...) do { \
	if (log_get_level() <= LOGL_DEBUG) \
		log_write(LOGL_DEBUG, __VA_ARGS__); \
} while (0)
#define log_info(...) log_write(LOGL_INFO, __VA_ARGS__)
#define log_warn(...) log_write(LOGL_WARN, __VA_ARGS__)
#define log_error(...) log_write(LOGL_ERROR, __VA_ARGS__)

#endif
