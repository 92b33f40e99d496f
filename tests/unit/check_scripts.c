/*
 * check_scripts.c: the scripts' contract (scripts.def) against the scripts
 * themselves, where that can be read without Redis: every script's header
 * names its KEYS and ARGV as the table does, in order, and the fields of
 * the replies the table gives it; its code reads KEYS and ARGV only by
 * those names; it publishes only through events.def's formatters; the
 * defaults written into it are conf.c's, and none is typed into a .lua
 * file again; the scripts the build loads are the prelude, then lib.lua
 * and the script with their names written in, each where the table puts
 * it.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "script.h"
#include "script_lua.h"
#include "unit.h"

#define NAMES_MAX 64
#define NAME_MAX_LEN 40

/* A file's whole text (free it). */
static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long n;

	ck_assert_msg(f != NULL, "cannot read %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	ck_assert(text != NULL);
	ck_assert_int_eq(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	return text;
}

static char *
script_text(const char *name)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s.lua", LUA_DIR, name);
	return slurp(path);
}

/* ---- the header comment -------------------------------------------------- */

struct header {
	int nkeys, nargs;
	char key[NAMES_MAX][NAME_MAX_LEN], arg[NAMES_MAX][NAME_MAX_LEN];
	char reply[4096];
};

/* One line of text into buf (without its newline); the next line. */
static const char *
line_of(const char *p, char *buf, size_t size)
{
	size_t n = strcspn(p, "\n");

	snprintf(buf, size, "%.*s", (int)n, p);
	return p[n] ? p + n + 1 : p + n;
}

/* "--   name" or "--   name..." (a run): into name, 1; else 0. */
static int
slot_line(const char *line, char *name)
{
	size_t n;

	if (strncmp(line, "--   ", 5) != 0 || !islower((unsigned char)line[5]))
		return 0;
	n = strspn(line + 5, "abcdefghijklmnopqrstuvwxyz_0123456789.");
	snprintf(name, NAME_MAX_LEN, "%.*s", (int)n, line + 5);
	return 1;
}

/* The leading comment of text: its KEYS, ARGV and Reply sections. */
static void
header_read(const char *text, struct header *h)
{
	char line[256], name[NAME_MAX_LEN];
	const char *p = text;
	int section = 0;	/* 'k', 'a', 'r' */

	memset(h, 0, sizeof *h);
	while (*p && strncmp(p, "--", 2) == 0) {
		p = line_of(p, line, sizeof line);
		if (strncmp(line, "-- KEYS:", 8) == 0) {
			section = 'k';
			if (strstr(line, "queue's ten") != NULL)
				for (int i = 0; i < SCRIPT_QUEUE_KEYS; i++)
					snprintf(h->key[h->nkeys++],
					    NAME_MAX_LEN, "%s",
					    script_queue_keys[i]);
		} else if (strncmp(line, "-- ARGV:", 8) == 0)
			section = 'a';
		else if (strncmp(line, "-- Reply:", 9) == 0)
			section = 'r';
		if (section == 'r') {
			strncat(h->reply, line + 2, sizeof h->reply -
			    strlen(h->reply) - 2);
			strcat(h->reply, " ");
		} else if (section && slot_line(line, name))
			snprintf(section == 'k' ? h->key[h->nkeys++] :
			    h->arg[h->nargs++], NAME_MAX_LEN, "%s", name);
		else if (line[2] == ' ' && line[3] != ' ' &&
		    strncmp(line, "-- KEYS:", 8) != 0 &&
		    strncmp(line, "-- ARGV:", 8) != 0)
			section = 0;
	}
}

/* The table's slot as a header writes it: name, and "..." for a run. */
static void
slot_written(const struct script_slot *p, char *buf)
{
	snprintf(buf, NAME_MAX_LEN, "%s%s", p->name, p->run ? "..." : "");
}

START_TEST(test_headers_name_the_slots)
{
	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		const struct script_info *s = script_info(id);
		char *text = script_text(s->name), want[NAME_MAX_LEN];
		struct header h;
		int k = 0, a = 0;

		header_read(text, &h);
		for (int i = 0; i < s->nslots; i++) {
			const struct script_slot *p = &s->slot[i];
			int at = p->key ? k++ : a++;
			int have = p->key ? h.nkeys : h.nargs;

			slot_written(p, want);
			ck_assert_msg(at < have, "%s.lua's header does not name "
			    "%s %s (scripts.def does)", s->name, p->key ?
			    "key" : "argument", want);
			ck_assert_msg(strcmp(p->key ? h.key[at] : h.arg[at],
			    want) == 0, "%s.lua's header names %s where "
			    "scripts.def has %s", s->name, p->key ? h.key[at] :
			    h.arg[at], want);
		}
		ck_assert_msg(k == h.nkeys && a == h.nargs, "%s.lua's header "
		    "names more keys or arguments than scripts.def", s->name);
		free(text);
	}
}
END_TEST

