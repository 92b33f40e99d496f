/*
 * tmpl.c: a template is a list of pieces, each literal text or one
 * placeholder. "{{" always opens a placeholder (there is no escape: a
 * template that needs a literal "{{" is a template with a bug), and names
 * are lower-case letters, digits and '_', with optional spaces inside the
 * braces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpl.h"

#define TMPL_NAME_MAX 32

struct piece {
	const char *text;	/* literal: into struct tmpl's copy */
	size_t len;
	int idx;		/* placeholder index; -1: literal */
};

struct tmpl {
	char *text;
	struct piece *pieces;
	size_t n;
};

struct strbuf {
	char *p;
	size_t len, cap;
	int failed;
};

static void
sb_add(struct strbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL) {
			b->failed = 1;
			return;
		}
		b->p = p, b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
sb_escaped(struct strbuf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		size_t run = strcspn(s, "&<>\"'");

		sb_add(b, s, run);
		s += run;
		switch (*s) {
		case '&': sb_add(b, "&amp;", 5); break;
		case '<': sb_add(b, "&lt;", 4); break;
		case '>': sb_add(b, "&gt;", 4); break;
		case '"': sb_add(b, "&quot;", 6); break;
		case '\'': sb_add(b, "&#39;", 5); break;
		default: return;	/* the end of s */
		}
	}
}

char *
tmpl_escape(const char *s)
{
	struct strbuf b = { NULL, 0, 0, 0 };

	sb_add(&b, "", 0);
	sb_escaped(&b, s);
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

static int
piece_add(struct tmpl *t, const char *text, size_t len, int idx)
{
	struct piece *p;

	if (idx < 0 && len == 0)
		return 0;
	if ((p = realloc(t->pieces, (t->n + 1) * sizeof *p)) == NULL)
		return -1;
	t->pieces = p;
	p[t->n++] = (struct piece){ text, len, idx };
	return 0;
}

static int
line_of(const char *text, const char *at)
{
	int line = 1;

	for (; text < at; text++)
		line += *text == '\n';
	return line;
}

/* The placeholder at s ("{{ name }}"); its index, or -1 with err set. */
static int
placeholder(const char *text, const char *s, const char **end,
    tmpl_lookup *lookup, const char *accepted, char *err, size_t errlen)
{
	const char *name = s + 2, *close = strstr(name, "}}");
	size_t len;
	int idx;

	if (close == NULL || memchr(name, '\n', (size_t)(close - name))) {
		snprintf(err, errlen, "line %d: '{{' without a closing '}}' on "
		    "the same line", line_of(text, s));
		return -1;
	}
	*end = close + 2;
	name += strspn(name, " ");
	for (len = (size_t)(close - name); len > 0 && name[len - 1] == ' ';)
		len--;
	if (len == 0 || len > TMPL_NAME_MAX || strspn(name,
	    "abcdefghijklmnopqrstuvwxyz0123456789_") != len ||
	    (idx = lookup(name, len)) < 0) {
		snprintf(err, errlen, "line %d: unknown placeholder "
		    "'{{%.*s}}' (accepted: %s)", line_of(text, s),
		    (int)(close - (s + 2) < 40 ? close - (s + 2) : 40), s + 2,
		    accepted);
		return -1;
	}
	return idx;
}

struct tmpl *
tmpl_parse(const char *text, tmpl_lookup *lookup, const char *accepted,
    char *err, size_t errlen)
{
	struct tmpl *t = calloc(1, sizeof *t);
	const char *s, *open, *end;
	int idx;

	if (t == NULL || (t->text = strdup(text)) == NULL)
		goto nomem;
	for (s = t->text; (open = strstr(s, "{{")) != NULL; s = end) {
		if ((idx = placeholder(t->text, open, &end, lookup, accepted,
		    err, errlen)) < 0)
			goto fail;
		if (piece_add(t, s, (size_t)(open - s), -1) == -1 ||
		    piece_add(t, NULL, 0, idx) == -1)
			goto nomem;
	}
	if (piece_add(t, s, strlen(s), -1) == -1)
		goto nomem;
	return t;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	tmpl_free(t);
	return NULL;
}

void
tmpl_free(struct tmpl *t)
{
	if (t == NULL)
		return;
	free(t->pieces);
	free(t->text);
	free(t);
}

int
tmpl_uses(const struct tmpl *t, int idx)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->pieces[i].idx == idx)
			return 1;
	return 0;
}

char *
tmpl_render(const struct tmpl *t, tmpl_value *value, void *arg, size_t *len)
{
	struct strbuf b = { NULL, 0, 0, 0 };
	const char *v;

	sb_add(&b, "", 0);
	for (size_t i = 0; i < t->n; i++) {
		const struct piece *p = &t->pieces[i];

		if (p->idx < 0)
			sb_add(&b, p->text, p->len);
		else if ((v = value(p->idx, arg)) != NULL)
			sb_escaped(&b, v);
	}
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}
