/* listener.c: listening sockets shared by port between workers. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conf.h"
#include "listener.h"

#define LISTEN_BACKLOG 4096

static int
listener_addr(const char *addr, int port_override, struct sockaddr_storage *ss,
    socklen_t *len)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[CONF_ADDR_MAX];
	int port;

	if (conf_addr_split(addr, host, sizeof host, &port) == -1 || port < 0)
		return -1;
	if (port_override >= 0)
		port = port_override;
	memset(ss, 0, sizeof *ss);
	if (strcmp(host, "localhost") == 0)
		strcpy(host, "127.0.0.1");
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
		*len = sizeof *in4;
		return 0;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*len = sizeof *in6;
		return 0;
	}
	return -1;
}

static int
listener_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return -1;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

int
listener_open(const char *addr, int port_override, int shared,
    int listen_now, int *port, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	if (listener_addr(addr, port_override, &ss, &len) == -1) {
		snprintf(err, errlen, "listen address '%s' is not host:port "
		    "with a numeric host", addr);
		return -1;
	}
	if ((fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) == -1)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == -1 ||
	    (shared && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one,
	    sizeof one) == -1) ||
	    bind(fd, (struct sockaddr *)&ss, len) == -1 ||
	    (listen_now && listen(fd, LISTEN_BACKLOG) == -1) ||
	    (*port = listener_port(fd)) < 0)
		goto fail;
	return fd;
fail:
	snprintf(err, errlen, "cannot listen on %s: %s", addr, strerror(errno));
	if (fd != -1)
		close(fd);
	return -1;
}
