/*
 * hash.h: FNV-1a over strings, for the tables keyed by text (revoke.c,
 * renewals.c, ratelimit.c, qstore_held.c, ipcount.c). Chain calls to
 * hash several strings: hash_str(hash_str(HASH_SEED, a), b).
 */
#ifndef WR_HASH_H
#define WR_HASH_H

#define HASH_SEED 2166136261UL

unsigned long hash_str(unsigned long h, const char *s);

#endif
