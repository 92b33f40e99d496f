/*
 * fuzz_join.c: the join body's small parser (join_body.c) against
 * jansson's (join_body_jansson), on the input as a whole body.
 *
 * The invariants: nothing crashes or leaks; join_body_parse gives
 * join_body_jansson's verdict, bad_json's text and line, and the fields of
 * jansson's tree (type, length, bytes), every string NUL-terminated;
 * join_body_proof gives the verdict of the proof rules written here
 * again over jansson's tree; and what join_body_scan takes alone, jansson
 * takes as an object of exactly those string members, valid UTF-8 with
 * no NUL, with a verdict of OK or bad_user by valid_user.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "join_body.h"
#include "pow.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

#define FAIL(...) do { fprintf(stderr, "fuzz_join: " __VA_ARGS__); \
	fputc('\n', stderr); abort(); } while (0)

/* f's fields against doc's (NULL: no tree); how many are strings. */
static size_t
same_fields(const struct join_fields *f, const json_t *doc)
{
	size_t strings = 0;

	for (size_t i = 0; join_body_name(i) != NULL; i++) {
		const struct join_field *v = join_body_field(f, i);
		json_t *j = json_object_get(doc, join_body_name(i));

		if (j == NULL || !json_is_string(j)) {
			if (v->type != (j ? JOIN_FIELD_OTHER :
			    JOIN_FIELD_NONE) || v->s != NULL)
				FAIL("%s is %d, jansson's %s", join_body_name(i),
				    v->type, j ? "not a string" : "absent");
			continue;
		}
		if (v->type != JOIN_FIELD_STRING ||
		    v->len != json_string_length(j) ||
		    memcmp(v->s, json_string_value(j), v->len) != 0 ||
		    v->s[v->len] != '\0')
			FAIL("%s differs from jansson's", join_body_name(i));
		strings++;
	}
	return strings;
}

/* The proof rules of API.md over jansson's tree, written again. */
static enum join_proof
proof_of(const json_t *doc)
{
	json_t *c = json_object_get(doc, "challenge");
	json_t *n = json_object_get(doc, "nonce");

	if (c == NULL && n == NULL)
		return JOIN_PROOF_OK;
	if (c == NULL || n == NULL)
		return JOIN_PROOF_PAIR;
	if (!json_is_string(c) || json_string_length(c) < 1 ||
	    json_string_length(c) > POW_CHALLENGE_MAX ||
	    memchr(json_string_value(c), '\0', json_string_length(c)))
		return JOIN_PROOF_BAD_CHALLENGE;
	if (!json_is_string(n) || !pow_valid_nonce(json_string_value(n),
	    json_string_length(n)))
		return JOIN_PROOF_BAD_NONCE;
	return JOIN_PROOF_OK;
}

/* What the small parser took alone. */
static void
check_scanned(const struct join_fields *f, enum join_body ref,
    const json_t *doc, size_t strings)
{
	int user_ok = f->user.type == JOIN_FIELD_NONE ||
	    valid_user(f->user.s, f->user.len);

	if (!json_is_object(doc) || json_object_size(doc) != strings)
		FAIL("took a body jansson has as something else");
	if (ref != (user_ok ? JOIN_BODY_OK : JOIN_BODY_BAD_USER))
		FAIL("took a body jansson gives %d", ref);
	for (size_t i = 0; join_body_name(i) != NULL; i++) {
		const struct join_field *v = join_body_field(f, i);

		if (v->type == JOIN_FIELD_OTHER || (v->type ==
		    JOIN_FIELD_STRING && (strlen(v->s) != v->len ||
		    !utf8_valid(v->s, v->len))))
			FAIL("took %s of NUL, bad UTF-8 or another type",
			    join_body_name(i));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	const char *body = (const char *)in, *user;
	struct join_fields f, g;
	json_error_t e1, e2;
	enum join_body got, ref;
	json_t *doc;
	size_t strings;
	int scanned;

	got = join_body_parse(&f, body, size, &e1);
	ref = join_body_jansson(body, size, &doc, &user, &e2);
	if (got != ref)
		FAIL("verdict %d, jansson's %d", got, ref);
	if (ref == JOIN_BODY_BAD_JSON && (strcmp(e1.text, e2.text) != 0 ||
	    e1.line != e2.line))
		FAIL("bad_json says %s (line %d), jansson %s (line %d)",
		    e1.text, e1.line, e2.text, e2.line);
	strings = same_fields(&f, doc);
	if (ref == JOIN_BODY_OK && join_body_proof(&f) != proof_of(doc))
		FAIL("proof verdict %d, jansson's %d", join_body_proof(&f),
		    proof_of(doc));
	if (ref == JOIN_BODY_OK && (user == NULL ? f.user.s != NULL :
	    f.user.s == NULL || strcmp(user, f.user.s) != 0))
		FAIL("user differs from jansson's");
	scanned = join_body_scan(&g, body, size);
	if (scanned) {
		same_fields(&g, doc);
		check_scanned(&g, ref, doc, strings);
	}
	if (scanned != (f.doc == NULL && size > 0 &&
	    ref != JOIN_BODY_BAD_JSON))
		FAIL("scanned %d, but the parse %s jansson", scanned,
		    f.doc ? "went to" : "skipped");
	join_body_clear(&f);
	json_decref(doc);
	return 0;
}
