/* challenge.c: see challenge.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "challenge.h"
#include "hex.h"
#include "log.h"
#include "metrics.h"
#include "qstore.h"

struct challenge_key {
	struct qstore *qs;
	unsigned char key[POW_KEY_LEN];	/* the challenges' HMAC key */
	int ok;				/* read from Redis */
};

struct challenge_key *
challenge_key_new(struct qstore *qs)
{
	struct challenge_key *k = calloc(1, sizeof *k);

	if (k != NULL)
		k->qs = qs;
	return k;
}

void
challenge_key_free(struct challenge_key *k)
{
	free(k);
}

int
challenge_key_ok(const struct challenge_key *k)
{
	return k->ok;
}

static void
key_done(enum result r, const char *value, int created, void *arg)
{
	struct challenge_key *k = arg;
	unsigned char key[POW_KEY_LEN];

	if (r != RESULT_OK)
		return;		/* the next connect tries again */
	if (hex_decode(value, key, sizeof key) != POW_KEY_LEN)
		goto bad;
	if (k->ok && memcmp(key, k->key, sizeof key) != 0)
		log_info("event=pow_key_changed msg=\"the challenges' key in "
		    "Redis is new: challenges issued before fail\"");
	memcpy(k->key, key, sizeof key);
	k->ok = 1;
	if (created)
		log_info("event=pow_key_created");
	return;
bad:
	log_error("event=pow_key_bad msg=\"the key in Redis is not 64 "
	    "lowercase hex digits; delete it and restart one instance\"");
}

void
challenge_key_load(struct challenge_key *k)
{
	char fresh[2 * POW_KEY_LEN + 1];

	if (hex_random(POW_KEY_LEN, fresh) == -1)
		return;
	qstore_powkey(k->qs, fresh, key_done, k);
}

json_t *
challenge_new(const struct challenge_key *k, const char *queue, int bits,
    long ttl)
{
	unsigned char rnd[POW_RANDOM_LEN];
	char ch[POW_CHALLENGE_MAX + 1];
	long long expires = (long long)time(NULL) + ttl;

	if (!k->ok ||
	    getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd ||
	    pow_issue(ch, k->key, queue, bits, expires, rnd) == -1)
		return NULL;
	metrics_pow_issued();
	return json_pack("{s:s,s:i,s:I}", "challenge", ch, "bits", bits,
	    "expires", (json_int_t)expires);
}

enum pow_verdict
challenge_check(const struct challenge_key *k, const char *queue,
    const char *challenge, const char *nonce, struct pow_challenge *c)
{
	if (!k->ok)
		return POW_FAILED;
	return pow_check(k->key, queue, challenge, nonce,
	    (long long)time(NULL), c);
}
