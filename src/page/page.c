/*
 * page.c: the placeholders of a waiting page template and their values.
 * Placeholders are the view's fields ({{position}}...), the texts of
 * lang.c as {{t_KEY}}, and {{text}}: every text of the language as JSON,
 * which the script reads from a data- attribute, so the page and the
 * script never disagree on a word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "conf.h"
#include "console.h"
#include "page.h"
#include "tmpl.h"

#define PAGE_TEMPLATE_MAX (256 * 1024)
#define PAGE_BUILTIN "waiting.html"

enum {
	PV_LANG, PV_QUEUE, PV_STATE, PV_TOKEN, PV_POSITION, PV_AHEAD,
	PV_WAITING, PV_ETA, PV_PROGRESS, PV_REFRESH, PV_REDIRECT, PV_MESSAGE,
	PV_TEXT, PV_OPENS_AT, PV_OPENS, PV_COUNTDOWN, PV_ENTRANTS, PV_NOTICE,
	PV_COUNT	/* then t_KEY: PV_COUNT + lang index */
};

static const char *const pv_names[PV_COUNT] = {
	"lang", "queue", "state", "token", "position", "ahead", "waiting",
	"eta", "progress", "refresh", "redirect", "message", "text",
	"opens_at", "opens", "countdown", "entrants", "notice"
};

struct named_tmpl {
	char *path;		/* NULL: the built-in one */
	struct tmpl *t;
};

struct pages {
	struct named_tmpl *all;	/* [0]: built-in; [1]: global, if any */
	size_t n;
	struct tmpl *global;
	struct {
		char name[CONF_QUEUE_ID_MAX + 1];
		struct tmpl *t;
	} *queues;
	size_t nqueues;
	struct console *console;
};

static int
pv_lookup(const char *name, size_t len)
{
	int i;

	for (i = 0; i < PV_COUNT; i++)
		if (strlen(pv_names[i]) == len &&
		    memcmp(pv_names[i], name, len) == 0)
			return i;
	if (len > 2 && memcmp(name, "t_", 2) == 0 &&
	    (i = lang_find(name + 2, len - 2)) >= 0)
		return PV_COUNT + i;
	return -1;
}

const char *
page_placeholders(void)
{
	static char buf[2048];
	size_t n = 0;

	if (buf[0] != '\0')
		return buf;
	for (int i = 0; i < PV_COUNT; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
		    i ? ", " : "", pv_names[i]);
	for (size_t i = 0; i < lang_count() && n < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, ", t_%s",
		    lang_key(i));
	return buf;
}

const struct page_file *
page_file(const char *name)
{
	for (size_t i = 0; i < PAGE_NFILES; i++)
		if (strcmp(page_files[i].name, name) == 0)
			return &page_files[i];
	return NULL;
}

/* Read and parse one template file; err names the file. */
static struct tmpl *
tmpl_load(const char *path, char *err, size_t errlen)
{
	char *text = malloc(PAGE_TEMPLATE_MAX + 1), msg[CONF_ERR_MAX];
	struct tmpl *t = NULL;
	size_t n;
	FILE *f;

	if (text == NULL || (f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "page_template %s: cannot read: %m", path);
		goto done;
	}
	n = fread(text, 1, PAGE_TEMPLATE_MAX + 1, f);
	fclose(f);
	if (n > PAGE_TEMPLATE_MAX || memchr(text, '\0', n) != NULL) {
		snprintf(err, errlen, "page_template %s: %s", path,
		    n > PAGE_TEMPLATE_MAX ? "larger than 256 KiB" :
		    "holds a NUL byte");
		goto done;
	}
	text[n] = '\0';
	if ((t = tmpl_parse(text, pv_lookup, page_placeholders(), msg,
	    sizeof msg)) == NULL)
		snprintf(err, errlen, "page_template %s: %s", path, msg);
done:
	free(text);
	return t;
}

