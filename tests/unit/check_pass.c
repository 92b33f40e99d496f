/*
 * check_pass.c: entry passes: the key file, signing, and every way a pass
 * is refused (algorithm, key id, signature, audience, time, shape), plus
 * key rotation.
 */
#include <stdio.h>
#include <string.h>

#include "b64url.h"
#include "jwt.h"
#include "pass.h"
#include "passkeys.h"
#include "unit.h"

#define T "0b7c5f4e-3d2a-4c1b-9a8f-7e6d5c4b3a21"
#define S1 "0123456789abcdef0123456789abcdef"
#define S2 "abcdefghijklmnopqrstuvwxyz0123456789"
#define NOW 1800000000LL

static char err[512];

static struct passkeys *
keys(const char *text)
{
	struct passkeys *k;

	err[0] = '\0';
	k = passkeys_load_string(text, "keys", err, sizeof err);
	ck_assert_msg(k != NULL, "keys refused: %s", err);
	return k;
}

/* A JWS of any header and payload, signed with secret. */
static void
forge(char *out, const char *header, const char *payload, const char *secret)
{
	char sig[JWT_SIG_LEN + 1];
	size_t n;

	b64url_encode((const unsigned char *)header, strlen(header), out);
	n = strlen(out);
	out[n++] = '.';
	b64url_encode((const unsigned char *)payload, strlen(payload), out + n);
	n = strlen(out);
	jwt_hs256((const unsigned char *)secret, strlen(secret), out, n, sig);
	out[n++] = '.';
	strcpy(out + n, sig);
}

static const char *good_header = "{\"alg\":\"HS256\",\"kid\":\"k2\"}";

static void
claims(char *out, const char *aud, long long iat, long long nbf,
    long long exp)
{
	snprintf(out, 512, "{\"aud\":\"%s\",\"sub\":\"" T "\",\"iat\":%lld,"
	    "\"nbf\":%lld,\"exp\":%lld}", aud, iat, nbf, exp);
}

static enum pass_verdict
verify(const struct passkeys *k, const char *s, const char *queue)
{
	struct pass_claims c;

	return pass_verify(k, s, strlen(s), NOW, queue, &c);
}

static void
sign(const struct passkeys *k, char *out, const char *queue, long long exp)
{
	struct pass_claims c = { .iat = NOW, .nbf = NOW, .exp = exp };

	strcpy(c.queue, queue);
	strcpy(c.token, T);
	ck_assert_int_eq(pass_sign(k, &c, out, PASS_MAX), 0);
}

START_TEST(test_sign_verify)
{
	struct passkeys *k = keys("k1 " S1 "\nk2 " S2 "\n");
	struct pass_claims c;
	char p[PASS_MAX], hdr[128];
	struct jwt_parts parts;
	json_t *h;

	sign(k, p, "concert", NOW + 300);
	ck_assert_int_eq(pass_verify(k, p, strlen(p), NOW, "concert", &c),
	    PASS_OK);
	ck_assert_str_eq(c.queue, "concert");
	ck_assert_str_eq(c.token, T);
	ck_assert_int_eq(c.iat, NOW);
	ck_assert_int_eq(c.nbf, NOW);
	ck_assert_int_eq(c.exp, NOW + 300);
	ck_assert_int_eq(verify(k, p, NULL), PASS_OK);	/* any queue */
	/* the last key signs, and its kid is in the header */
	ck_assert_int_eq(jwt_split(p, strlen(p), &parts), 0);
	h = jwt_part_json(parts.header, parts.hlen);
	snprintf(hdr, sizeof hdr, "%s/%s/%s",
	    json_string_value(json_object_get(h, "alg")),
	    json_string_value(json_object_get(h, "kid")),
	    json_string_value(json_object_get(h, "typ")));
	ck_assert_str_eq(hdr, "HS256/k2/JWT");
	json_decref(h);
	passkeys_free(k);
}
END_TEST

