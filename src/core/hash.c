/* hash.c: FNV-1a; see hash.h. */
#include "hash.h"

unsigned long
hash_str(unsigned long h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619UL;
	return h;
}
