/*
 * script_gen.c: the build's writer of the scripts as Redis runs them
 * (script_lua.c), for embed.sh.
 *
 *   script_gen --list			every script's name, in the table's order
 *   script_gen NAME LIB.lua NAME.lua	NAME.lua whole: its prelude, then
 *					lib.lua and NAME.lua, names written in
 *
 * Either fails when scripts.def breaks its own rules, so the build does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"
#include "script_lua.h"

/* A file's whole text (free it); NULL when it cannot be read. */
static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	if (f == NULL)
		return NULL;
	if (getdelim(&text, &len, '\0', f) == -1) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* Script id whole into stdout, from lib and script; 0, or 1. */
static int
whole(int id, const char *lib, const char *script)
{
	char *l = slurp(lib), *t = slurp(script);
	int rc = 1;

	if (l == NULL || t == NULL)
		fprintf(stderr, "script_gen: cannot read %s\n", l ? script : lib);
	else if (script_lua_prelude(stdout, id) == 0 &&
	    script_lua_text(stdout, id, l) == 0 &&
	    script_lua_text(stdout, id, t) == 0 && fflush(stdout) == 0)
		rc = 0;
	free(l);
	free(t);
	return rc;
}

int
main(int argc, char **argv)
{
	char err[256];

	if (script_table_check(err, sizeof err) == -1) {
		fprintf(stderr, "script_gen: %s\n", err);
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (int id = 0; id < LUA_NSCRIPTS; id++)
			printf("%s\n", script_info(id)->name);
		return fflush(stdout) != 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: script_gen --list | NAME LIB.lua "
		    "NAME.lua\n");
		return 2;
	}
	for (int id = 0; id < LUA_NSCRIPTS; id++)
		if (strcmp(argv[1], script_info(id)->name) == 0)
			return whole(id, argv[2], argv[3]);
	fprintf(stderr, "script_gen: no script '%s' in scripts.def\n", argv[1]);
	return 1;
}
