/* SPDX-License-Identifier: Apache-2.0 */
/* jqprog's engine: a compiled jq program run in this process, or in a helper process under jqprog.h's limits. */
#define _GNU_SOURCE		/* posix_spawn_file_actions_addclosefrom_np, environ */
#include "json/jqexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json/jqprog.h"
#include "util.h"

/* AddressSanitizer's shadow memory takes terabytes of address space. */
#if defined(__SANITIZE_ADDRESS__)
#define NO_RLIMIT_AS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_RLIMIT_AS 1
#endif
#endif

/* The helper is aiperf-jqrun(1), its socket on descriptor JQEXEC_FD. */
#define HELPER "aiperf-jqrun"
#define HELPER_FD JQEXEC_FD
#define MSG_MAX 512

/*
 * The socket carries a struct ask and its n bytes (the program, then one
 * input per run), and for each a struct answer and its n bytes; both ends
 * are built from this file, so the structs go as they are.
 */
enum { Q_PROG, Q_RUN };
enum { A_OK, A_ERR, A_BIG, A_MEM, A_CPU };

struct ask {
	uint32_t kind;
	uint32_t pad;
	uint64_t n;
	uint64_t outmax;	/* Q_RUN: the output's cap in bytes */
};

struct answer {
	uint32_t status;
	uint32_t count;		/* A_OK: outputs (0, 1, 2) */
	uint64_t n;		/* A_OK: the first output; A_ERR: the message */
};

/* A run's limits for n input bytes (a MiB begun counts). */
static size_t
mem_limit(size_t n)
{
	size_t mib = (n + ((size_t)1 << 20) - 1) >> 20;

	return JQPROG_MEM_BASE + JQPROG_MEM_PER_BYTE * (mib << 20);
}

static long
cpu_ms(size_t n)
{
	return JQPROG_CPU_MS + (long)(n >> 20) * JQPROG_CPU_MS_MIB;
}

/* How long the caller waits on a helper: ten times the CPU time limit and
 * 10 s, in ms. */
static long
wall_ms(size_t n)
{
	return 10 * cpu_ms(n) + 10000;
}

static void
on_message(void *data, jv msg)
{
	char *m = data;

	msg = jq_format_error(msg);
	if (m && !m[0] && jv_get_kind(msg) == JV_KIND_STRING)
		snprintf(m, MSG_MAX, "%s", jv_string_value(msg));
	jv_free(msg);
}

/* libjq 1.6 runs `input` into a NULL callback (a crash): no inputs. */
static jv
no_input(jq_state *jq, void *data)
{
	(void)jq, (void)data;
	return jv_invalid();
}

jq_state *
jqexec_compile(const char *prog, char *msg, size_t msglen)
{
	char m[MSG_MAX] = "";
	jq_state *jq = jq_init();

	if (!jq) {
		snprintf(msg, msglen, "cannot start jq");
		return NULL;
	}
	jq_set_error_cb(jq, on_message, m);
	jq_set_input_cb(jq, no_input, NULL);
	if (!jq_compile(jq, prog)) {
		snprintf(msg, msglen, "%s", m[0] ? m : "jq: error: does not compile");
		jq_teardown(&jq);
		return NULL;
	}
	/* m goes out of scope: later messages are dropped */
	jq_set_error_cb(jq, on_message, NULL);
	return jq;
}

/* The message of an invalid jv (consumed), as jq prints it. */
static void
invalid_msg(jv v, const char *what, char *err, size_t errlen)
{
	jv m = jv_invalid_get_msg(v);

	if (jv_get_kind(m) == JV_KIND_STRING) {
		snprintf(err, errlen, "%s: %s", what, jv_string_value(m));
	} else if (jv_get_kind(m) != JV_KIND_NULL) {
		jv d = jv_dump_string(jv_copy(m), 0);

		snprintf(err, errlen, "%s: %s (not a string)", what, jv_string_value(d));
		jv_free(d);
	} else {
		snprintf(err, errlen, "%s", what);
	}
	jv_free(m);
}

/* Run jq over in[0..n): A_OK with the outputs counted (two at most) and
 * the first one's text in *s, or A_ERR with the message in msg. */
static uint32_t
eval(jq_state *jq, const char *in, size_t n, jv *s, uint32_t *count, char *msg)
{
	jv v = jv_parse_sized(in, (int)n);

	*count = 0;
	if (!jv_is_valid(v))
		return invalid_msg(v, "jq input is not JSON", msg, MSG_MAX), A_ERR;
	jq_start(jq, v, 0);
	while (*count < 2 && jv_is_valid(v = jq_next(jq))) {
		if (!(*count)++)
			*s = jv_dump_string(v, 0);
		else
			jv_free(v);
	}
	if (*count == 2)
		return A_OK;
	if (!*count && jv_invalid_has_msg(jv_copy(v)))
		return invalid_msg(v, "jq: error", msg, MSG_MAX), A_ERR;
	jv_free(v);
	return A_OK;
}

