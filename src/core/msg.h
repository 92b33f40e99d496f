/*
 * msg.h: error messages of the parsers (waitroom.conf, waitroomctl plan):
 * formatting into a caller's buffer, and quoting what the user wrote.
 */
#ifndef WR_MSG_H
#define WR_MSG_H

#include <stddef.h>

#define MSG_SHOWN_MAX 64	/* bytes of a bad value quoted in a message */
#define MSG_SHOWN_SIZE (MSG_SHOWN_MAX + 16)

/* printf into err (errlen bytes); nothing when err is NULL. */
void msg_set(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* s as it may be quoted in a message: control bytes and bytes that are not
 * UTF-8 escaped, cut short between characters, with "...". Returns buf. */
const char *msg_shown(char buf[MSG_SHOWN_SIZE], const char *s);

#endif
