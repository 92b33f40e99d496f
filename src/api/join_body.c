/*
 * join_body.c: a join's body, read without a tree when it has the
 * documented shape. Nearly every join sends nothing, {} or
 * {"user":"..."}; jansson would allocate a tree for it, this reads it in
 * one pass into the caller's buffer.
 *
 * The invariant: what join_body_scan takes, jansson (join_body_jansson)
 * takes too, as an object with the same fields and the same strings; what
 * it cannot decide exactly and cheaply (a number, null, a nested value,
 * an unknown or escaped key, a duplicate, bad UTF-8, a control character,
 * \u0000, a lone surrogate, anything malformed, a body longer than the
 * buffer) it leaves to jansson, so that every refusal, and bad_json's
 * text and line, stays jansson's. tests/fuzz/fuzz_join.c checks both.
 */
#include <stddef.h>
#include <string.h>

#include "join_body.h"
#include "pow.h"
#include "validate.h"

/* The bytes left to read, and where decoded strings go. */
struct scan {
	const unsigned char *p, *end;
	char *out;
};

/* The documented fields, with where each goes in a struct join_fields. */
#define JOIN_KEY(name) { #name, sizeof #name - 1, \
	offsetof(struct join_fields, name) }
static const struct {
	const char *name;
	size_t len, off;
} join_keys[] = {
	JOIN_KEY(user), JOIN_KEY(challenge), JOIN_KEY(nonce), JOIN_KEY(invite)
};
#define JOIN_NKEYS (sizeof join_keys / sizeof join_keys[0])

static struct join_field *
join_field_at(struct join_fields *f, size_t i)
{
	return (struct join_field *)((char *)f + join_keys[i].off);
}

const char *
join_body_name(size_t i)
{
	return i < JOIN_NKEYS ? join_keys[i].name : NULL;
}

const struct join_field *
join_body_field(const struct join_fields *f, size_t i)
{
	return join_field_at((struct join_fields *)f, i);
}

static void
scan_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
	    *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

/* Is the next byte c? Then step over it. */
static int
scan_byte(struct scan *s, unsigned char c)
{
	if (s->p == s->end || *s->p != c)
		return 0;
	s->p++;
	return 1;
}

