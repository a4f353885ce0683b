/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/cpu-floor.c: the least CPU a client can spend per streamed chunk,
 * for bench/cpu-per-chunk.sh. It does what any client must and nothing
 * else: conc keep-alive connections to 127.0.0.1:port, n streaming chat
 * requests in all, each chunk received as soon as it arrives and stamped
 * with one clock_gettime per receive, as aiperf-send stamps. No parsing but
 * counting "\n\n" (one per SSE message, [DONE] included) and finding the
 * end of the chunked body; nothing is kept or written.
 *
 * io "epoll": epoll_wait, then one read(2) of up to 64 KiB per readiness.
 * io "uring": aiperf-send's --io uring receive (lib/evloop.c): one
 * multishot receive per connection into a ring of 512 provided 8 KiB
 * buffers, on a DEFER_TASKRUN ring, waiting in io_uring_submit_and_wait.
 *
 * Usage: cpu-floor epoll|uring port conc n tokens
 * Prints "ok errors chunks user_s sys_s" (getrusage around the loop), the
 * Python client's line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct conn {
	int fd;
	char tail[8];		/* the last bytes read: an end may straddle reads */
	int ntail;
};

static char req[512];
static int reqlen;
static long left, ok, errs, chunks;
static volatile long stamp;	/* the clock reads are kept */

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

static double
secs(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int
dial(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));	/* as aiperf-send */
	return fd;
}

/* The next request on c, if any are left; 0 when none was sent. */
static int
issue(struct conn *c)
{
	if (!left)
		return 0;
	left--;
	if (write(c->fd, req, (size_t)reqlen) != reqlen)
		die("write");
	c->ntail = 0;
	return 1;
}

/* Count the messages in p[0..n) and whether the body ended there. */
static int
scan(struct conn *c, const char *p, long n)
{
	static const char end[] = "\r\n0\r\n\r\n";
	char t[16 + 65536];
	int m = c->ntail;

	/* A "\n\n" or the end may straddle the last read and this one. */
	memcpy(t, c->tail, (size_t)m);
	memcpy(t + m, p, (size_t)n);
	n += m;
	for (long i = m ? m - 1 : 0; i + 1 < n; i++)
		if (t[i] == '\n' && t[i + 1] == '\n')
			chunks++;
	int done = n >= 7 && !memcmp(t + n - 7, end, 7);
	c->ntail = n < 7 ? (int)n : 7;
	memcpy(c->tail, t + n - c->ntail, (size_t)c->ntail);
	return done;
}

/* One receive of n bytes (or the end, or an error) on c. */
static void
got(struct conn *c, const char *p, long n, long *busy)
{
	struct timespec ts;

	if (n <= 0) {
		errs++;
		close(c->fd);
		c->fd = -1;
		--*busy;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);	/* this receive's stamp */
	stamp = ts.tv_nsec;
	if (scan(c, p, n)) {
		ok++;
		if (!issue(c)) {
			close(c->fd);	/* ends its multishot receive too */
			c->fd = -1;
			--*busy;
		}
	}
}

static void
run_epoll(struct conn *cs, int conc, long busy)
{
	static char buf[65536];
	struct epoll_event evs[256];
	int ep = epoll_create1(0);

	for (int i = 0; i < conc; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &cs[i] };
		if (cs[i].fd >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &ev) < 0)
			die("epoll_ctl");
	}
	while (busy > 0) {
		int k = epoll_wait(ep, evs, 256, -1);
		if (k < 0 && errno != EINTR)
			die("epoll_wait");
		for (int i = 0; i < k; i++) {
			struct conn *c = evs[i].data.ptr;
			long n = read(c->fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			got(c, buf, n, &busy);
		}
	}
}

#define NBUF 512
#define BUFSZ (8 << 10)

static void
arm(struct io_uring *ring, struct conn *cs, int i)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe) {
		io_uring_submit(ring);
		sqe = io_uring_get_sqe(ring);
	}
	io_uring_prep_recv_multishot(sqe, cs[i].fd, NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = 0;
	io_uring_sqe_set_data64(sqe, (uint64_t)i);
}

