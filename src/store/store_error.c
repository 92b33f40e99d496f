/*
 * store_error.c: what an error reply of Redis means to a caller, by its
 * code: the one place an error's text is read (store.c classifies every
 * reply with it; see store.h's enum store_error). Codes of "not serving
 * now" are answered 503, never "your command is bad". Pure.
 */
#include <string.h>

#include "store.h"

enum store_error
store_error_of(const char *msg)
{
	static const struct {
		const char *code;
		enum store_error e;
	} codes[] = {
		{ "OOM", STORE_ERR_OOM }, { "NOSCRIPT", STORE_ERR_NOSCRIPT },
		{ "READONLY", STORE_ERR_READONLY },
		{ "LOADING", STORE_ERR_NOT_SERVING },
		{ "BUSY", STORE_ERR_NOT_SERVING },
		{ "MISCONF", STORE_ERR_NOT_SERVING },
		{ "MASTERDOWN", STORE_ERR_NOT_SERVING },
		{ "TRYAGAIN", STORE_ERR_NOT_SERVING },
		{ "CLUSTERDOWN", STORE_ERR_NOT_SERVING },
	};

	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (strncmp(msg, codes[i].code, strlen(codes[i].code)) == 0)
			return codes[i].e;
	/* Redis wraps the errors of commands called from a script. */
	if (strstr(msg, "OOM command not allowed") != NULL)
		return STORE_ERR_OOM;
	return STORE_ERR_OTHER;
}
