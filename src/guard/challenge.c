/* challenge.c: see challenge.h. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "challenge.h"
#include "hex.h"
#include "log.h"
#include "metrics.h"
#include "qstore.h"

static void
key_done(enum result r, const char *value, int created, void *arg)
{
	struct app *app = arg;
	unsigned char key[POW_KEY_LEN];

	if (r != RESULT_OK)
		return;		/* the next connect tries again */
	if (hex_decode(value, key, sizeof key) != POW_KEY_LEN)
		goto bad;
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
	char fresh[2 * POW_KEY_LEN + 1];

	if (hex_random(POW_KEY_LEN, fresh) == -1)
		return;
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
