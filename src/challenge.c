/* challenge.c: see challenge.h. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "challenge.h"
#include "log.h"
#include "metrics.h"
#include "qstore.h"

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void
key_done(enum result r, const char *value, int created, void *arg)
{
	struct app *app = arg;
	unsigned char key[POW_KEY_LEN];

	if (r != RESULT_OK)
		return;		/* the next connect tries again */
	if (strlen(value) != 2 * POW_KEY_LEN)
		goto bad;
	for (int i = 0; i < POW_KEY_LEN; i++) {
		int hi = hex_value(value[2 * i]), lo = hex_value(value[2 * i + 1]);

		if (hi < 0 || lo < 0)
			goto bad;
		key[i] = (unsigned char)(hi << 4 | lo);
	}
	if (app->pow_key_ok && memcmp(key, app->pow_key, sizeof key) != 0)
		log_info("event=pow_key_changed msg=\"the challenges' key in "
		    "Redis is new: challenges issued before fail\"");
	memcpy(app->pow_key, key, sizeof key);
	app->pow_key_ok = 1;
	if (created)
		log_info("event=pow_key_created");
	return;
bad:
	log_error("event=pow_key_bad msg=\"the key in Redis is not 64 "
	    "lowercase hex digits; delete it and restart one instance\"");
}

void
challenge_key_load(struct app *app)
{
	unsigned char raw[POW_KEY_LEN];
	char fresh[2 * POW_KEY_LEN + 1];

	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		return;
	for (size_t i = 0; i < sizeof raw; i++)
		snprintf(fresh + 2 * i, 3, "%02x", raw[i]);
	qstore_powkey(app->qstore, fresh, key_done, app);
}

json_t *
challenge_new(struct app *app, const char *queue, int bits, long ttl)
{
	unsigned char rnd[POW_RANDOM_LEN];
	char ch[POW_CHALLENGE_MAX + 1];
	long long expires = (long long)time(NULL) + ttl;

	if (!app->pow_key_ok ||
	    getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd ||
	    pow_issue(ch, app->pow_key, queue, bits, expires, rnd) == -1)
		return NULL;
	metrics_pow_issued();
	return json_pack("{s:s,s:i,s:I}", "challenge", ch, "bits", bits,
	    "expires", (json_int_t)expires);
}

enum pow_verdict
challenge_check(const struct app *app, const char *queue,
    const char *challenge, const char *nonce, struct pow_challenge *c)
{
	if (!app->pow_key_ok)
		return POW_FAILED;
	return pow_check(app->pow_key, queue, challenge, nonce,
	    (long long)time(NULL), c);
}