/* The template of path, loaded once however many queues name it. */
static struct tmpl *
pages_get(struct pages *p, const char *path, char *err, size_t errlen)
{
	struct named_tmpl *all;
	struct tmpl *t;

	for (size_t i = 1; i < p->n; i++)
		if (strcmp(p->all[i].path, path) == 0)
			return p->all[i].t;
	if ((t = tmpl_load(path, err, errlen)) == NULL)
		return NULL;
	if ((all = realloc(p->all, (p->n + 1) * sizeof *all)) == NULL ||
	    (all[p->n].path = strdup(path)) == NULL) {
		if (all)
			p->all = all;
		tmpl_free(t);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->all = all;
	all[p->n++].t = t;
	return t;
}

static int
pages_builtin(struct pages *p, char *err, size_t errlen)
{
	const struct page_file *f = page_file(PAGE_BUILTIN);
	char msg[CONF_ERR_MAX];

	if ((p->all = calloc(1, sizeof *p->all)) == NULL)
		return -1;
	p->n = 1;
	p->all[0].t = tmpl_parse(f->body, pv_lookup, page_placeholders(), msg,
	    sizeof msg);
	if (p->all[0].t == NULL) {
		snprintf(err, errlen, "built-in page: %s", msg);
		return -1;
	}
	return 0;
}

struct pages *
pages_new(const struct conf *c, char *err, size_t errlen)
{
	struct pages *p = calloc(1, sizeof *p);

	snprintf(err, errlen, "out of memory");
	if (p == NULL || pages_builtin(p, err, errlen) == -1 ||
	    (p->console = console_new(err, errlen)) == NULL)
		goto fail;
	p->global = p->all[0].t;
	if (c->page_template && (p->global = pages_get(p, c->page_template,
	    err, errlen)) == NULL)
		goto fail;
	if (c->nqueues && (p->queues = calloc(c->nqueues,
	    sizeof *p->queues)) == NULL)
		goto fail;
	for (size_t i = 0; i < c->nqueues; i++) {
		const struct queue_conf *q = &c->queues[i];

		if (q->page_template == NULL)
			continue;
		snprintf(p->queues[p->nqueues].name, sizeof p->queues->name,
		    "%s", q->name);
		if ((p->queues[p->nqueues++].t = pages_get(p, q->page_template,
		    err, errlen)) == NULL)
			goto fail;
	}
	return p;
fail:
	pages_free(p);
	return NULL;
}

void
pages_free(struct pages *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->all[i].path);
		tmpl_free(p->all[i].t);
	}
	free(p->all);
	free(p->queues);
	console_free(p->console);
	free(p);
}

const struct console *
pages_console(const struct pages *p)
{
	return p->console;
}

static const struct tmpl *
pages_for(const struct pages *p, const char *queue)
{
	for (size_t i = 0; i < p->nqueues; i++)
		if (strcmp(p->queues[i].name, queue) == 0)
			return p->queues[i].t;
	return p->global;
}

char *
page_redirect_url(const char *redirect, const char *token)
{
	const char *hash = strchr(redirect, '#');
	size_t base = hash ? (size_t)(hash - redirect) : strlen(redirect);
	char *s;

	if (asprintf(&s, "%.*s%cwaitroom_token=%s%s", (int)base, redirect,
	    memchr(redirect, '?', base) ? '&' : '?', token,
	    hash ? hash : "") == -1)
		return NULL;
	return s;
}

/* One rendering: the view and the numbers and texts made from it. */
struct render {
	const struct page_view *v;
	char position[24], ahead[24], waiting[24], progress[8], refresh[2200];
	char eta[128];
	char opens_at[24], opens[40], countdown[32], entrants[24];
	char *text;
};

/* n, or a dash when it is not known. */
static void
num(char *buf, size_t size, long long n)
{
	if (n < 0)
		snprintf(buf, size, "%s", "–");
	else
		snprintf(buf, size, "%lld", n);
}

