/* check_jwt.c: base64url and HS256 JWS, against RFC 7515's own example. */
#include <string.h>

#include "b64url.h"
#include "jwt.h"
#include "unit.h"

/* RFC 7515, appendix A.1: the HS256 example, byte for byte. */
#define A1_HEADER "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
#define A1_PAYLOAD "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6" \
	"Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
#define A1_SIG "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
#define A1_KEY "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aK" \
	"tMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
#define A1_JWS A1_HEADER "." A1_PAYLOAD "." A1_SIG

static long
a1_key(unsigned char key[64])
{
	return b64url_decode(A1_KEY, strlen(A1_KEY), key, 64);
}

START_TEST(test_rfc7515_a1_sign)
{
	unsigned char key[64];
	char sig[JWT_SIG_LEN + 1];
	const char *input = A1_HEADER "." A1_PAYLOAD;

	ck_assert_int_eq(a1_key(key), 64);
	ck_assert_int_eq(jwt_hs256(key, 64, input, strlen(input), sig), 0);
	ck_assert_str_eq(sig, A1_SIG);
}
END_TEST

START_TEST(test_rfc7515_a1_verify)
{
	unsigned char key[64];
	struct jwt_parts p;
	json_t *h;

	ck_assert_int_eq(a1_key(key), 64);
	ck_assert_int_eq(jwt_split(A1_JWS, strlen(A1_JWS), &p), 0);
	ck_assert_uint_eq(p.signed_len, strlen(A1_HEADER "." A1_PAYLOAD));
	ck_assert(jwt_hs256_ok(key, 64, A1_JWS, p.signed_len, p.sig, p.slen));
	h = jwt_part_json(p.header, p.hlen);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(json_string_value(json_object_get(h, "alg")), "HS256");
	json_decref(h);
	/* one bit of the key, the input or the signature changed: refused */
	key[0] ^= 1;
	ck_assert(!jwt_hs256_ok(key, 64, A1_JWS, p.signed_len, p.sig, p.slen));
	key[0] ^= 1;
	ck_assert(!jwt_hs256_ok(key, 64, A1_JWS, p.signed_len - 1, p.sig,
	    p.slen));
	ck_assert(!jwt_hs256_ok(key, 64, A1_JWS, p.signed_len,
	    "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", JWT_SIG_LEN));
	ck_assert(!jwt_hs256_ok(key, 64, A1_JWS, p.signed_len, p.sig,
	    p.slen - 1));
	/* the last character's unused bits set: same bytes, not canonical */
	ck_assert(!jwt_hs256_ok(key, 64, A1_JWS, p.signed_len,
	    "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXl", JWT_SIG_LEN));
}
END_TEST

START_TEST(test_split)
{
	struct jwt_parts p;

	ck_assert_int_eq(jwt_split("a.b.c", 5, &p), 0);
	ck_assert_uint_eq(p.hlen, 1);
	ck_assert_uint_eq(p.plen, 1);
	ck_assert_uint_eq(p.slen, 1);
	ck_assert_int_eq(jwt_split("..", 2, &p), 0);
	ck_assert_int_eq(jwt_split("a.b", 3, &p), -1);
	ck_assert_int_eq(jwt_split("abc", 3, &p), -1);
	ck_assert_int_eq(jwt_split("a.b.c.d", 7, &p), -1);
	ck_assert_int_eq(jwt_split("", 0, &p), -1);
}
END_TEST

START_TEST(test_part_json)
{
	json_t *j;

	ck_assert_ptr_null(jwt_part_json("", 0));
	ck_assert_ptr_null(jwt_part_json("W10", 3));		/* [] */
	ck_assert_ptr_null(jwt_part_json("eyJ9", 4));		/* {"} */
	ck_assert_ptr_null(jwt_part_json("e30=", 4));		/* padded */
	ck_assert_ptr_null(jwt_part_json("e 30", 4));
	/* {"a":1,"a":2}: duplicate names are refused */
	ck_assert_ptr_null(jwt_part_json("eyJhIjoxLCJhIjoyfQ", 18));
	ck_assert_ptr_nonnull(j = jwt_part_json("e30", 3));	/* {} */
	json_decref(j);
}
END_TEST

static void
roundtrip(const char *s)
{
	unsigned char out[64];
	char enc[B64URL_LEN(64) + 1];
	size_t n = strlen(s);

	b64url_encode((const unsigned char *)s, n, enc);
	ck_assert_uint_eq(strlen(enc), B64URL_LEN(n));
	ck_assert_int_eq(b64url_decode(enc, strlen(enc), out, sizeof out),
	    (long)n);
	ck_assert(memcmp(out, s, n) == 0);
}

START_TEST(test_b64url)
{
	unsigned char out[8];
	char enc[8];
	const unsigned char ff[] = { 0xfb, 0xff };

	roundtrip("");
	roundtrip("f");
	roundtrip("fo");
	roundtrip("foo");
	roundtrip("foob");
	roundtrip("fooba");
	roundtrip("foobar");
	b64url_encode(ff, 2, enc);
	ck_assert_str_eq(enc, "-_8");			/* not "+/8=" */
	ck_assert_int_eq(b64url_decode("Zg==", 4, out, 8), -1);
	ck_assert_int_eq(b64url_decode("Z", 1, out, 8), -1);
	ck_assert_int_eq(b64url_decode("Zh", 2, out, 8), -1);	/* bits */
	ck_assert_int_eq(b64url_decode("Zm9v", 4, out, 2), -1);	/* room */
	ck_assert_int_eq(b64url_decode("Zm+v", 4, out, 8), -1);
	ck_assert_int_eq(b64url_decode("Zm9v", 4, out, 8), 3);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("jwt");
	TCase *tc = tcase_create("jwt");

	tcase_add_test(tc, test_rfc7515_a1_sign);
	tcase_add_test(tc, test_rfc7515_a1_verify);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_part_json);
	tcase_add_test(tc, test_b64url);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
