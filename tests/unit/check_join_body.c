/*
 * check_join_body.c: the join body's small parser against jansson's
 * (join_body_jansson): the same verdict and the same fields for every body
 * of the table, and which bodies the small parser takes by itself.
 */
#include <string.h>

#include "join_body.h"
#include "unit.h"

/* one Hangul syllable, U+D55C, and U+1F600, in UTF-8 */
#define HAN "\xed\x95\x9c"
#define GRIN "\xf0\x9f\x98\x80"

/* Does every field of f say what jansson's tree doc says? */
static void
same_as_jansson(const char *body, size_t len, const struct join_fields *f)
{
	json_error_t err;
	const char *user;
	json_t *doc;

	join_body_jansson(body, len, &doc, &user, &err);
	for (size_t i = 0; join_body_name(i) != NULL; i++) {
		const struct join_field *v = join_body_field(f, i);
		json_t *j = json_object_get(doc, join_body_name(i));

		if (j == NULL || !json_is_string(j)) {
			ck_assert_msg(v->type == (j ? JOIN_FIELD_OTHER :
			    JOIN_FIELD_NONE) && v->s == NULL,
			    "%s: %s is %d", body, join_body_name(i), v->type);
			continue;
		}
		ck_assert_msg(v->type == JOIN_FIELD_STRING &&
		    v->len == json_string_length(j) &&
		    memcmp(v->s, json_string_value(j), v->len) == 0 &&
		    v->s[v->len] == '\0', "%s: %s differs", body, join_body_name(i));
	}
	json_decref(doc);
}

/* The verdicts of both parsers and the small one's say, for one body. */
static void
one_body(const char *body, size_t len, enum join_body want, int scanned,
    const char *user)
{
	struct join_fields f;
	json_error_t e1, e2;
	const char *u;
	json_t *doc;
	enum join_body got = join_body_parse(&f, body, len, &e1);
	enum join_body ref = join_body_jansson(body, len, &doc, &u, &e2);

	ck_assert_msg(got == want && ref == want, "%.*s: %d and jansson %d, "
	    "want %d", (int)len, body, got, ref, want);
	if (want == JOIN_BODY_BAD_JSON) {
		ck_assert_str_eq(e1.text, e2.text);
		ck_assert_int_eq(e1.line, e2.line);
	}
	same_as_jansson(body, len, &f);
	if (user == NULL)
		ck_assert_msg(f.user.type != JOIN_FIELD_STRING, "%s", body);
	else
		ck_assert_msg(f.user.type == JOIN_FIELD_STRING &&
		    strcmp(f.user.s, user) == 0, "%s: user %s", body, f.user.s);
	/* what the small parser takes has no tree behind it */
	ck_assert_msg(!scanned || f.doc == NULL, "%s went to jansson", body);
	join_body_clear(&f);
	ck_assert_msg(join_body_scan(&f, body, len) == scanned, "%.*s: "
	    "small parser says %d", (int)len, body, !scanned);
	json_decref(doc);
	join_body_clear(&f);
}

#define OK JOIN_BODY_OK
#define BAD_JSON JOIN_BODY_BAD_JSON
#define BAD_SHAPE JOIN_BODY_BAD_SHAPE
#define USER_TYPE JOIN_BODY_USER_TYPE
#define BAD_USER JOIN_BODY_BAD_USER

