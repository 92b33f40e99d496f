/*
 * notify.h: the service manager's notify protocol (sd_notify), spoken
 * directly: one datagram to $NOTIFY_SOCKET ("/path" or "@abstract").
 * Without NOTIFY_SOCKET every call does nothing. Never blocks.
 */
#ifndef WR_NOTIFY_H
#define WR_NOTIFY_H

/* Send text such as "READY=1"; -1 when it could not be sent. */
int notify_send(const char *text);

/* "RELOADING=1" with the MONOTONIC_USEC= newer managers ask for. */
int notify_reloading(void);

/* "STATUS=..." from a format, one line. */
int notify_status(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

#endif
