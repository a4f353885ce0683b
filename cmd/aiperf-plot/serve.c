/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot --dashboard: serve the report folder over HTTP, one request at a time. */
#include "plot.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "util.h"

#define MAX_REQUEST 8192
#define MAX_FILE ((size_t)256 << 20)
#define READ_MS 2000

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int
listen_on(const char *host, int port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res, *a;
	char ps[16];
	int fd = -1, one = 1, rc;

	snprintf(ps, sizeof(ps), "%d", port);
	if ((rc = getaddrinfo(host, ps, &hints, &res)) != 0)
		return error("cannot resolve '%s': %s", host, gai_strerror(rc));
	for (a = res; a; a = a->ai_next) {
		if ((fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol)) < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 16) == 0)
			break;
		rc = errno;
		close(fd);
		fd = -1;
		errno = rc;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return error("cannot listen on %s port %d:", host, port);
	return fd;
}

static int
bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t n = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &n) < 0)
		return -1;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void
send_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = send(fd, s, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void
respond(int fd, int status, const char *type, const char *body, size_t n, int head)
{
	char h[256];
	int len;

	len = snprintf(h, sizeof(h),
		       "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		       "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
		       status, status == 200 ? "OK" : status == 404 ? "Not Found" :
		       status == 405 ? "Method Not Allowed" : "Bad Request", type, n);
	send_all(fd, h, (size_t)len);
	if (!head)
		send_all(fd, body, n);
}

static const char *
mime(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (!dot)
		return "application/octet-stream";
	if (!strcmp(dot, ".html"))
		return "text/html; charset=utf-8";
	if (!strcmp(dot, ".svg"))
		return "image/svg+xml";
	if (!strcmp(dot, ".png"))
		return "image/png";
	return "text/plain; charset=utf-8";
}

/* One path component of safe characters, not starting with a dot; the
 * length of it, 0 when there is none. */
static size_t
component(const char *s)
{
	size_t n = 0;

	if (*s == '.')
		return 0;
	while (s[n] && (strchr("-_.", s[n]) || (s[n] >= 'a' && s[n] <= 'z') ||
			(s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9')))
		n++;
	return n;
}

/* Only report.html, NAME.png, NAME.svg and data/NAME.{dat,gp}, and the
 * same under runs/RUN/ (a run's own plots): no "..". */
static int
safe_path(const char *p)
{
	const char *s = p;
	size_t n;

	if (!strncmp(s, "runs/", 5)) {
		s += 5;
		if (!(n = component(s)) || s[n] != '/')
			return 0;
		s += n + 1;
	}
	if (!strncmp(s, "data/", 5))
		s += 5;
	return (n = component(s)) && !s[n];
}

/* Read the request head (bounded in size and time) and answer it. */
static void
serve_one(int fd, const char *dir)
{
	char req[MAX_REQUEST + 1], method[16], target[1024], *body;
	const char *path;
	struct pollfd p = { fd, POLLIN, 0 };
	size_t n = 0, len;
	ssize_t r;
	int head;

	req[0] = '\0';
	while (n < MAX_REQUEST && !strstr(req, "\r\n\r\n")) {
		if (poll(&p, 1, READ_MS) <= 0)
			return;
		if ((r = recv(fd, req + n, MAX_REQUEST - n, 0)) <= 0)
			return;
		n += (size_t)r;
		req[n] = '\0';
	}
	if (sscanf(req, "%15s %1023s", method, target) != 2) {
		respond(fd, 400, "text/plain", "bad request\n", 12, 0);
		return;
	}
	head = !strcmp(method, "HEAD");
	if (!head && strcmp(method, "GET")) {
		respond(fd, 405, "text/plain", "method not allowed\n", 19, 0);
		return;
	}
	target[strcspn(target, "?#")] = '\0';
	path = target[0] == '/' ? target + 1 : target;
	if (!*path)
		path = "report.html";
	body = NULL;
	if (safe_path(path)) {
		char *file = xstrfmt("%s/%s", dir, path);

		body = util_readfile(file, MAX_FILE, &len);
		free(file);
	}
	if (!body) {
		respond(fd, 404, "text/plain", "not found\n", 10, head);
		return;
	}
	respond(fd, 200, mime(path), body, len, head);
	free(body);
}

int
serve_run(const char *host, int port, const char *dir, void (*rescan)(void *), void *arg,
	  int poll_s)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct pollfd p;
	int64_t next;
	int lfd, c;

	if ((lfd = listen_on(host, port)) < 0)
		return -1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr, "%s: serving http://%s%s%s:%d/ (the report in '%s'; Ctrl-C stops)\n",
		argv0, strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "",
		bound_port(lfd), dir);
	next = clock_now_ns() + (int64_t)poll_s * 1000000000;
	while (!stop) {
		p = (struct pollfd){ lfd, POLLIN, 0 };
		if (poll(&p, 1, 500) > 0 && (c = accept(lfd, NULL, NULL)) >= 0) {
			serve_one(c, dir);
			close(c);
		}
		if (!stop && clock_now_ns() >= next) {
			rescan(arg);
			next = clock_now_ns() + (int64_t)poll_s * 1000000000;
		}
	}
	close(lfd);
	fprintf(stderr, "%s: stopped\n", argv0);
	return 0;
}
