/*
 * powsolve.c: the proof of work of a join (doc/api.md), solved in C, for
 * bench/pow. Built by make, not installed; it touches no network.
 *
 *   powsolve mint KEYHEX QUEUE BITS N   N join bodies, one a line:
 *       {"challenge":"...","nonce":"..."}, each a fresh challenge of QUEUE
 *       signed with the key (64 hex digits, as Redis keeps it) and solved,
 *       so a load can spend them without solving in its loop;
 *   powsolve time BITS N                solve N fresh challenges at BITS
 *       and print "median_ms p90_ms mean_tries": the floor a browser's
 *       solver is compared with.
 *
 * The solver is the page's (src/page/pow.js): decimal nonces from 0, the
 * challenge's whole 64-byte blocks hashed once (a copied digest context).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/evp.h>

#include "pow.h"

static int
nonce_ok(const unsigned char *h, int bits)
{
	return pow_zero_bits(h, 32) >= bits;
}

/* The first decimal nonce solving ch at bits into nonce; tries made. */
static long long
solve(const char *ch, int bits, char nonce[24])
{
	size_t len = strlen(ch), whole = len - len % 64;
	EVP_MD_CTX *mid = EVP_MD_CTX_new(), *c = EVP_MD_CTX_new();
	unsigned char h[32];
	long long i;

	EVP_DigestInit_ex(mid, EVP_sha256(), NULL);
	EVP_DigestUpdate(mid, ch, whole);
	for (i = 0;; i++) {
		int n = snprintf(nonce, 24, "%lld", i);

		EVP_MD_CTX_copy_ex(c, mid);
		EVP_DigestUpdate(c, ch + whole, len - whole);
		EVP_DigestUpdate(c, nonce, (size_t)n);
		EVP_DigestFinal_ex(c, h, NULL);
		if (nonce_ok(h, bits))
			break;
	}
	EVP_MD_CTX_free(mid);
	EVP_MD_CTX_free(c);
	return i + 1;
}

static int
hexkey(const char *s, unsigned char key[POW_KEY_LEN])
{
	if (strlen(s) != 2 * POW_KEY_LEN)
		return -1;
	for (int i = 0; i < POW_KEY_LEN; i++)
		if (sscanf(s + 2 * i, "%2hhx", &key[i]) != 1)
			return -1;
	return 0;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	unsigned char key[POW_KEY_LEN] = { 0 }, rnd[POW_RANDOM_LEN];
	char ch[POW_CHALLENGE_MAX + 1], nonce[24];
	const char *queue = "bench";
	int bits, n, mint = argc == 6 && strcmp(argv[1], "mint") == 0;
	double *ms, t;
	long long tries = 0;

	if (!mint && !(argc == 4 && strcmp(argv[1], "time") == 0)) {
		fprintf(stderr, "usage: powsolve mint KEYHEX QUEUE BITS N | "
		    "powsolve time BITS N\n");
		return 2;
	}
	if (mint && hexkey(argv[2], key) == -1) {
		fprintf(stderr, "powsolve: the key is not 64 hex digits\n");
		return 2;
	}
	if (mint)
		queue = argv[3];
	bits = atoi(argv[mint ? 4 : 2]);
	n = atoi(argv[mint ? 5 : 3]);
	if (bits < 0 || bits > 32 || n < 1 ||
	    (ms = calloc((size_t)n, sizeof *ms)) == NULL)
		return 2;
	for (int i = 0; i < n; i++) {
		if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd ||
		    pow_issue(ch, key, queue, bits, (long long)time(NULL) + 3600,
		    rnd) == -1)
			return 1;
		t = now_ms();
		tries += solve(ch, bits, nonce);
		ms[i] = now_ms() - t;
		if (mint)
			printf("{\"challenge\":\"%s\",\"nonce\":\"%s\"}\n", ch,
			    nonce);
	}
	if (!mint) {
		qsort(ms, (size_t)n, sizeof *ms, cmp_double);
		printf("%.1f %.1f %lld\n", ms[(n - 1) / 2],
		    ms[(9 * n + 9) / 10 - 1], tries / n);
	}
	free(ms);
	return 0;
}
