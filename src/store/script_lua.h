/*
 * script_lua.h: the Lua side of the scripts' contract, generated at build
 * time (script_gen, then embed.sh): each script runs behind a prelude that
 * names its KEYS and ARGV as scripts.def does (K.waiting, A.token,
 * A.tokens...), gives the configuration's defaults from conf.c's key table
 * (DEFAULT, MODE_CAP) and the events channel's formatters from events.def
 * (event_entered...). Pure: the unit tests read what it writes.
 */
#ifndef WR_SCRIPT_LUA_H
#define WR_SCRIPT_LUA_H

#include <stdio.h>

#include "script.h"

/* Script id's prelude into f; -1 when f failed. */
int script_lua_prelude(FILE *f, enum lua_script_id id);

#endif
