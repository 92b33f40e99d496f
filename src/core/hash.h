/*
 * hash.h: FNV-1a over strings, for the fixed-size tables keyed by text
 * (revoke.c, ratelimit.c). Chain calls to hash several strings:
 * hash_str(hash_str(HASH_SEED, a), b).
 */
#ifndef WR_HASH_H
#define WR_HASH_H

#define HASH_SEED 2166136261UL

unsigned long hash_str(unsigned long h, const char *s);

#endif
