/*
 * script_lua.c: each script's Lua side; see script_lua.h. The prelude
 * holds what must run: mode_cap, the events' formatters (event_<word>,
 * in a script that takes the events channel, the only ones that
 * publish), and the runs of KEYS and ARGV as lists (K_users, A_tokens;
 * an empty one the shared NONE, never written to). The one values
 * (K_waiting, A_token) and the defaults (DEFAULT_active_ttl) are
 * written in place in lib.lua and the script: KEYS[3], ARGV[1], '300'.
 *
 * In place, not locals or tables: the prelude runs with every call of a
 * script, and sixteen defaults and a script's keys as locals (lib.lua's
 * functions then capture them) cost a lone join a ninth more of Redis's
 * time, as tables a fifth (bench/scripts' join1).
 */
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "events.h"
#include "script_lua.h"

/* A Lua string literal of s. */
static void
lua_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static void
mode_cap(const char *mode, const char *key, const char *value, void *arg)
{
	FILE *f = arg;

	fputs("  if mode == ", f);
	lua_quote(f, mode);
	fputs(" then return ", f);
	lua_quote(f, key);
	fputs(", ", f);
	lua_quote(f, value);
	fputs(" end\n", f);
}

/* The cap a mode takes for a cap of 0: its field and value. */
static void
mode_caps(FILE *f)
{
	fputs("-- The cap a mode takes for a cap of 0 (conf.c): the field and "
	    "its value.\nlocal function mode_cap(mode)\n", f);
	conf_mode_caps(mode_cap, f);
	fputs("end\n", f);
}

static void
events(FILE *f)
{
	fputs("-- The events channel's messages (events.def).\n", f);
	for (int k = 0; k < EVENT_KINDS; k++) {
		const char *w = event_word(k), *a = event_arg_name(k);
		int t = event_has_tokens(k);

		if (!event_by_lua(k))
			continue;
		fprintf(f, "local function event_%s(%s%s%s)\n  return '%s%s'",
		    w, a, *a && t ? ", " : "", t ? "tokens" : "", w,
		    *a || t ? " " : "");
		if (*a)
			fprintf(f, " .. %s%s", a, t ? " .. ' '" : "");
		if (t)
			fputs(" .. table.concat(tokens, ' ')", f);
		fputs("\nend\n", f);
	}
}

/* Where slot j of s is in KEYS or ARGV, when it is a one value. */
static int
one_at(const struct script_info *s, int j)
{
	int at = 0;

	for (int i = 0; i <= j; i++)
		if (s->slot[i].key == s->slot[j].key)
			at++;
	return at;
}

/* Slot of kind key (1) or argument (0) named name (len bytes), a one
 * value; -1 when s has none. */
static int
one_named(const struct script_info *s, int key, const char *name, size_t len)
{
	for (int j = 0; j < s->nslots; j++)
		if (s->slot[j].key == key && !s->slot[j].run &&
		    strlen(s->slot[j].name) == len &&
		    strncmp(s->slot[j].name, name, len) == 0)
			return j;
	return -1;
}

/* The queue's keys the script does not take, as nil: lib.lua names them. */
static void
missing_keys(FILE *f, const struct script_info *s)
{
	for (int i = 0; i < SCRIPT_QUEUE_KEYS; i++)
		if (one_named(s, 1, script_queue_keys[i],
		    strlen(script_queue_keys[i])) == -1)
			fprintf(f, "local K_%s\n", script_queue_keys[i]);
}

/* A run of queue keys: one table of the ten per queue. */
static void
queue_run(FILE *f, const struct script_slot *p)
{
	fprintf(f, "  K_%s = {}\n  for at = k, #KEYS, %d do\n"
	    "    K_%s[#K_%s + 1] = {", p->name, SCRIPT_QUEUE_KEYS, p->name,
	    p->name);
	for (int i = 0; i < SCRIPT_QUEUE_KEYS; i++)
		fprintf(f, "%s %s = KEYS[at + %d]", i ? "," : "",
		    script_queue_keys[i], i);
	fputs(" }\n  end\n", f);
}

/* Each count of s's runs, once, as a number: c_<name>. */
static void
counts(FILE *f, const struct script_info *s)
{
	for (int j = 0; j < s->nslots; j++) {
		int first = 1;

		for (int i = 0; i < j; i++)
			if (s->slot[i].run && s->slot[i].count == s->slot[j].count)
				first = 0;
		if (s->slot[j].run && s->slot[j].count >= 0 && first)
			fprintf(f, "  local c_%s = tonumber(ARGV[%d])\n",
			    s->slot[s->slot[j].count].name,
			    one_at(s, s->slot[j].count));
	}
}