static void
run_uring(struct conn *cs, int conc, long busy)
{
	struct io_uring ring;
	struct io_uring_params p = { .flags = IORING_SETUP_SINGLE_ISSUER |
		IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_CQSIZE, .cq_entries = 16384 };
	struct io_uring_cqe *cqe;
	int r;

	if ((r = io_uring_queue_init_params(1024, &ring, &p)) < 0)
		errno = -r, die("io_uring_queue_init_params");
	size_t brlen = NBUF * sizeof(struct io_uring_buf);
	struct io_uring_buf_ring *br = mmap(NULL, brlen, PROT_READ | PROT_WRITE,
					    MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	char *bufs = malloc((size_t)NBUF * BUFSZ);
	if (br == MAP_FAILED || !bufs)
		die("mmap");
	struct io_uring_buf_reg reg = { .ring_addr = (uintptr_t)br, .ring_entries = NBUF };
	if ((r = io_uring_register_buf_ring(&ring, &reg, 0)) < 0)
		errno = -r, die("io_uring_register_buf_ring");
	io_uring_buf_ring_init(br);
	for (int i = 0; i < NBUF; i++)
		io_uring_buf_ring_add(br, bufs + (size_t)i * BUFSZ, BUFSZ, (unsigned short)i,
				      io_uring_buf_ring_mask(NBUF), i);
	io_uring_buf_ring_advance(br, NBUF);
	for (int i = 0; i < conc; i++)
		if (cs[i].fd >= 0)
			arm(&ring, cs, i);
	while (busy > 0) {
		r = io_uring_submit_and_wait(&ring, 1);
		if (r < 0 && r != -EINTR)
			errno = -r, die("io_uring_submit_and_wait");
		while (io_uring_peek_cqe(&ring, &cqe) == 0) {
			int i = (int)cqe->user_data, res = cqe->res;
			unsigned f = cqe->flags, bid = f >> IORING_CQE_BUFFER_SHIFT;
			io_uring_cqe_seen(&ring, cqe);
			if (cs[i].fd >= 0 && res != -ENOBUFS)
				got(&cs[i], res > 0 ? bufs + (size_t)bid * BUFSZ : NULL, res, &busy);
			if (f & IORING_CQE_F_BUFFER) {
				io_uring_buf_ring_add(br, bufs + (size_t)bid * BUFSZ, BUFSZ,
						      (unsigned short)bid, io_uring_buf_ring_mask(NBUF), 0);
				io_uring_buf_ring_advance(br, 1);
			}
			if (!(f & IORING_CQE_F_MORE) && cs[i].fd >= 0)
				arm(&ring, cs, i);
		}
	}
	io_uring_queue_exit(&ring);
}

int
main(int argc, char **argv)
{
	if (argc != 6 || (strcmp(argv[1], "epoll") && strcmp(argv[1], "uring"))) {
		fprintf(stderr, "usage: cpu-floor epoll|uring port conc n tokens\n");
		return 2;
	}
	int port = (int)strtol(argv[2], NULL, 10), conc = (int)strtol(argv[3], NULL, 10);
	left = strtol(argv[4], NULL, 10);
	char body[256];
	int blen = snprintf(body, sizeof(body), "{\"model\":\"m\",\"messages\":[{\"role\":"
			    "\"user\",\"content\":\"hi\"}],\"stream\":true,"
			    "\"max_completion_tokens\":%ld}", strtol(argv[5], NULL, 10));
	reqlen = snprintf(req, sizeof(req), "POST /v1/chat/completions HTTP/1.1\r\n"
			  "Host: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
			  "Accept: text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
			  port, blen, body);
	struct conn *cs = calloc((size_t)conc, sizeof(*cs));
	struct rusage r0, r1;
	long busy = 0;	/* connections with a request in flight */

	getrusage(RUSAGE_SELF, &r0);
	for (int i = 0; i < conc; i++) {
		cs[i].fd = -1;
		if (left) {
			cs[i].fd = dial(port);
			issue(&cs[i]);
			busy++;
		}
	}
	if (argv[1][0] == 'e')
		run_epoll(cs, conc, busy);
	else
		run_uring(cs, conc, busy);
	getrusage(RUSAGE_SELF, &r1);
	printf("%ld %ld %ld %.3f %.3f\n", ok, errs, chunks,
	       secs(r1.ru_utime) - secs(r0.ru_utime), secs(r1.ru_stime) - secs(r0.ru_stime));
	return 0;
}