static const struct {
	const char *body;
	enum join_body want;
	int scanned;		/* taken by the small parser alone */
	const char *user;
} cases[] = {
	{ "", OK, 0, NULL },
	{ "{}", OK, 1, NULL },
	{ " \t\r\n{ \t\r\n} \r\n\t", OK, 1, NULL },
	{ "{\"user\":\"u-1234567\"}", OK, 1, "u-1234567" },
	{ " { \"user\" : \"ann\" } ", OK, 1, "ann" },
	{ "{\"user\":\"ann\",\"challenge\":\"q.20.1.r.t\",\"nonce\":\"9z\","
	    "\"invite\":\"a.b.c\"}", OK, 1, "ann" },
	{ "{\"invite\":\"a.b.c\" , \"nonce\":\"x\",\n\"challenge\":\"\"}",
	    OK, 1, NULL },
	/* every escape */
	{ "{\"user\":\"a\\\"b\\\\c\\/d\"}", OK, 1, "a\"b\\c/d" },
	{ "{\"user\":\"\\b\\f\\n\\r\\t\"}", BAD_USER, 1, "\b\f\n\r\t" },
	{ "{\"challenge\":\"\\b\\f\\n\\r\\t\\\"\",\"nonce\":\"1\"}", OK, 1,
	    NULL },
	{ "{\"user\":\"\\u0041\\u00e9\\u00C9\\u20ac\\uD55C\"}", OK, 1,
	    "A\xc3\xa9\xc3\x89\xe2\x82\xac" HAN },
	{ "{\"user\":\"\\u0001\"}", BAD_USER, 1, "\x01" },
	{ "{\"user\":\"\\u007f\\u0080\"}", BAD_USER, 1, "\x7f\xc2\x80" },
	{ "{\"user\":\"\\uFFFF\\uffFe\"}", OK, 1, "\xef\xbf\xbf\xef\xbf\xbe" },
	/* surrogate pairs, in either case, and raw UTF-8 */
	{ "{\"user\":\"\\uD83D\\uDE00\"}", OK, 1, GRIN },
	{ "{\"user\":\"\\ud83d\\ude00x\"}", OK, 1, GRIN "x" },
	{ "{\"user\":\"\\uDBFF\\uDFFF\"}", OK, 1, "\xf4\x8f\xbf\xbf" },
	{ "{\"user\":\"" HAN GRIN "\xc3\xa9\"}", OK, 1, HAN GRIN "\xc3\xa9" },
	/* what jansson refuses, in its words */
	{ "{\"user\":\"a\\u0000b\"}", BAD_JSON, 0, NULL },
	{ "{\"challenge\":\"\\u0000\",\"nonce\":\"1\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\uD83D\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\uD83Dx\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\uD83D\\u0041\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\uD83D\\uD83D\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\uDE00\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\u12G4\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\u12\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\x\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\\\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\xff\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\xc0\xaf\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\xed\xa0\x80\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\xf4\x90\x80\x80\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"\xe2\x82\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"a\x01\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"a\tb\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"a\",\"user\":\"b\"}", BAD_JSON, 0, NULL },
	{ "{\"nonce\":\"a\",\"challenge\":\"b\",\"nonce\":\"a\"}", BAD_JSON, 0,
	    NULL },
	{ "{\"user\":\"a\",\"us\\u0065r\":\"b\"}", BAD_JSON, 0, NULL },
	{ "{", BAD_JSON, 0, NULL },
	{ " ", BAD_JSON, 0, NULL },
	{ "{\"user\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"a\"", BAD_JSON, 0, NULL },
	{ "{\"user\":\"a", BAD_JSON, 0, NULL },
	{ "{\"user\":\"a\",}", BAD_JSON, 0, NULL },
	{ "{\"user\" \"a\"}", BAD_JSON, 0, NULL },
	{ "{\"user\":\"a\" \"nonce\":\"b\"}", BAD_JSON, 0, NULL },
	{ "{,}", BAD_JSON, 0, NULL },
	{ "{}}", BAD_JSON, 0, NULL },
	{ "{} x", BAD_JSON, 0, NULL },
	{ "\xef\xbb\xbf{}", BAD_JSON, 0, NULL },
	{ "{}\f", BAD_JSON, 0, NULL },
	{ "{'user':'a'}", BAD_JSON, 0, NULL },
	/* jansson's, and right */
	{ "{\"us\\u0065r\":\"ann\"}", OK, 0, "ann" },
	{ "[]", BAD_SHAPE, 0, NULL },
	{ "\"ann\"", BAD_SHAPE, 0, NULL },
	{ "null", BAD_SHAPE, 0, NULL },
	{ "{\"name\":\"ann\"}", BAD_SHAPE, 0, NULL },
	{ "{\"User\":\"ann\"}", BAD_SHAPE, 0, NULL },
	{ "{\"user\":\"ann\",\"x\":1}", BAD_SHAPE, 0, "ann" },
	{ "{\"user\":1}", USER_TYPE, 0, NULL },
	{ "{\"user\":null}", USER_TYPE, 0, NULL },
	{ "{\"user\":[\"a\"]}", USER_TYPE, 0, NULL },
	{ "{\"user\":{}}", USER_TYPE, 0, NULL },
	{ "{\"challenge\":1,\"nonce\":\"x\"}", OK, 0, NULL },
	{ "{\"invite\":true,\"user\":\"ann\"}", OK, 0, "ann" },
	{ "{\"user\":\"\"}", BAD_USER, 1, "" },
	{ "{\"user\":\"a\\nb\"}", BAD_USER, 1, "a\nb" },
};