/* Is word in text as a whole word from *from on? *from then past it. */
static int
word_after(const char *text, const char *word, const char **from)
{
	size_t n = strlen(word);

	for (const char *p = strstr(*from, word); p; p = strstr(p + 1, word))
		if ((p == text || !(isalnum((unsigned char)p[-1]) ||
		    p[-1] == '_')) && !(isalnum((unsigned char)p[n]) ||
		    p[n] == '_')) {
			*from = p + n;
			return 1;
		}
	return 0;
}

START_TEST(test_headers_name_the_replies)
{
	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		const struct script_info *s = script_info(id);
		char *text = script_text(s->name);
		struct header h;

		header_read(text, &h);
		for (const int *r = s->replies; *r >= 0; r++) {
			const struct script_shape *sh = script_shape(*r);
			const char *from = h.reply;

			/* A result is a word ('ok', 'left'...) in the text. */
			for (int f = 0; f < sh->nfields; f++)
				ck_assert_msg(strcmp(sh->field[f], "result") ==
				    0 || word_after(h.reply, sh->field[f], &from),
				    "%s.lua's Reply does not name %s's %s in "
				    "the table's order", s->name, sh->name,
				    sh->field[f]);
		}
		free(text);
	}
}
END_TEST

/* ---- the code ------------------------------------------------------------- */

/* text with every comment blanked out. */
static char *
code_of(const char *text)
{
	char *code = strdup(text);

	for (char *p = code; (p = strstr(p, "--")) != NULL;)
		while (*p && *p != '\n')
			*p++ = ' ';
	return code;
}

/* Is name one of s's slots (s NULL: the queue keys, all lib.lua has)? */
static int
slot_named(const struct script_info *s, int key, const char *name)
{
	if (s == NULL) {
		for (int i = 0; i < SCRIPT_QUEUE_KEYS; i++)
			if (strcmp(script_queue_keys[i], name) == 0)
				return key;
		return 0;
	}
	for (int i = 0; i < s->nslots; i++)
		if (s->slot[i].key == key && strcmp(s->slot[i].name, name) == 0)
			return 1;
	return 0;
}

/* Every K_name and A_name in code is a slot of s; KEYS and ARGV unused. */
static void
names_known(const char *file, const char *code, const struct script_info *s)
{
	for (const char *p = code; *p; p++) {
		char name[NAME_MAX_LEN];
		size_t n;

		if (p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		ck_assert_msg(strncmp(p, "KEYS", 4) != 0 &&
		    strncmp(p, "ARGV", 4) != 0, "%s reads KEYS or ARGV by "
		    "position: name them in scripts.def", file);
		if ((*p != 'K' && *p != 'A') || p[1] != '_')
			continue;
		n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz_0123456789");
		snprintf(name, sizeof name, "%.*s", (int)n, p + 2);
		ck_assert_msg(slot_named(s, *p == 'K', name), "%s reads %c_%s, "
		    "which scripts.def does not name", file, *p, name);
	}
}

START_TEST(test_code_reads_by_name)
{
	char *lib = slurp(LUA_DIR "/lib.lua"), *code = code_of(lib);

	names_known("lib.lua", code, NULL);
	free(code);
	free(lib);
	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		const struct script_info *s = script_info(id);
		char *text = script_text(s->name), file[64];

		code = code_of(text);
		snprintf(file, sizeof file, "%s.lua", s->name);
		names_known(file, code, s);
		free(code);
		free(text);
	}
}
END_TEST

/* Every PUBLISH of file publishes what an event_ formatter made. */
static void
publishes_events(const char *file, const char *code)
{
	for (const char *p = strstr(code, "'PUBLISH'"); p;
	    p = strstr(p + 1, "'PUBLISH'")) {
		size_t n = strcspn(p, "\n");
		const char *ev = strstr(p, "event_");

		ck_assert_msg(ev != NULL && (size_t)(ev - p) < n + 80,
		    "%s publishes a message no events.def formatter made",
		    file);
	}
}

START_TEST(test_events_through_formatters)
{
	char *lib = slurp(LUA_DIR "/lib.lua"), *code = code_of(lib);

	publishes_events("lib.lua", code);
	free(code);
	free(lib);
	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		char *text = script_text(script_info(id)->name);

		code = code_of(text);
		publishes_events(script_info(id)->name, code);
		free(code);
		free(text);
	}
}
END_TEST

