/*
 * script_gen.c: the build's generator of the scripts' Lua preludes
 * (script_lua.c), which embed.sh puts in front of lib.lua and each script.
 *
 *   script_gen --list	every script's name, in the table's order
 *   script_gen NAME	NAME.lua's prelude
 *
 * Either fails when scripts.def breaks its own rules, so the build does.
 */
#include <stdio.h>
#include <string.h>

#include "script.h"
#include "script_lua.h"

int
main(int argc, char **argv)
{
	char err[256];

	if (script_table_check(err, sizeof err) == -1) {
		fprintf(stderr, "script_gen: %s\n", err);
		return 1;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: script_gen --list | NAME\n");
		return 2;
	}
	for (int id = 0; id < LUA_NSCRIPTS; id++) {
		const char *name = script_info(id)->name;

		if (strcmp(argv[1], "--list") == 0)
			printf("%s\n", name);
		else if (strcmp(argv[1], name) == 0)
			return script_lua_prelude(stdout, id) == -1 ||
			    fflush(stdout) != 0 ? 1 : 0;
	}
	if (strcmp(argv[1], "--list") == 0)
		return fflush(stdout) != 0 ? 1 : 0;
	fprintf(stderr, "script_gen: no script '%s' in scripts.def\n", argv[1]);
	return 1;
}