/* The 4 hex digits at s->p (upper or lower case) as *v; -1 if not. */
static int
scan_hex4(struct scan *s, unsigned *v)
{
	*v = 0;
	if (s->end - s->p < 4)
		return -1;
	for (int i = 0; i < 4; i++, s->p++) {
		unsigned c = *s->p;

		if (c >= '0' && c <= '9')
			*v = *v << 4 | (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v = *v << 4 | ((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return 0;
}

/*
 * The code point of a \u escape (s->p after the u), with its low half
 * when it is a high surrogate; -1 for U+0000 or a surrogate not in a
 * pair, which jansson refuses with its own words.
 */
static int
scan_unicode(struct scan *s, unsigned *cp)
{
	unsigned lo;

	if (scan_hex4(s, cp) == -1 || *cp == 0 ||
	    (*cp >= 0xdc00 && *cp <= 0xdfff))
		return -1;
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (!scan_byte(s, '\\') || !scan_byte(s, 'u') ||
	    scan_hex4(s, &lo) == -1 || lo < 0xdc00 || lo > 0xdfff)
		return -1;
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

static void
put_utf8(struct scan *s, unsigned cp)
{
	unsigned char *o = (unsigned char *)s->out;

	if (cp < 0x80)
		*o++ = cp;
	else if (cp < 0x800) {
		*o++ = 0xc0 | cp >> 6;
		*o++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*o++ = 0xe0 | cp >> 12;
		*o++ = 0x80 | (cp >> 6 & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	} else {
		*o++ = 0xf0 | cp >> 18;
		*o++ = 0x80 | (cp >> 12 & 0x3f);
		*o++ = 0x80 | (cp >> 6 & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	}
	s->out = (char *)o;
}

/* One escape, s->p after the backslash, decoded into the output. */
static int
scan_escape(struct scan *s)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned cp;

	if (scan_byte(s, 'u')) {
		if (scan_unicode(s, &cp) == -1)
			return -1;
		put_utf8(s, cp);
		return 0;
	}
	if (s->p == s->end || (e = memchr(from, *s->p, 8)) == NULL)
		return -1;
	*s->out++ = to[e - from];
	s->p++;
	return 0;
}

/*
 * A string value into *f, s->p after its opening quote: decoded into the
 * output and NUL-terminated. It never outgrows its source (an escape is
 * longer than what it stands for, and the quotes pay for the NUL), so a
 * buffer as long as the body holds every value.
 */
static int
scan_string(struct scan *s, struct join_field *f)
{
	size_t step;
	unsigned cp;

	f->s = s->out;
	while (s->p < s->end && *s->p != '"') {
		if (*s->p == '\\') {
			s->p++;
			if (scan_escape(s) == -1)
				return -1;
		} else if (*s->p < 0x20)
			return -1;
		else if (*s->p < 0x80)
			*s->out++ = *s->p++;
		else {
			if ((step = utf8_next(s->p, s->end - s->p, &cp)) == 0)
				return -1;
			memcpy(s->out, s->p, step);
			s->out += step, s->p += step;
		}
	}
	if (!scan_byte(s, '"'))
		return -1;
	f->type = JOIN_FIELD_STRING;
	f->len = (size_t)(s->out - f->s);
	*s->out++ = '\0';
	return 0;
}

/* The field a key names, spelled without escapes; NULL for any other. */
static struct join_field *
scan_key(struct scan *s, struct join_fields *f)
{
	size_t left = (size_t)(s->end - s->p), n;

	for (size_t i = 0; i < JOIN_NKEYS; i++) {
		n = join_keys[i].len;
		if (left >= n + 2 && s->p[0] == '"' &&
		    memcmp(s->p + 1, join_keys[i].name, n) == 0 &&
		    s->p[n + 1] == '"') {
			s->p += n + 2;
			return join_field_at(f, i);
		}
	}
	return NULL;
}

/* "key": "value", with a key not seen before. */
static int
scan_member(struct scan *s, struct join_fields *f)
{
	struct join_field *v = scan_key(s, f);

	if (v == NULL || v->type != JOIN_FIELD_NONE)
		return -1;
	scan_ws(s);
	if (!scan_byte(s, ':'))
		return -1;
	scan_ws(s);
	if (!scan_byte(s, '"'))
		return -1;
	return scan_string(s, v);
}

static void
fields_none(struct join_fields *f)
{
	for (size_t i = 0; i < JOIN_NKEYS; i++)
		*join_field_at(f, i) = (struct join_field){ JOIN_FIELD_NONE,
		    NULL, 0 };
}

int
join_body_scan(struct join_fields *f, const char *body, size_t len)
{
	struct scan s = { (const unsigned char *)body,
	    (const unsigned char *)body + len, f->buf };

	fields_none(f);
	if (len > sizeof f->buf)
		return 0;
	scan_ws(&s);
	if (!scan_byte(&s, '{'))
		return 0;
	scan_ws(&s);
	if (s.p < s.end && *s.p == '"') {
		do {
			scan_ws(&s);
			if (scan_member(&s, f) == -1)
				return 0;
			scan_ws(&s);
		} while (scan_byte(&s, ','));
	}
	if (!scan_byte(&s, '}'))
		return 0;
	scan_ws(&s);
	return s.p == s.end;
}

/* The fields of jansson's tree, borrowed from it. */
static void
fields_from_doc(struct join_fields *f)
{
	for (size_t i = 0; i < JOIN_NKEYS; i++) {
		struct join_field *v = join_field_at(f, i);
		json_t *j = json_object_get(f->doc, join_keys[i].name);

		if (j == NULL)
			*v = (struct join_field){ JOIN_FIELD_NONE, NULL, 0 };
		else if (!json_is_string(j))
			*v = (struct join_field){ JOIN_FIELD_OTHER, NULL, 0 };
		else
			*v = (struct join_field){ JOIN_FIELD_STRING,
			    json_string_value(j), json_string_length(j) };
	}
}

size_t
join_body_known(const json_t *doc)
{
	size_t n = 0;

	for (size_t i = 0; i < JOIN_NKEYS; i++)
		n += json_object_get(doc, join_keys[i].name) != NULL;
	return n;
}

enum join_body
join_body_jansson(const char *body, size_t len, json_t **doc,
    const char **user, json_error_t *err)
{
	json_t *u;

	*doc = NULL, *user = NULL;
	if (len == 0)
		return JOIN_BODY_OK;
	*doc = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
	    err);
	if (*doc == NULL)
		return JOIN_BODY_BAD_JSON;
	if (!json_is_object(*doc) || json_object_size(*doc) >
	    join_body_known(*doc))
		return JOIN_BODY_BAD_SHAPE;
	if ((u = json_object_get(*doc, "user")) == NULL)
		return JOIN_BODY_OK;
	if (!json_is_string(u))
		return JOIN_BODY_USER_TYPE;
	if (!valid_user(json_string_value(u), json_string_length(u)))
		return JOIN_BODY_BAD_USER;
	*user = json_string_value(u);
	return JOIN_BODY_OK;
}

enum join_body
join_body_parse(struct join_fields *f, const char *body, size_t len,
    json_error_t *err)
{
	enum join_body v;
	const char *user;

	f->doc = NULL;
	if (join_body_scan(f, body, len))
		return f->user.type == JOIN_FIELD_NONE ||
		    valid_user(f->user.s, f->user.len) ? JOIN_BODY_OK :
		    JOIN_BODY_BAD_USER;
	v = join_body_jansson(body, len, &f->doc, &user, err);
	fields_from_doc(f);
	return v;
}

void
join_body_clear(struct join_fields *f)
{
	json_decref(f->doc);
	f->doc = NULL;
}

enum join_proof
join_body_proof(const struct join_fields *f)
{
	const struct join_field *c = &f->challenge, *n = &f->nonce;

	if (c->type == JOIN_FIELD_NONE && n->type == JOIN_FIELD_NONE)
		return JOIN_PROOF_OK;
	if (c->type == JOIN_FIELD_NONE || n->type == JOIN_FIELD_NONE)
		return JOIN_PROOF_PAIR;
	if (c->type != JOIN_FIELD_STRING || c->len < 1 ||
	    c->len > POW_CHALLENGE_MAX || strlen(c->s) != c->len)
		return JOIN_PROOF_BAD_CHALLENGE;
	if (n->type != JOIN_FIELD_STRING || !pow_valid_nonce(n->s, n->len))
		return JOIN_PROOF_BAD_NONCE;
	return JOIN_PROOF_OK;
}
