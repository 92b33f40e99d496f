/*
 * tmpl.h: HTML templates with {{name}} placeholders. Pure: parsing checks
 * every placeholder against the caller's names once, at startup, so a bad
 * template is an error that names its line; rendering HTML-escapes every
 * value, so server data can never become markup.
 */
#ifndef WR_TMPL_H
#define WR_TMPL_H

#include <stddef.h>

struct tmpl;

/* The index of a placeholder name of len bytes, or -1 when unknown. */
typedef int tmpl_lookup(const char *name, size_t len);
/* The text of placeholder idx (NULL: empty), for one rendering. */
typedef const char *tmpl_value(int idx, void *arg);

/*
 * Parse text. On error returns NULL and writes into err "line N: ..."
 * naming the problem; accepted lists the names for that message.
 */
struct tmpl *tmpl_parse(const char *text, tmpl_lookup *lookup,
    const char *accepted, char *err, size_t errlen);
void tmpl_free(struct tmpl *t);

/* Does the template use placeholder idx? */
int tmpl_uses(const struct tmpl *t, int idx);

/* The page, with every value escaped; malloc'd, *len bytes; NULL: no memory. */
char *tmpl_render(const struct tmpl *t, tmpl_value *value, void *arg,
    size_t *len);

/* s escaped for HTML text and quoted attributes; malloc'd. */
char *tmpl_escape(const char *s);

#endif