START_TEST(test_rotation)
{
	struct passkeys *old = keys("k1 " S1 "\n");
	struct passkeys *both = keys("# rotated in k2\nk1 " S1 "\nk2 " S2 "\n");
	struct passkeys *next = keys("k2 " S2 "\n");
	char p1[PASS_MAX], p2[PASS_MAX];

	sign(old, p1, "q", NOW + 60);
	sign(both, p2, "q", NOW + 60);
	ck_assert_int_eq(verify(both, p1, "q"), PASS_OK);   /* nobody out */
	ck_assert_int_eq(verify(both, p2, "q"), PASS_OK);
	ck_assert_int_eq(verify(old, p2, "q"), PASS_UNKNOWN_KID);
	ck_assert_int_eq(verify(next, p2, "q"), PASS_OK);
	ck_assert_int_eq(verify(next, p1, "q"), PASS_UNKNOWN_KID); /* retired */
	passkeys_free(old);
	passkeys_free(both);
	passkeys_free(next);
}
END_TEST

START_TEST(test_reject_alg)
{
	struct passkeys *k = keys("k2 " S2 "\n");
	char p[PASS_MAX], body[512];
	static const char *headers[] = {
		"{\"alg\":\"none\",\"kid\":\"k2\"}",
		"{\"alg\":\"HS512\",\"kid\":\"k2\"}",
		"{\"alg\":\"RS256\",\"kid\":\"k2\"}",
		"{\"alg\":\"hs256\",\"kid\":\"k2\"}",
		"{\"kid\":\"k2\"}",
		"{\"alg\":1,\"kid\":\"k2\"}",
		"{\"alg\":\"HS256\",\"kid\":\"k2\",\"crit\":[\"exp\"]}",
	};

	claims(body, "q", NOW, NOW, NOW + 60);
	for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++) {
		forge(p, headers[i], body, S2);
		ck_assert_msg(verify(k, p, "q") == PASS_BAD_ALG, "%s",
		    headers[i]);
	}
	/* alg none with an empty signature, the classic */
	forge(p, headers[0], body, S2);
	*strrchr(p, '.') = '\0';
	strcat(p, ".");
	ck_assert_int_eq(verify(k, p, "q"), PASS_BAD_ALG);
	passkeys_free(k);
}
END_TEST

START_TEST(test_reject_kid)
{
	struct passkeys *k = keys("k2 " S2 "\n");
	char p[PASS_MAX], body[512];

	claims(body, "q", NOW, NOW, NOW + 60);
	forge(p, "{\"alg\":\"HS256\"}", body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_NO_KID);
	forge(p, "{\"alg\":\"HS256\",\"kid\":2}", body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_NO_KID);
	forge(p, "{\"alg\":\"HS256\",\"kid\":\"k3\"}", body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_UNKNOWN_KID);
	/* a NUL inside a name is not JSON we accept at all */
	forge(p, "{\"alg\":\"HS256\",\"kid\":\"k2\\u0000\"}", body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_MALFORMED);
	passkeys_free(k);
}
END_TEST

START_TEST(test_reject_signature)
{
	struct passkeys *k = keys("k2 " S2 "\n");
	char p[PASS_MAX], body[512];
	size_t n;

	claims(body, "q", NOW, NOW, NOW + 60);
	forge(p, good_header, body, S1);		/* another secret */
	ck_assert_int_eq(verify(k, p, "q"), PASS_BAD_SIGNATURE);
	forge(p, good_header, body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_OK);
	n = strlen(p);
	p[n - 2] = p[n - 2] == 'A' ? 'B' : 'A';		/* one bit off */
	ck_assert_int_eq(verify(k, p, "q"), PASS_BAD_SIGNATURE);
	p[n - 1] = '\0';				/* truncated */
	ck_assert_int_eq(verify(k, p, "q"), PASS_BAD_SIGNATURE);
	/* the payload changed after signing (the queue widened) */
	forge(p, good_header, body, S2);
	{
		char other[512], enc[700], *dot1 = strchr(p, '.'), *dot2;

		dot2 = strchr(dot1 + 1, '.');
		claims(other, "vip", NOW, NOW, NOW + 60);
		b64url_encode((const unsigned char *)other, strlen(other), enc);
		memmove(dot1 + 1 + strlen(enc), dot2, strlen(dot2) + 1);
		memcpy(dot1 + 1, enc, strlen(enc));
		ck_assert_int_eq(verify(k, p, "vip"), PASS_BAD_SIGNATURE);
	}
	passkeys_free(k);
}
END_TEST

