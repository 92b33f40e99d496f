/*
 * cors.h: which browser origins may call the API. Pure. The list is the
 * cors_origins key: origins separated by spaces or commas, or "*".
 */
#ifndef WR_CORS_H
#define WR_CORS_H

/* 1 when origin is listed exactly (case aside, a trailing '/' aside). */
int cors_allowed(const char *list, const char *origin);
/* 1 when the list is "*": any origin, answered as "*", never echoed. */
int cors_any(const char *list);
/* 1 when origin names the host the request was sent to (its Host). */
int cors_same_origin(const char *origin, const char *host);

#endif
