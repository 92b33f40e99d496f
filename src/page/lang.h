/*
 * lang.h: the waiting page's words in English and Korean, which language a
 * visitor gets (Accept-Language, or ?lang=), and an estimated wait in
 * words. Pure: the page (server side) and its script (through the JSON of
 * lang_json) share this one table.
 */
#ifndef WR_LANG_H
#define WR_LANG_H

#include <stddef.h>

enum lang { LANG_EN, LANG_KO, LANG_COUNT };

/* override (?lang=) when it names a language we have, else the best of
 * accept (an Accept-Language value, may be NULL), else English. */
enum lang lang_choose(const char *accept, const char *override);
const char *lang_code(enum lang l);

/* The number of texts, their keys, and a text by index or key. */
size_t lang_count(void);
const char *lang_key(size_t i);
const char *lang_text(enum lang l, size_t i);
/* Index of key (len bytes), -1 when none. */
int lang_find(const char *key, size_t len);
const char *lang_get(enum lang l, const char *key);

/* "about 3 minutes" for eta seconds (-1: no estimate) into buf. */
const char *lang_eta(enum lang l, long long eta, char *buf, size_t size);

#endif