START_TEST(test_table)
{
	one_body(cases[_i].body, strlen(cases[_i].body), cases[_i].want,
	    cases[_i].scanned, cases[_i].user);
}
END_TEST

/* Bytes a C string cannot hold, and the length bounding the body. */
START_TEST(test_lengths)
{
	static const char nul_in[] = "{\"user\":\"a\0b\"}";
	static const char nul_after[] = "{}\0";

	one_body(nul_in, sizeof nul_in - 1, BAD_JSON, 0, NULL);
	one_body(nul_after, sizeof nul_after - 1, BAD_JSON, 0, NULL);
	one_body("{}garbage", 2, OK, 1, NULL);
	one_body("{\"user\":\"ann\"}x", 14, OK, 1, "ann");
	one_body("{\"user\":\"ann\"}", 13, BAD_JSON, 0, NULL);
}
END_TEST

/* 128 characters are a user, 129 are not, however they are spelled. */
START_TEST(test_user_length)
{
	char body[2048], want[1024];

	for (int n = 127; n <= 129; n++) {
		enum join_body v = n <= 128 ? OK : BAD_USER;

		strcpy(body, "{\"user\":\"");
		want[0] = '\0';
		for (int i = 0; i < n; i++) {
			strcat(body, i % 2 ? "\\uD83D\\uDE00" : HAN);
			strcat(want, i % 2 ? GRIN : HAN);
		}
		strcat(body, "\"}");
		one_body(body, strlen(body), v, 1, want);
	}
}
END_TEST

/* A body longer than the small parser's buffer goes to jansson whole. */
START_TEST(test_long_body)
{
	char body[JOIN_BODY_SCAN_MAX + 64];
	size_t n;

	n = (size_t)snprintf(body, sizeof body, "{\"user\":\"ann\"%*s}",
	    JOIN_BODY_SCAN_MAX - 14, "");
	ck_assert_uint_eq(n, JOIN_BODY_SCAN_MAX);
	one_body(body, n, OK, 1, "ann");
	n = (size_t)snprintf(body, sizeof body, "{\"user\":\"ann\"%*s}",
	    JOIN_BODY_SCAN_MAX - 13, "");
	one_body(body, n, OK, 0, "ann");
}
END_TEST