/* Every .lua file but lib.lua is a script of the table, and the reverse. */
START_TEST(test_every_file_a_script)
{
	DIR *d = opendir(LUA_DIR);
	struct dirent *e;
	int found = 0;

	ck_assert(d != NULL);
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		int id;

		if (n < 5 || strcmp(e->d_name + n - 4, ".lua") != 0 ||
		    strcmp(e->d_name, "lib.lua") == 0)
			continue;
		for (id = 0; id < LUA_NSCRIPTS; id++)
			if (strlen(script_info(id)->name) == n - 4 &&
			    strncmp(script_info(id)->name, e->d_name, n - 4) == 0)
				break;
		ck_assert_msg(id < LUA_NSCRIPTS, "%s is in no line of "
		    "scripts.def", e->d_name);
		found++;
	}
	closedir(d);
	ck_assert_int_eq(found, LUA_NSCRIPTS);
}
END_TEST

START_TEST(test_table_keeps_its_rules)
{
	char err[256];

	ck_assert_msg(script_table_check(err, sizeof err) == 0, "%s", err);
}
END_TEST

/* ---- the defaults ----------------------------------------------------- */

/* Script id's prelude, as script_gen writes it (free it). */
static char *
prelude(int id)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert(f != NULL);
	ck_assert_int_eq(script_lua_prelude(f, id), 0);
	fclose(f);
	return buf;
}

/* text as script id runs it (free it). */
static char *
written(int id, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert(f != NULL);
	ck_assert_int_eq(script_lua_text(f, id, text), 0);
	fclose(f);
	return buf;
}

struct pairs {
	int n;
	char key[NAMES_MAX][2 * NAME_MAX_LEN], value[NAMES_MAX][NAME_MAX_LEN];
};

static void
pair_add(const char *key, const char *value, void *arg)
{
	struct pairs *p = arg;

	snprintf(p->key[p->n], sizeof p->key[p->n], "%s", key);
	snprintf(p->value[p->n++], NAME_MAX_LEN, "%s", value);
}

static void
cap_add(const char *mode, const char *key, const char *value, void *arg)
{
	char k[2 * NAME_MAX_LEN];

	snprintf(k, sizeof k, "%s.%s", mode, key);
	pair_add(k, value, arg);
}

/* The prelude's mode_cap: "if mode == 'mode' then return 'field',
 * 'value' end" lines. */
static void
lua_caps(const char *text, struct pairs *caps)
{
	char line[256];

	caps->n = 0;
	for (const char *at = text; *at;) {
		char k[NAME_MAX_LEN], v[NAME_MAX_LEN], f[NAME_MAX_LEN];

		at = line_of(at, line, sizeof line);
		if (sscanf(line, " if mode == '%39[a-z]' then return "
		    "'%39[a-z_]', '%39[^']' end", k, f, v) == 3)
			cap_add(k, f, v, caps);
	}
}

static void
pairs_equal(const struct pairs *want, const struct pairs *have,
    const char *what)
{
	ck_assert_msg(want->n == have->n, "%s: %d in the Lua, %d in conf.c",
	    what, have->n, want->n);
	for (int i = 0; i < want->n; i++) {
		ck_assert_str_eq(have->key[i], want->key[i]);
		ck_assert_msg(strcmp(have->value[i], want->value[i]) == 0,
		    "%s: %s is %s in the Lua, %s in conf.c", what,
		    want->key[i], have->value[i], want->value[i]);
	}
}

START_TEST(test_defaults_are_conf_keys)
{
	struct pairs want, caps;
	struct queue_conf q;

	want.n = 0;
	conf_queue_init(&q, "q");
	conf_queue_fields(&q, pair_add, &want);
	conf_queue_free(&q);
	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		char *text = prelude(id), name[64], quoted[64], *w;
		struct pairs cap_want = { 0 };

		for (int i = 0; i < want.n; i++) {
			snprintf(name, sizeof name, "DEFAULT_%s", want.key[i]);
			snprintf(quoted, sizeof quoted, "'%s'", want.value[i]);
			w = written(id, name);
			ck_assert_msg(strcmp(w, quoted) == 0, "%s.lua's %s is "
			    "%s, conf.c's %s", script_info(id)->name, name, w,
			    quoted);
			free(w);
		}
		conf_mode_caps(cap_add, &cap_want);
		lua_caps(text, &caps);
		pairs_equal(&cap_want, &caps, "mode_cap");
		free(text);
	}
}
END_TEST

/* The values of conf.c's defaults and caps, but 0. */
static int
is_default(const char *v, const struct pairs *d)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(v, "0") != 0 && strcmp(d->value[i], v) == 0)
			return 1;
	return 0;
}