START_TEST(test_reject_audience)
{
	struct passkeys *k = keys("k2 " S2 "\n");
	char p[PASS_MAX], body[512];

	sign(k, p, "other", NOW + 60);
	ck_assert_int_eq(verify(k, p, "concert"), PASS_WRONG_QUEUE);
	ck_assert_int_eq(verify(k, p, "other"), PASS_OK);
	forge(p, good_header, "{\"aud\":[\"q\"],\"sub\":\"" T "\",\"iat\":1,"
	    "\"nbf\":1,\"exp\":9999999999}", S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_BAD_CLAIMS);
	claims(body, "bad queue!", NOW, NOW, NOW + 60);
	forge(p, good_header, body, S2);
	ck_assert_int_eq(verify(k, p, NULL), PASS_BAD_CLAIMS);
	passkeys_free(k);
}
END_TEST

START_TEST(test_reject_time)
{
	struct passkeys *k = keys("k2 " S2 "\n");
	char p[PASS_MAX], body[512];

	sign(k, p, "q", NOW - PASS_LEEWAY);		/* past the leeway */
	ck_assert_int_eq(verify(k, p, "q"), PASS_EXPIRED);
	sign(k, p, "q", NOW - 3600);
	ck_assert_int_eq(verify(k, p, "q"), PASS_EXPIRED);
	sign(k, p, "q", NOW - PASS_LEEWAY + 1);		/* within it */
	ck_assert_int_eq(verify(k, p, "q"), PASS_OK);
	claims(body, "q", NOW, NOW + PASS_LEEWAY + 1, NOW + 60);
	forge(p, good_header, body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_NOT_YET);
	claims(body, "q", NOW, NOW + PASS_LEEWAY, NOW + 60);	/* skew */
	forge(p, good_header, body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_OK);
	claims(body, "q", NOW + 3600, NOW, NOW + 7200);
	forge(p, good_header, body, S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_NOT_YET);
	passkeys_free(k);
}
END_TEST

START_TEST(test_reject_claims)
{
	struct passkeys *k = keys("k2 " S2 "\n");
	char p[PASS_MAX];
	static const char *bodies[] = {
		"{\"aud\":\"q\",\"sub\":\"" T "\",\"iat\":1,\"nbf\":1}",
		"{\"aud\":\"q\",\"sub\":\"" T "\",\"iat\":1,\"nbf\":1,"
		    "\"exp\":\"9999999999\"}",
		"{\"aud\":\"q\",\"sub\":\"" T "\",\"iat\":1,\"nbf\":1,"
		    "\"exp\":9999999999.5}",
		"{\"aud\":\"q\",\"sub\":\"x\",\"iat\":1,\"nbf\":1,"
		    "\"exp\":9999999999}",
		"{\"aud\":\"q\",\"iat\":1,\"nbf\":1,\"exp\":9999999999}",
		"{\"sub\":\"" T "\",\"iat\":1,\"nbf\":1,\"exp\":9999999999}",
		"{\"aud\":\"q\",\"sub\":\"" T "\",\"nbf\":1,\"exp\":9999999999}",
		"{\"aud\":\"q\",\"sub\":\"" T "\",\"iat\":1,\"exp\":9999999999}",
	};

	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		forge(p, good_header, bodies[i], S2);
		ck_assert_msg(verify(k, p, "q") == PASS_BAD_CLAIMS, "%s",
		    bodies[i]);
	}
	passkeys_free(k);
}
END_TEST