/* The runs, each from where the last ended, as long as its count says. */
static void
runs(FILE *f, const struct script_info *s)
{
	int nk = 0, na = 0, any = 0;

	for (int j = 0; j < s->nslots; j++) {
		if (!s->slot[j].run)
			s->slot[j].key ? nk++ : na++;
		else
			fprintf(f, "%s%c_%s", any++ ? ", " : "local ",
			    s->slot[j].key ? 'K' : 'A', s->slot[j].name);
	}
	if (!any)
		return;
	fprintf(f, "\nlocal NONE = {}\ndo\n  local k, a, n = %d, %d\n",
	    nk + 1, na + 1);
	counts(f, s);
	for (int j = 0; j < s->nslots; j++) {
		const struct script_slot *p = &s->slot[j];
		const char *from = p->key ? "KEYS" : "ARGV";
		const char *at = p->key ? "k" : "a";

		if (!p->run)
			continue;
		if (p->queues) {
			queue_run(f, p);
			continue;
		}
		if (p->count < 0)
			fprintf(f, "  n = #%s - %s + 1\n", from, at);
		else if (p->width > 1)
			fprintf(f, "  n = c_%s * %d\n", s->slot[p->count].name,
			    p->width);
		else
			fprintf(f, "  n = c_%s\n", s->slot[p->count].name);
		fprintf(f, "  %c_%s = n > 0 and { unpack(%s, %s, %s + n - 1) } "
		    "or NONE\n  %s = %s + n\n", p->key ? 'K' : 'A', p->name,
		    from, at, at, at, at);
	}
	fputs("end\n", f);
}

int
script_lua_prelude(FILE *f, enum lua_script_id id)
{
	const struct script_info *s = script_info(id);

	if (s == NULL)
		return -1;
	fprintf(f, "-- %s.lua, behind lib.lua and this prelude, which "
	    "script_gen wrote from\n-- scripts.def, events.def and conf.c's "
	    "key table: do not edit.\n", s->name);
	mode_caps(f);
	if (one_named(s, 0, "channel", 7) >= 0)
		events(f);
	fprintf(f, "-- %s.lua's runs of KEYS and ARGV (scripts.def).\n",
	    s->name);
	missing_keys(f, s);
	runs(f, s);
	return ferror(f) ? -1 : 0;
}

/* DEFAULT_<field> (name, len bytes): the default's value, copied (the
 * values conf_queue_fields gives are borrowed for the call). */
struct lookup {
	const char *name;
	size_t len;
	int found;
	char value[64];
};

static void
default_of(const char *key, const char *value, void *arg)
{
	struct lookup *l = arg;

	if (!l->found && strlen(key) == l->len &&
	    strncmp(key, l->name, l->len) == 0) {
		snprintf(l->value, sizeof l->value, "%s", value);
		l->found = 1;
	}
}

/* The identifier at p (len bytes) as script s runs it, into f. */
static void
identifier(FILE *f, const struct script_info *s, const struct queue_conf *q,
    const char *p, size_t len)
{
	struct lookup l = { p + 8, len - 8, 0, "" };
	int j;

	if (len > 2 && (p[0] == 'K' || p[0] == 'A') && p[1] == '_' &&
	    (j = one_named(s, p[0] == 'K', p + 2, len - 2)) >= 0) {
		fprintf(f, "%s[%d]", p[0] == 'K' ? "KEYS" : "ARGV",
		    one_at(s, j));
		return;
	}
	if (len > 8 && strncmp(p, "DEFAULT_", 8) == 0) {
		conf_queue_fields(q, default_of, &l);
		if (l.found) {
			lua_quote(f, l.value);
			return;
		}
	}
	fwrite(p, 1, len, f);
}

/* The comment or string at p, as it is; how long. */
static size_t
verbatim(FILE *f, const char *p)
{
	size_t n;

	if (p[0] == '-' && p[1] == '-')
		n = strcspn(p, "\n");
	else {
		for (n = 1; p[n] && p[n] != p[0] && p[n] != '\n'; n++)
			if (p[n] == '\\' && p[n + 1])
				n++;
		if (p[n] == p[0])
			n++;
	}
	fwrite(p, 1, n, f);
	return n;
}

int
script_lua_text(FILE *f, enum lua_script_id id, const char *text)
{
	const struct script_info *s = script_info(id);
	const char *idchars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_";
	struct queue_conf q;

	if (s == NULL)
		return -1;
	conf_queue_init(&q, "default");
	for (const char *p = text; *p;) {
		size_t n;

		if ((p[0] == '-' && p[1] == '-') || *p == '\'' || *p == '"')
			p += verbatim(f, p);
		else if ((n = strspn(p, idchars)) > 0) {
			identifier(f, s, &q, p, n);
			p += n;
		} else
			fputc(*p++, f);
	}
	conf_queue_free(&q);
	return ferror(f) ? -1 : 0;
}
