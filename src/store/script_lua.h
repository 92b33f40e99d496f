/*
 * script_lua.h: the Lua side of the scripts' contract, written at build
 * time (script_gen, for embed.sh). lib.lua and the scripts name their KEYS
 * and ARGV as scripts.def does (K_waiting, A_token, A_tokens...) and take
 * the configuration's defaults from conf.c's key table (DEFAULT_active_ttl,
 * mode_cap) and the events channel's formatters from events.def
 * (event_entered...); what Redis runs is a prelude, then lib.lua and the
 * script with those names written in. Pure: the unit tests read what it
 * writes.
 */
#ifndef WR_SCRIPT_LUA_H
#define WR_SCRIPT_LUA_H

#include <stdio.h>

#include "script.h"

/* Script id's prelude into f; -1 when f failed. */
int script_lua_prelude(FILE *f, enum lua_script_id id);

/*
 * text (lib.lua, or script id's own) into f as script id runs it: each
 * K_<key> and A_<argument> of its one values as KEYS[i] and ARGV[i], each
 * DEFAULT_<field> as the default's value; its comments and strings as
 * they are. -1 when f failed.
 */
int script_lua_text(FILE *f, enum lua_script_id id, const char *text);

#endif
