/*
 * join_body.h: the body of a join, {"user", "challenge", "nonce",
 * "invite"} (each an optional string), as fields the handler reads.
 * The documented body is parsed here in one pass without a tree; anything
 * else goes to jansson (join_body_jansson), whose verdicts are the
 * answers. The rules of each field are here too, so a join's body is
 * checked by this module alone.
 */
#ifndef WR_JOIN_BODY_H
#define WR_JOIN_BODY_H

#include <stddef.h>

#include <jansson.h>

/* Bytes of body the small parser takes; a longer one goes to jansson. */
#define JOIN_BODY_SCAN_MAX 4096

enum join_field_type {
	JOIN_FIELD_NONE,	/* not in the body */
	JOIN_FIELD_STRING,
	JOIN_FIELD_OTHER	/* a number, null, an array...: s is NULL */
};

struct join_field {
	enum join_field_type type;
	const char *s;	/* NUL-terminated, len bytes; NULL unless a string */
	size_t len;
};

/*
 * A parsed body. It lives on the caller's stack (a join allocates
 * nothing for its body), so there is no _new: join_body_parse fills it
 * and join_body_clear releases what the jansson path may hold. The
 * strings are borrowed from it.
 */
struct join_fields {
	struct join_field user, challenge, nonce, invite;
	json_t *doc;		/* jansson's tree when it parsed the body */
	char buf[JOIN_BODY_SCAN_MAX];	/* the small parser's strings */
};

enum join_body {
	JOIN_BODY_OK,
	JOIN_BODY_BAD_JSON,	/* not JSON: err says where */
	JOIN_BODY_BAD_SHAPE,	/* not an object, or a field it may not carry */
	JOIN_BODY_USER_TYPE,	/* user is not a string */
	JOIN_BODY_BAD_USER	/* user fails valid_user */
};

/*
 * The body's verdict, as join_body_jansson gives it, and its fields in *f
 * (whatever the verdict; all NONE for an empty body or one that is not an
 * object). *err says where when JOIN_BODY_BAD_JSON. Call join_body_clear
 * after, whatever the verdict.
 */
enum join_body join_body_parse(struct join_fields *f, const char *body,
    size_t len, json_error_t *err);
/*
 * The documented fields by number, from 0 (for tests that walk them all):
 * the i-th's name (NULL past the last), and the i-th field of f.
 */
const char *join_body_name(size_t i);
const struct join_field *join_body_field(const struct join_fields *f,
    size_t i);

/* Release what join_body_parse kept (jansson's tree). */
void join_body_clear(struct join_fields *f);

/*
 * The body (len bytes, 0: none) parsed by jansson: join_body_parse's
 * reference and fallback. *doc is the parsed body for the caller to
 * json_decref (NULL when none), even on error; *user, borrowed from *doc,
 * is NULL when none or on error.
 */
enum join_body join_body_jansson(const char *body, size_t len, json_t **doc,
    const char **user, json_error_t *err);
/* How many of the fields a join may carry (doc/api.md) doc has. */
size_t join_body_known(const json_t *doc);

/*
 * The small parser alone: 1 when body is an object whose members are
 * only distinct documented keys with string values (JSON whitespace and
 * escapes, valid UTF-8, no \u0000), with *f filled; 0 when it cannot
 * say, and jansson must. Never allocates.
 */
int join_body_scan(struct join_fields *f, const char *body, size_t len);

enum join_proof {
	JOIN_PROOF_OK,
	JOIN_PROOF_PAIR,		/* challenge or nonce without the other */
	JOIN_PROOF_BAD_CHALLENGE,	/* not a string of 1 to 200, or a NUL */
	JOIN_PROOF_BAD_NONCE		/* not 1 to 32 ASCII letters or digits */
};

/* The proof of work's fields of a good body: when JOIN_PROOF_OK, the
 * challenge and the nonce are both strings or both NONE. */
enum join_proof join_body_proof(const struct join_fields *f);

#endif