/* "or <default>" nowhere in the code of file. */
static void
no_typed_default(const char *file, const char *code, const struct pairs *d)
{
	for (const char *p = strstr(code, " or "); p; p = strstr(p + 1,
	    " or ")) {
		char v[NAME_MAX_LEN] = "";
		const char *q = p + 4;

		if (*q == '\'' && sscanf(q + 1, "%39[^']", v) == 1)
			;
		else if (isdigit((unsigned char)*q))
			snprintf(v, sizeof v, "%.*s", (int)strspn(q,
			    "0123456789"), q);
		ck_assert_msg(!is_default(v, d), "%s types a default (or %s): "
		    "take it from DEFAULT_<field> or mode_cap", file, v);
	}
}

/* Every DEFAULT_field of code is a field of conf.c's defaults. */
static void
defaults_known(const char *file, const char *code, const struct pairs *d)
{
	for (const char *p = strstr(code, "DEFAULT_"); p;
	    p = strstr(p + 1, "DEFAULT_")) {
		size_t n = strspn(p + 8, "abcdefghijklmnopqrstuvwxyz_");
		int i;

		for (i = 0; i < d->n; i++)
			if (strlen(d->key[i]) == n &&
			    strncmp(d->key[i], p + 8, n) == 0)
				break;
		ck_assert_msg(i < d->n, "%s reads DEFAULT_%.*s: conf.c has no "
		    "such default", file, (int)n, p + 8);
	}
}

START_TEST(test_no_default_typed_in_lua)
{
	struct pairs d = { 0 };
	struct queue_conf q;
	char *lib = slurp(LUA_DIR "/lib.lua"), *code = code_of(lib);

	conf_queue_init(&q, "q");
	conf_queue_fields(&q, pair_add, &d);
	conf_queue_free(&q);
	conf_mode_caps(cap_add, &d);
	no_typed_default("lib.lua", code, &d);
	defaults_known("lib.lua", code, &d);
	free(code);
	free(lib);
	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		char *text = script_text(script_info(id)->name);

		code = code_of(text);
		no_typed_default(script_info(id)->name, code, &d);
		defaults_known(script_info(id)->name, code, &d);
		free(code);
		free(text);
	}
}
END_TEST

/*
 * What the build loads into Redis is the prelude, then lib.lua and the
 * script with their names written in; and each name written in is the
 * table's place of that key or argument.
 */
START_TEST(test_loaded_scripts_whole)
{
	char *lib = slurp(LUA_DIR "/lib.lua");

	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		const char *name = script_info(id)->name;
		char path[512], *pre = prelude(id), *text = script_text(name);
		char *wl = written(id, lib), *wt = written(id, text);
		char *loaded, *want;

		snprintf(path, sizeof path, "%s/%s.lua", LOADED_DIR, name);
		loaded = slurp(path);
		ck_assert(asprintf(&want, "%s%s%s", pre, wl, wt) > 0);
		ck_assert_msg(strcmp(loaded, want) == 0, "%s is not %s.lua's "
		    "prelude, lib.lua and %s.lua: rebuild", path, name, name);
		free(want);
		free(loaded);
		free(wt);
		free(wl);
		free(text);
		free(pre);
	}
	free(lib);
}
END_TEST

/* Each key and argument, by its name, is where the table puts it. */
START_TEST(test_names_written_in)
{
	char *w;

	w = written(LUA_JOIN, "K_config K_tick A_user_ttl A_held_closes_at "
	    "A_tokens K_users XK_seq 'A_nusers' -- K_seq\nK_seq");
	ck_assert_str_eq(w, "KEYS[1] KEYS[7] ARGV[1] ARGV[6] A_tokens K_users "
	    "XK_seq 'A_nusers' -- K_seq\nKEYS[2]");
	free(w);
	w = written(LUA_LEAVE, "K_revoked, A_leeway_ms..A_token");
	ck_assert_str_eq(w, "KEYS[11], ARGV[3]..ARGV[1]");
	free(w);
	w = written(LUA_TICK, "(DEFAULT_waiting_ttl or x)");
	ck_assert_str_eq(w, "('120' or x)");
	free(w);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("scripts");
	TCase *tc = tcase_create("scripts");

	tcase_add_test(tc, test_table_keeps_its_rules);
	tcase_add_test(tc, test_every_file_a_script);
	tcase_add_test(tc, test_headers_name_the_slots);
	tcase_add_test(tc, test_headers_name_the_replies);
	tcase_add_test(tc, test_code_reads_by_name);
	tcase_add_test(tc, test_events_through_formatters);
	tcase_add_test(tc, test_defaults_are_conf_keys);
	tcase_add_test(tc, test_no_default_typed_in_lua);
	tcase_add_test(tc, test_loaded_scripts_whole);
	tcase_add_test(tc, test_names_written_in);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