static int
too_large(char *err, size_t errlen, size_t max)
{
	snprintf(err, errlen, "jq output too large (over %zu bytes)", max);
	return errno = ENOBUFS, -1;
}

int
jqexec_here(jq_state *jq, const char *in, size_t n, struct buf *out,
	    char *err, size_t errlen)
{
	char msg[MSG_MAX];
	jv s = jv_invalid();
	uint32_t count;
	int rc;

	if (eval(jq, in, n, &s, &count, msg) == A_ERR) {
		snprintf(err, errlen, "%s", msg);
		return errno = EINVAL, -1;
	}
	if (!count)
		return 0;
	rc = buf_add(out, jv_string_value(s), (size_t)jv_string_length_bytes(jv_copy(s)));
	jv_free(s);
	return rc < 0 ? too_large(err, errlen, out->max - out->len) : (int)count;
}

/* Move all of the iov[0..n) bytes over socket fd; -1 with errno EAGAIN
 * when a timeout of the socket passed, EPIPE at its end (never SIGPIPE). */
static int
io_all(int fd, struct iovec *iov, int n, int out)
{
	for (; n && !iov->iov_len; iov++)
		n--;
	while (n) {
		struct msghdr m = { .msg_iov = iov, .msg_iovlen = (size_t)n };
		ssize_t k = out ? sendmsg(fd, &m, MSG_NOSIGNAL) : recvmsg(fd, &m, 0);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k ? -1 : (errno = EPIPE, -1);
		for (; n && (size_t)k >= iov->iov_len; iov++, n--)
			k -= (ssize_t)iov->iov_len;
		if (n && k) {
			iov->iov_base = (char *)iov->iov_base + k;
			iov->iov_len -= (size_t)k;
		}
	}
	return 0;
}

static int
io_one(int fd, void *b, size_t n, int out)
{
	struct iovec v = { b, n };

	return io_all(fd, &v, 1, out);
}

/* The caller's side. */