START_TEST(test_reject_malformed)
{
	struct passkeys *k = keys("k2 " S2 "\n");
	char p[PASS_MAX * 2], body[512];
	static const char *bad[] = {
		"abc", "a.b", "a.b.c.d", "..", "!!.!!.!!",
		"eyJhbGciOiJIUzI1NiIsImtpZCI6ImsyIn0=.e30.x",
		"e30.e30.AAAA",			/* {}: no alg */
		"W10.e30.AAAA",			/* header is an array */
		"bm90IGpzb24.e30.AAAA",		/* not json */
	};
	struct pass_claims c;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		enum pass_verdict v = verify(k, bad[i], "q");

		ck_assert_msg(v == PASS_MALFORMED || v == PASS_BAD_ALG,
		    "%s: %d", bad[i], v);
	}
	ck_assert_int_eq(pass_verify(k, "", 0, NOW, "q", &c), PASS_MISSING);
	/* a good pass with a byte of padding, a space, or a NUL: refused */
	sign(k, p, "q", NOW + 60);
	strcat(p, "=");
	ck_assert_int_eq(verify(k, p, "q"), PASS_BAD_SIGNATURE);
	sign(k, p, "q", NOW + 60);
	ck_assert_int_eq(pass_verify(k, p, strlen(p) + 1, NOW, "q", &c),
	    PASS_BAD_SIGNATURE);
	/* a payload that is not JSON, correctly signed */
	forge(p, good_header, "not json", S2);
	ck_assert_int_eq(verify(k, p, "q"), PASS_MALFORMED);
	/* too long */
	claims(body, "q", NOW, NOW, NOW + 60);
	memset(p, 'A', sizeof p - 1);
	p[sizeof p - 1] = '\0';
	ck_assert_int_eq(verify(k, p, "q"), PASS_MALFORMED);
	passkeys_free(k);
}
END_TEST

START_TEST(test_keyfile_errors)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "k1 short\n", "keys:1: the secret of key 'k1' is 5 characters" },
		{ "# c\n\nk1 " S1 "\nk1 " S2 "\n", "keys:4: duplicate key id 'k1'" },
		{ "k1\n", "keys:1: expected 'KID SECRET'" },
		{ "k1 " S1 " extra\n", "keys:1: expected 'KID SECRET'" },
		{ "k/1 " S1 "\n", "keys:1: bad key id" },
		{ "# nothing\n\n", "keys: no keys" },
		{ "k1 " S1 "\x01\n", "keys:1: control character" },
	};
	struct passkeys *k;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = '\0';
		k = passkeys_load_string(cases[i].text, "keys", err, sizeof err);
		ck_assert_ptr_null(k);
		ck_assert_msg(strstr(err, cases[i].want) != NULL,
		    "case %zu: got '%s', want '%s'", i, err, cases[i].want);
		ck_assert_msg(strstr(err, S1) == NULL, "the secret is shown");
	}
	k = passkeys_load_file("/nonexistent/keys", err, sizeof err);
	ck_assert_ptr_null(k);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/keys: cannot read"));
	k = keys("  k1   " S1 "  \r\n\tk2\t" S2);
	ck_assert_uint_eq(k->n, 2);
	ck_assert_str_eq(passkeys_signer(k)->kid, "k2");
	ck_assert_uint_eq(passkeys_find(k, "k1", 2)->len, strlen(S1));
	passkeys_free(k);
	passkeys_free(NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("pass");
	TCase *tc = tcase_create("pass");

	tcase_add_test(tc, test_sign_verify);
	tcase_add_test(tc, test_rotation);
	tcase_add_test(tc, test_reject_alg);
	tcase_add_test(tc, test_reject_kid);
	tcase_add_test(tc, test_reject_signature);
	tcase_add_test(tc, test_reject_audience);
	tcase_add_test(tc, test_reject_time);
	tcase_add_test(tc, test_reject_claims);
	tcase_add_test(tc, test_reject_malformed);
	tcase_add_test(tc, test_keyfile_errors);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