/* Every rule of the join body, as the daemon and the fuzzer share them. */
START_TEST(test_jansson)
{
	static const struct {
		const char *body;
		enum join_body want;
		const char *user;
	} bodies[] = {
		{ "", JOIN_BODY_OK, NULL },
		{ "{}", JOIN_BODY_OK, NULL },
		{ "{\"user\":\"ann\"}", JOIN_BODY_OK, "ann" },
		{ " { \"user\" : \"" HAN "\" } ", JOIN_BODY_OK, HAN },
		{ "{", JOIN_BODY_BAD_JSON, NULL },
		{ "{}x", JOIN_BODY_BAD_JSON, NULL },
		{ "{\"user\":\"a\",\"user\":\"b\"}", JOIN_BODY_BAD_JSON, NULL },
		{ "[]", JOIN_BODY_BAD_SHAPE, NULL },
		{ "\"ann\"", JOIN_BODY_BAD_SHAPE, NULL },
		{ "null", JOIN_BODY_BAD_SHAPE, NULL },
		{ "{\"name\":\"ann\"}", JOIN_BODY_BAD_SHAPE, NULL },
		{ "{\"user\":\"ann\",\"x\":1}", JOIN_BODY_BAD_SHAPE, NULL },
		{ "{\"user\":1}", JOIN_BODY_USER_TYPE, NULL },
		{ "{\"user\":null}", JOIN_BODY_USER_TYPE, NULL },
		{ "{\"user\":\"\"}", JOIN_BODY_BAD_USER, NULL },
		{ "{\"user\":\"a\\nb\"}", JOIN_BODY_BAD_USER, NULL },
		/* jansson refuses an escaped NUL before valid_user sees it */
		{ "{\"user\":\"a\\u0000b\"}", JOIN_BODY_BAD_JSON, NULL },
	};
	json_error_t err;
	const char *user;
	json_t *doc;

	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		enum join_body got = join_body_jansson(bodies[i].body,
		    strlen(bodies[i].body), &doc, &user, &err);

		ck_assert_msg(got == bodies[i].want, "%s: %d, want %d",
		    bodies[i].body, got, bodies[i].want);
		if (bodies[i].user)
			ck_assert_str_eq(user, bodies[i].user);
		else
			ck_assert_ptr_null(user);
		ck_assert(bodies[i].body[0] != '\0' || doc == NULL);
		json_decref(doc);
	}
	/* the length bounds the body: no NUL terminator is needed */
	ck_assert_int_eq(join_body_jansson("{}garbage", 2, &doc, &user, &err),
	    JOIN_BODY_OK);
	json_decref(doc);
}
END_TEST

START_TEST(test_proof)
{
	static const struct {
		const char *body;
		enum join_proof want;
	} proofs[] = {
		{ "", JOIN_PROOF_OK },
		{ "{\"user\":\"ann\"}", JOIN_PROOF_OK },
		{ "{\"challenge\":\"c\",\"nonce\":\"n\"}", JOIN_PROOF_OK },
		{ "{\"challenge\":\"c\"}", JOIN_PROOF_PAIR },
		{ "{\"nonce\":\"n\"}", JOIN_PROOF_PAIR },
		{ "{\"nonce\":null}", JOIN_PROOF_PAIR },
		{ "{\"challenge\":\"\",\"nonce\":\"n\"}",
		    JOIN_PROOF_BAD_CHALLENGE },
		{ "{\"challenge\":1,\"nonce\":\"n\"}",
		    JOIN_PROOF_BAD_CHALLENGE },
		{ "{\"challenge\":\"c\",\"nonce\":\"\"}",
		    JOIN_PROOF_BAD_NONCE },
		{ "{\"challenge\":\"c\",\"nonce\":\"a-b\"}",
		    JOIN_PROOF_BAD_NONCE },
		{ "{\"challenge\":\"c\",\"nonce\":[]}", JOIN_PROOF_BAD_NONCE },
	};
	struct join_fields f;
	json_error_t err;

	for (size_t i = 0; i < sizeof proofs / sizeof proofs[0]; i++) {
		join_body_parse(&f, proofs[i].body, strlen(proofs[i].body),
		    &err);
		ck_assert_msg(join_body_proof(&f) == proofs[i].want, "%s",
		    proofs[i].body);
		join_body_clear(&f);
	}
}
END_TEST

/* A challenge of 200 characters is one, of 201 not. */
START_TEST(test_proof_length)
{
	char body[512];
	struct join_fields f;
	json_error_t err;

	for (int n = 200; n <= 201; n++) {
		snprintf(body, sizeof body, "{\"challenge\":\"%0*d\","
		    "\"nonce\":\"1\"}", n, 0);
		ck_assert_int_eq(join_body_parse(&f, body, strlen(body), &err),
		    OK);
		ck_assert_int_eq(join_body_proof(&f), n <= 200 ?
		    JOIN_PROOF_OK : JOIN_PROOF_BAD_CHALLENGE);
		join_body_clear(&f);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("join_body");
	TCase *tc = tcase_create("join_body");

	tcase_add_loop_test(tc, test_table, 0, sizeof cases / sizeof cases[0]);
	tcase_add_test(tc, test_lengths);
	tcase_add_test(tc, test_user_length);
	tcase_add_test(tc, test_long_body);
	tcase_add_test(tc, test_jansson);
	tcase_add_test(tc, test_proof);
	tcase_add_test(tc, test_proof_length);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
