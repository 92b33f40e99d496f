/*
 * tokencost.c: what a join's token costs the loop, for bench/README.
 * Built by make, not installed; it touches no network.
 *
 *   tokencost [N]    N tokens (default 1,000,000) made three ways, and
 *                    the microseconds a token each took:
 *     libuuid    uuid_generate_random and uuid_unparse_lower, as
 *                api_tokens.c makes every token;
 *     getrandom  16 bytes from getrandom(2) a token, the version and
 *                variant bits set, written by uuid_unparse_lower;
 *     pool       the same bytes taken from 4 KiB of RAND_bytes at a time.
 *
 * The last two are yardsticks, not what waitroomd does: tokens come from
 * libuuid, which reseeds glibc's random() and jrand48 for every UUID.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/rand.h>
#include <uuid/uuid.h>

#define POOL 256		/* tokens' worth of bytes a refill */

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void
v4_bits(uuid_t uu)
{
	uu[6] = (uu[6] & 0x0f) | 0x40;
	uu[8] = (uu[8] & 0x3f) | 0x80;
}

static int
by_libuuid(uuid_t uu)
{
	uuid_generate_random(uu);
	return 0;
}

static int
by_getrandom(uuid_t uu)
{
	if (getrandom(uu, sizeof(uuid_t), 0) != (ssize_t)sizeof(uuid_t))
		return -1;
	v4_bits(uu);
	return 0;
}

static int
by_pool(uuid_t uu)
{
	static unsigned char pool[POOL * sizeof(uuid_t)];
	static int left;

	if (left == 0) {
		if (RAND_bytes(pool, sizeof pool) != 1)
			return -1;
		left = POOL;
	}
	left--;
	memcpy(uu, pool + left * sizeof(uuid_t), sizeof(uuid_t));
	v4_bits(uu);
	return 0;
}

static int
measure(const char *name, int (*make)(uuid_t), long n)
{
	char text[37];
	uuid_t uu;
	double t0 = now_us();

	for (long i = 0; i < n; i++) {
		if (make(uu) == -1) {
			fprintf(stderr, "tokencost: %s failed\n", name);
			return -1;
		}
		uuid_unparse_lower(uu, text);
	}
	if (uuid_type(uu) != UUID_TYPE_DCE_RANDOM) {
		fprintf(stderr, "tokencost: %s made %s, not a v4 UUID\n", name,
		    text);
		return -1;
	}
	printf("%-10s %.3f us a token (last: %s)\n", name,
	    (now_us() - t0) / (double)n, text);
	return 0;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;

	if (n <= 0) {
		fprintf(stderr, "usage: tokencost [N]\n");
		return 2;
	}
	if (measure("libuuid", by_libuuid, n) == -1 ||
	    measure("getrandom", by_getrandom, n) == -1 ||
	    measure("pool", by_pool, n) == -1)
		return 1;
	return 0;
}