/* The state's sentence: gone, closed, ... ("" for the waiting states). */
static const char *
state_message(const struct page_view *v)
{
	const char *s = v->state;

	if (strcmp(s, "active") == 0)
		return lang_get(v->lang, "entered");
	if (strcmp(s, "gone") == 0 || strcmp(s, "closed") == 0 ||
	    strcmp(s, "notfound") == 0 || strcmp(s, "unavailable") == 0 ||
	    strcmp(s, "full") == 0 || strcmp(s, "needs_js") == 0 ||
	    strcmp(s, "not_open") == 0 ||
	    strcmp(s, "bad_token") == 0)
		return lang_get(v->lang, s);
	return "";
}

static const char *
render_value(int idx, void *arg)
{
	struct render *r = arg;
	const struct page_view *v = r->v;

	switch (idx) {
	case PV_LANG: return lang_code(v->lang);
	case PV_QUEUE: return v->queue;
	case PV_STATE: return v->state;
	case PV_TOKEN: return v->token;
	case PV_POSITION: return r->position;
	case PV_AHEAD: return r->ahead;
	case PV_WAITING: return r->waiting;
	case PV_ETA: return r->eta;
	case PV_PROGRESS: return r->progress;
	case PV_REFRESH: return r->refresh;
	case PV_REDIRECT: return v->redirect ? v->redirect : "";
	case PV_MESSAGE: return state_message(v);
	case PV_TEXT: return r->text ? r->text : "{}";
	case PV_OPENS_AT: return r->opens_at;
	case PV_OPENS: return r->opens;
	case PV_COUNTDOWN: return r->countdown;
	case PV_ENTRANTS: return r->entrants;
	case PV_NOTICE: return v->notice ? v->notice : "";
	default: return lang_text(v->lang, (size_t)(idx - PV_COUNT));
	}
}

/* Every text of the language as one JSON object. */
static char *
texts_json(enum lang l)
{
	json_t *o = json_object();
	char *s;

	for (size_t i = 0; o && i < lang_count(); i++)
		json_object_set_new(o, lang_key(i),
		    json_string(lang_text(l, i)));
	s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return s;
}

/* The opening in UTC (the script shows it in local time) and the time
 * to it as H:MM:SS, as the page first shows them. */
static void
render_opening(struct render *r, const struct page_view *v)
{
	time_t t = (time_t)v->opens_at;
	long long c = v->countdown;
	struct tm tm;

	r->opens_at[0] = r->opens[0] = '\0';
	strcpy(r->countdown, "–");
	if (v->opens_at <= 0 || gmtime_r(&t, &tm) == NULL)
		return;
	snprintf(r->opens_at, sizeof r->opens_at, "%lld", v->opens_at);
	strftime(r->opens, sizeof r->opens, "%Y-%m-%d %H:%M UTC", &tm);
	if (c >= 0)
		snprintf(r->countdown, sizeof r->countdown,
		    "%lld:%02lld:%02lld", c / 3600, c / 60 % 60, c % 60);
}

static void
render_fill(struct render *r, const struct page_view *v)
{
	long long pos = v->position;

	render_opening(r, v);
	num(r->entrants, sizeof r->entrants, v->entrants);
	num(r->position, sizeof r->position, pos);
	num(r->ahead, sizeof r->ahead, pos > 0 ? pos - 1 : -1);
	num(r->waiting, sizeof r->waiting, v->waiting);
	if (pos > 0)
		lang_eta(v->lang, v->eta, r->eta, sizeof r->eta);
	else
		strcpy(r->eta, "–");
	/* Without the place at arrival, only the front is known for sure. */
	snprintf(r->progress, sizeof r->progress, "%d", pos == 1 ? 100 : 0);
	r->refresh[0] = '\0';
	if (v->redirect && strcmp(v->state, "active") == 0)
		snprintf(r->refresh, sizeof r->refresh, "0; url=%s",
		    v->redirect);
	else if (v->refresh > 0)
		snprintf(r->refresh, sizeof r->refresh, "%d", v->refresh);
}

char *
pages_render(const struct pages *p, const char *queue,
    const struct page_view *v, size_t *len)
{
	struct render r = { .v = v };
	char *out;

	render_fill(&r, v);
	r.text = texts_json(v->lang);
	out = tmpl_render(pages_for(p, queue), render_value, &r, len);
	free(r.text);
	return out;
}
