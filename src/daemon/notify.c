/* notify.c: the notify protocol without libsystemd; see notify.h. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "notify.h"

/* Fill sa from NOTIFY_SOCKET; 0: not set, -1: unusable, else its length. */
static socklen_t
notify_addr(struct sockaddr_un *sa, int *bad)
{
	const char *path = getenv("NOTIFY_SOCKET");
	size_t len;

	*bad = 0;
	if (path == NULL || *path == '\0')
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof sa->sun_path) {
		*bad = 1;
		return 0;
	}
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, len);
	if (path[0] == '@')
		sa->sun_path[0] = '\0';	/* the abstract namespace */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
}

int
notify_send(const char *text)
{
	struct sockaddr_un sa;
	socklen_t salen;
	ssize_t r;
	int fd, bad;

	if ((salen = notify_addr(&sa, &bad)) == 0)
		return bad ? -1 : 0;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1)
		return -1;
	r = sendto(fd, text, strlen(text), MSG_NOSIGNAL,
	    (struct sockaddr *)&sa, salen);
	close(fd);
	return r == (ssize_t)strlen(text) ? 0 : -1;
}

int
notify_reloading(void)
{
	char text[96];

	snprintf(text, sizeof text, "RELOADING=1\nMONOTONIC_USEC=%lld",
	    clock_mono_us());
	return notify_send(text);
}

int
notify_status(const char *fmt, ...)
{
	char text[256] = "STATUS=";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text + 7, sizeof text - 7, fmt, ap);
	va_end(ap);
	text[strcspn(text, "\n")] = '\0';	/* one line */
	return notify_send(text);
}
