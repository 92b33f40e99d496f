/*
 * script_lua.c: each script's Lua prelude; see script_lua.h. What it
 * writes, in order: the defaults, the events' formatters (lib.lua uses
 * them in every script), then the script's own K and A. A run is a list
 * (K.users, A.tokens), an empty one the shared NONE, never written to.
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
default_field(const char *key, const char *value, void *arg)
{
	FILE *f = arg;

	fprintf(f, "  %s = ", key);
	lua_quote(f, value);
	fputs(",\n", f);
}

static void
mode_cap(const char *mode, const char *key, const char *value, void *arg)
{
	FILE *f = arg;

	fprintf(f, "  %s = { ", mode);
	lua_quote(f, key);
	fputs(", ", f);
	lua_quote(f, value);
	fputs(" },\n", f);
}

static void
defaults(FILE *f)
{
	struct queue_conf q;

	conf_queue_init(&q, "default");
	fputs("-- A queue's fields as conf.c's key table gives them when the "
	    "file or the\n-- admin API leaves them out; and the cap a mode "
	    "takes, { field, value },\n-- for a cap of 0.\nlocal DEFAULT = {\n",
	    f);
	conf_queue_fields(&q, default_field, f);
	fputs("}\nlocal MODE_CAP = {\n", f);
	conf_mode_caps(mode_cap, f);
	fputs("}\n", f);
	conf_queue_free(&q);
}

static void
events(FILE *f)
{
	fputs("-- The events channel's messages (events.def).\n", f);
	for (int k = 0; k < EVENT_KINDS; k++) {
		const char *w = event_word(k), *a = event_arg_name(k);
		int t = event_has_tokens(k);

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

/* A run of queue keys: one table of the seven per queue. */
static void
queue_run(FILE *f, const struct script_slot *p)
{
	fprintf(f, "  local %s = {}\n  for at = k, #KEYS, %d do\n"
	    "    %s[#%s + 1] = {", p->name, SCRIPT_QUEUE_KEYS, p->name, p->name);
	for (int i = 0; i < SCRIPT_QUEUE_KEYS; i++)
		fprintf(f, "%s %s = KEYS[at + %d]", i ? "," : "",
		    script_queue_keys[i], i);
	fputs(" }\n  end\n", f);
}

/* Each run into a local of its name, from where the last one ended, as
 * long as its count says (the count as ARGV holds it: A is not yet). */
static void
runs(FILE *f, const struct script_info *s)
{
	int nk = 0, na = 0;

	for (int j = 0; j < s->nslots; j++)
		if (!s->slot[j].run)
			s->slot[j].key ? nk++ : na++;
	fprintf(f, "  local k, a, n = %d, %d\n", nk + 1, na + 1);
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
			fprintf(f, "  n = tonumber(ARGV[%d]) * %d\n",
			    one_at(s, p->count), p->width);
		else
			fprintf(f, "  n = tonumber(ARGV[%d])\n",
			    one_at(s, p->count));
		fprintf(f, "  local %s = n > 0 and { unpack(%s, %s, %s + n - 1) } "
		    "or NONE\n  %s = %s + n\n", p->name, from, at, at, at, at);
	}
}

/* Table t (K or A): the one values of kind key (1) or argument (0),
 * then the runs. */
static void
table(FILE *f, const struct script_info *s, int key)
{
	const char *from = key ? "KEYS" : "ARGV";
	int n = 0;

	fprintf(f, "  %s = {", key ? "K" : "A");
	for (int j = 0; j < s->nslots; j++) {
		const struct script_slot *p = &s->slot[j];

		if (p->key != key)
			continue;
		if (p->run)
			fprintf(f, "%s\n    %s = %s", n++ ? "," : "", p->name,
			    p->name);
		else
			fprintf(f, "%s\n    %s = %s[%d]", n++ ? "," : "",
			    p->name, from, one_at(s, j));
	}
	fputs(n ? "\n  }\n" : "}\n", f);
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
	defaults(f);
	events(f);
	fprintf(f, "-- %s.lua's KEYS and ARGV by name (scripts.def); a run "
	    "is a list, an\n-- empty one NONE (never written to).\n"
	    "local NONE = {}\nlocal K, A\ndo\n", s->name);
	runs(f, s);
	table(f, s, 1);
	table(f, s, 0);
	fputs("end\n", f);
	return ferror(f) ? -1 : 0;
}