/* Close x's socket and reap its helper: the wait status, or -1. */
static int
reap(struct jqexec *x)
{
	int st = -1;

	if (x->fd >= 0)
		close(x->fd);
	x->fd = -1;
	if (x->pid > 0) {
		kill(x->pid, SIGKILL);
		while (waitpid(x->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	x->pid = 0;
	return st;
}

void
jqexec_stop(struct jqexec *x)
{
	reap(x);
}

/* The socket's timeouts for a run over n input bytes. */
static int
set_timeouts(struct jqexec *x, size_t n)
{
	long ms = wall_ms(n);
	struct timeval tv = { ms / 1000, ms % 1000 * 1000 };

	if (ms == x->wall_ms)
		return 0;
	if (setsockopt(x->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(x->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		return -1;
	x->wall_ms = ms;
	return 0;
}

/* Send a struct ask and its n bytes at s. */
static int
ask(struct jqexec *x, uint32_t kind, const char *s, size_t n, size_t outmax)
{
	struct ask q = { kind, 0, n, outmax };
	struct iovec v[2] = { { &q, sizeof(q) }, { (char *)s, n } };

	return io_all(x->fd, v, 2, 1);
}

/* aiperf-jqrun beside the running binary (both installed in one bin/), else
 * the first on PATH (a test program in build/tests), into exe. */
static const char *
helper_path(char *exe, size_t size)
{
	ssize_t k = readlink("/proc/self/exe", exe, size - 1);
	char *slash;

	if (k <= 0 || k >= (ssize_t)size - 1)
		return HELPER;
	exe[k] = '\0';
	if (!(slash = strrchr(exe, '/')) || (size_t)(slash - exe) + sizeof("/" HELPER) > size)
		return HELPER;
	memcpy(slash + 1, HELPER, sizeof(HELPER));
	return access(exe, X_OK) == 0 ? exe : HELPER;
}

/* Start aiperf-jqrun as x's helper on socket end fd. */
static int
spawn(struct jqexec *x, int fd, char *err, size_t errlen)
{
	char exe[4096], arg0[] = HELPER, *argv[] = { arg0, NULL };
	const char *path = helper_path(exe, sizeof(exe));
	posix_spawn_file_actions_t fa;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd, HELPER_FD);
	posix_spawn_file_actions_addclosefrom_np(&fa, HELPER_FD + 1);
	rc = posix_spawnp(&x->pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		x->pid = 0;
		return util_seterr(err, errlen, "cannot start the jq helper '%s': %s", path,
				   util_strerror(rc));
	}
	return 0;
}

static int
start(struct jqexec *x, const char *prog, char *err, size_t errlen)
{
	struct answer a = { 0, 0, 0 };
	int sv[2], fd, rc;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return util_seterr(err, errlen, "cannot start the jq helper: %s",
				   util_strerror(errno));
	/* dup2(fd, fd) would keep FD_CLOEXEC */
	if (sv[1] == HELPER_FD && (fd = fcntl(sv[1], F_DUPFD_CLOEXEC, HELPER_FD + 1)) >= 0) {
		close(sv[1]);
		sv[1] = fd;
	}
	x->fd = sv[0];
	x->wall_ms = 0;
	rc = spawn(x, sv[1], err, errlen);
	close(sv[1]);
	if (rc < 0)
		return jqexec_stop(x), -1;
	if (set_timeouts(x, 0) < 0 || ask(x, Q_PROG, prog, strlen(prog), 0) < 0 ||
	    io_one(x->fd, &a, sizeof(a), 0) < 0 || a.status != A_OK) {
		jqexec_stop(x);
		return util_seterr(err, errlen, "cannot start the jq helper: it did not "
				   "take the program");
	}
	return 0;
}

/* The helper ended a run (status) or did not answer: reap it, say why. */
static int
lost(struct jqexec *x, uint32_t status, size_t n, char *err, size_t errlen)
{
	int timedout = errno == EAGAIN || errno == EWOULDBLOCK;
	int st = reap(x);

	if (status == A_MEM)
		return util_seterr(err, errlen, "jq: the program passed its memory limit "
				   "(%zu MiB: 256 MiB and 16 MiB a MiB of its input, "
				   "which was %zu bytes)", mem_limit(n) >> 20, n),
		       errno = ENOMEM, -1;
	if (status == A_CPU)
		return util_seterr(err, errlen, "jq: the program passed its CPU time limit "
				   "(%ld ms: 2 s and 64 ms a MiB of its input, which was "
				   "%zu bytes)", cpu_ms(n), n), errno = ETIME, -1;
	if (timedout)
		snprintf(err, errlen, "jq: the helper running the program gave no answer "
			 "in %ld s", wall_ms(n) / 1000);
	else if (st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL)
		snprintf(err, errlen, "jq: the helper running the program died of signal "
			 "SIG%s", sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?");
	else
		snprintf(err, errlen, "jq: the helper running the program ended");
	return errno = EIO, -1;
}

/* Take the answer a of a run over n input bytes. */
static int
take(struct jqexec *x, const struct answer *a, size_t n, struct buf *out,
     char *err, size_t errlen)
{
	char m[MSG_MAX];

	if (a->status == A_OK && a->n <= out->max - out->len && a->count <= 2) {
		if (!a->n)
			return (int)a->count;
		if (buf_grow(out, a->n) < 0 || io_one(x->fd, out->s + out->len, a->n, 0) < 0)
			return lost(x, A_OK, n, err, errlen);
		out->len += a->n;
		out->s[out->len] = '\0';
		return (int)a->count;
	}
	if (a->status == A_ERR && a->n < MSG_MAX) {
		if (io_one(x->fd, m, a->n, 0) < 0)
			return lost(x, A_OK, n, err, errlen);
		m[a->n] = '\0';
		snprintf(err, errlen, "%s", m);
		return errno = EINVAL, -1;
	}
	if (a->status == A_BIG)
		return too_large(err, errlen, out->max - out->len);
	return lost(x, a->status, n, err, errlen);
}

int
jqexec_run(struct jqexec *x, const char *prog, const char *in, size_t n,
	   struct buf *out, char *err, size_t errlen)
{
	struct answer a = { 0, 0, 0 };

	if (!x->pid && start(x, prog, err, errlen) < 0)
		return errno = EIO, -1;
	/* a helper that stopped early (its memory limit) may have said why */
	if (set_timeouts(x, n) < 0 ||
	    (ask(x, Q_RUN, in, n, out->max - out->len) < 0 && errno != EPIPE) ||
	    io_one(x->fd, &a, sizeof(a), 0) < 0)
		return lost(x, A_OK, n, err, errlen);
	return take(x, &a, n, out, err, errlen);
}

/* The helper's side: blocking I/O on HELPER_FD; libc's allocator failing
 * is the memory limit. */

static int
answer(uint32_t status, uint32_t count, const char *s, size_t n)
{
	struct answer a = { status, count, n };
	struct iovec v[2] = { { &a, sizeof(a) }, { (char *)s, n } };

	return io_all(HELPER_FD, v, 2, 1);
}

/* libjq's out-of-memory handler and SIGPROF's: the run passed a limit
 * (both async-signal-safe). */
static void
on_nomem(void *data)
{
	(void)data;
	(void)!answer(A_MEM, 0, NULL, 0);
	_exit(0);
}

static void
on_cpu(int sig)
{
	(void)sig;
	(void)!answer(A_CPU, 0, NULL, 0);
	_exit(0);
}

/* The address space mapped now, in bytes (0 when unknown). */
static size_t
vm_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	char line[128] = "";
	unsigned long long pages;
	char *end;

	if (f && !fgets(line, sizeof(line), f))
		line[0] = '\0';
	if (f)
		fclose(f);
	errno = 0;
	pages = strtoull(line, &end, 10);
	if (errno || end == line)
		return 0;
	return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* Arm the run's CPU timer, and set its address space limit when it
 * differs from *as. */
static void
set_limits(size_t base, size_t n, size_t *as)
{
	struct itimerval t = { { 0, 0 }, { cpu_ms(n) / 1000, cpu_ms(n) % 1000 * 1000 } };
#ifndef NO_RLIMIT_AS
	struct rlimit r;

	if (base && base + mem_limit(n) != *as && getrlimit(RLIMIT_AS, &r) == 0) {
		r.rlim_cur = *as = base + mem_limit(n);
		if (r.rlim_max != RLIM_INFINITY && r.rlim_cur > r.rlim_max)
			r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_AS, &r);
	}
#else
	(void)base, (void)as;
#endif
	setitimer(ITIMER_PROF, &t, NULL);
}

/* One run, answered; the timer is off before the answer goes. */
static int
run_one(jq_state *jq, const char *in, size_t n, size_t outmax)
{
	const struct itimerval off = { { 0, 0 }, { 0, 0 } };
	char msg[MSG_MAX];
	jv s = jv_invalid();
	uint32_t count, st = eval(jq, in, n, &s, &count, msg);
	size_t len;
	int rc;

	setitimer(ITIMER_PROF, &off, NULL);
	if (st == A_ERR)
		return answer(A_ERR, 0, msg, strlen(msg));
	if (!count)
		return answer(A_OK, 0, NULL, 0);
	len = (size_t)jv_string_length_bytes(jv_copy(s));
	if (len > outmax)
		rc = answer(A_BIG, 0, NULL, 0);
	else
		rc = answer(A_OK, count, jv_string_value(s), len);
	jv_free(s);
	return rc;
}

/* A request's n bytes, NUL-terminated, or NULL at the socket's end. */
static char *
take_bytes(uint64_t n)
{
	char *s;

	if (n > (uint64_t)INT32_MAX)
		return NULL;
	if (!(s = malloc((size_t)n + 1)))
		on_nomem(NULL);
	if (io_one(HELPER_FD, s, (size_t)n, 0) < 0) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	return s;
}

int
jqexec_serve(void)
{
	struct sigaction sa;
	struct ask q = { 0, 0, 0, 0 };
	char m[MSG_MAX], *s;
	jq_state *jq;
	size_t base, as = 0;
	int rc;

	if (io_one(HELPER_FD, &q, sizeof(q), 0) < 0 || q.kind != Q_PROG ||
	    !(s = take_bytes(q.n)))
		return 1;
	jq = jqexec_compile(s, m, sizeof(m));
	free(s);
	if (!jq)
		return answer(A_ERR, 0, m, strlen(m)), 1;
	/* a crash of libjq (a value nested a million deep) leaves no core */
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
	/* the caller's thread may have blocked it, and exec keeps masks */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_cpu;
	sigaction(SIGPROF, &sa, NULL);
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGPROF);
	sigprocmask(SIG_UNBLOCK, &sa.sa_mask, NULL);
	jq_set_nomem_handler(jq, on_nomem, NULL);
	base = vm_bytes();
	if (answer(A_OK, 0, NULL, 0) < 0)
		return 1;
	while (io_one(HELPER_FD, &q, sizeof(q), 0) == 0 && q.kind == Q_RUN) {
		set_limits(base, (size_t)q.n, &as);
		if (!(s = take_bytes(q.n)))
			break;
		rc = run_one(jq, s, (size_t)q.n, (size_t)q.outmax);
		free(s);
		if (rc < 0)
			break;
	}
	jq_teardown(&jq);
	return 0;
}
