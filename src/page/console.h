/*
 * console.h: the operator's console (GET /admin): one page, the same for
 * every operator but for its language, and its script and style. The
 * template is checked once, at startup; the page holds no figure and no
 * secret (the script fetches both with the admin token), so rendering
 * fills in only its words. No libevent and no Redis here.
 */
#ifndef WR_CONSOLE_H
#define WR_CONSOLE_H

#include <stddef.h>

#include "lang.h"
#include "page_files.h"

struct console;

struct console *console_new(char *err, size_t errlen);
void console_free(struct console *c);

/* The page in language l; malloc'd, *len bytes; NULL: out of memory. */
char *console_render(const struct console *c, enum lang l, size_t *len);

/* A file the console loads (its script or style) by name, else NULL. */
const struct page_file *console_file(const char *name);

#endif
