/* SPDX-License-Identifier: Apache-2.0 */
/* Run one untrusted python3 program under bubblewrap, with rlimits, a wall clock and capped output. */
#define _DEFAULT_SOURCE	/* setgroups, syscall(SYS_close_range) */
#include "accuracy/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "util.h"

#define MIB (1024ull * 1024)
#define PYTHON "/usr/bin/python3"
#define MAX_ARGS 96

/*
 * The code under test runs inside a prelude that first tells the parent
 * it started (fd 4: bwrap set up the sandbox, so a failure before that
 * is bwrap's), then lowers RLIMIT_NPROC inside the user namespace, then
 * runs /prog.py as __main__.
 */
static const char prelude_fmt[] =
	"import os,sys,resource as R\n"
	"os.write(4,b'1');os.close(4)\n"
	"h=R.getrlimit(R.RLIMIT_NPROC)[1]\n"
	"n=%u if h<0 or h>%u else h\n"
	"R.setrlimit(R.RLIMIT_NPROC,(n,n))\n"
	"sys.argv=['/prog.py']\n"
	"g={'__name__':'__main__','__file__':'/prog.py',"
	"'__builtins__':__builtins__}\n"
	"del os,sys,R,h,n\n"
	"with open('/prog.py','rb') as f:\n"
	" c=compile(f.read(),'/prog.py','exec')\n"
	"del f\n"
	"exec(c,g)\n";

void
sandbox_limits_default(struct sandbox_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->wall_ms = 10000;
	l->cpu_s = 10;
	l->mem_bytes = 4096 * MIB;	/* lighteval's reliability_guard says 4GB */
	l->fsize_bytes = 16 * MIB;
	l->tmpfs_bytes = 64 * MIB;
	l->nofile = 64;
	l->nproc = 64;
	l->out_max = 1 * MIB;
	l->err_max = 64 * 1024;
}

uid_t
sandbox_uid(void)
{
	/* a uid no account has, one per calling process, so that the
	 * process count RLIMIT_NPROC sees is this sandbox's own */
	return (uid_t)(0x6A000000u + ((unsigned)getpid() & 0xFFFFu));
}

void
sandbox_result_release(struct sandbox_result *r)
{
	buf_release(&r->out);
	buf_release(&r->err);
}

/* bwrap's path: as given when it has a '/', else the first in PATH. */
static int
find_bwrap(const char *name, char *out, size_t outlen, char *err, size_t errlen)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		if ((size_t)snprintf(out, outlen, "%s", name) >= outlen)
			return util_seterr(err, errlen, "bwrap path too long");
		return 0;
	}
	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n > 0 && (size_t)snprintf(out, outlen, "%.*s/%s", (int)n, path,
					      name) < outlen &&
		    access(out, X_OK) == 0)
			return 0;
		path += n + (path[n] == ':');
	}
	return util_seterr(err, errlen, "cannot find '%s' in PATH "
			   "(install the bubblewrap package)", name);
}

/* A read-only descriptor on an unlinked temporary file holding p[0..n). */
static int
tmpfile_with(const char *p, size_t n, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	int wfd, rfd = -1;

	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/aiperf-sandbox.XXXXXX", dir) >=
	    sizeof(path))
		return util_seterr(err, errlen, "TMPDIR too long");
	wfd = mkstemp(path);
	if (wfd < 0)
		return util_seterr(err, errlen, "cannot create a file in '%s': %s",
				   dir, util_strerror(errno));
	while (n > 0) {
		ssize_t k = write(wfd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			util_seterr(err, errlen, "cannot write '%s': %s", path,
				    util_strerror(k < 0 ? errno : ENOSPC));
			goto out;
		}
		p += k;
		n -= (size_t)k;
	}
	rfd = open(path, O_RDONLY | O_CLOEXEC);
	if (rfd < 0)
		util_seterr(err, errlen, "cannot open '%s': %s", path, util_strerror(errno));
out:
	unlink(path);
	close(wfd);
	return rfd;
}

struct argv {
	const char *v[MAX_ARGS];
	int n;
	char links[6][PATH_MAX];
	char size[32];
	char prelude[sizeof(prelude_fmt) + 64];
};

static void
add(struct argv *a, const char *s)
{
	if (a->n < MAX_ARGS - 1)
		a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void
add2(struct argv *a, const char *x, const char *y, const char *z)
{
	add(a, x);
	add(a, y);
	if (z)
		add(a, z);
}

/* /lib, /bin, ...: the same symlinks into /usr (merged /usr), or
 * read-only binds where they are directories. */
static void
add_root_links(struct argv *a)
{
	static const char *const names[] = { "/lib", "/lib32", "/lib64", "/libx32",
					     "/bin", "/sbin" };
	struct stat st;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (lstat(names[i], &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			ssize_t k = readlink(names[i], a->links[i], PATH_MAX - 1);

			if (k <= 0)
				continue;
			a->links[i][k] = '\0';
			add2(a, "--symlink", a->links[i], names[i]);
		} else if (S_ISDIR(st.st_mode)) {
			add2(a, "--ro-bind", names[i], names[i]);
		}
	}
}

static void
build_argv(struct argv *a, const char *bwrap, const struct sandbox_limits *l)
{
	a->n = 0;
	add(a, bwrap);
	add2(a, "--unshare-all", "--unshare-user", "--disable-userns");
	add2(a, "--die-with-parent", "--new-session", NULL);
	add2(a, "--hostname", "sandbox", NULL);
	add2(a, "--ro-bind", "/usr", "/usr");
	add_root_links(a);
	add2(a, "--proc", "/proc", NULL);
	add2(a, "--dev", "/dev", NULL);
	snprintf(a->size, sizeof(a->size), "%llu", (unsigned long long)l->tmpfs_bytes);
	add2(a, "--size", a->size, NULL);
	add2(a, "--tmpfs", "/w", NULL);
	add2(a, "--ro-bind-data", "3", "/prog.py");
	add2(a, "--remount-ro", "/dev", NULL);
	add2(a, "--remount-ro", "/", NULL);
	add2(a, "--chdir", "/w", NULL);
	add(a, "--clearenv");
	add2(a, "--setenv", "PATH", "/usr/bin:/bin");
	add2(a, "--setenv", "HOME", "/w");
	add2(a, "--setenv", "TMPDIR", "/w");
	add2(a, "--setenv", "LANG", "C.UTF-8");
	add2(a, "--setenv", "OMP_NUM_THREADS", "1");
	add(a, "--");
	snprintf(a->prelude, sizeof(a->prelude), prelude_fmt, l->nproc, l->nproc);
	add2(a, PYTHON, "-I", "-c");
	add(a, a->prelude);
}

static void
child_limit(int res, rlim_t v)
{
	struct rlimit rl = { v, v };

	setrlimit(res, &rl);
}

/*
 * After fork: only async-signal-safe calls. fds[]: stdin, stdout, stderr,
 * the program, the started mark; errfd reports a failure's errno.
 */
_Noreturn static void
child(const char *bwrap, char *const argv[], const int fds[5], int errfd,
      const struct sandbox_limits *l, pid_t parent)
{
	static char path[] = "PATH=/usr/bin:/bin";
	char *const envp[] = { path, NULL };
	struct sigaction sa;
	sigset_t none;
	int hi[5], e;

	setpgid(0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* out of the way of 0..5 first, then into place */
	for (int i = 0; i < 5; i++)
		hi[i] = fcntl(fds[i], F_DUPFD, 10);
	errfd = fcntl(errfd, F_DUPFD_CLOEXEC, 10);
	for (int i = 0; i < 5; i++)
		if (hi[i] < 0 || dup2(hi[i], i) < 0)
			goto fail;
	if (errfd < 0 || dup2(errfd, 5) < 0 || fcntl(5, F_SETFD, FD_CLOEXEC) < 0)
		_exit(127);
	errfd = 5;
	if (syscall(SYS_close_range, 6u, ~0u, 0u) < 0)
		for (int fd = 6; fd < 65536; fd++)
			close(fd);
	child_limit(RLIMIT_CORE, 0);
	child_limit(RLIMIT_AS, (rlim_t)l->mem_bytes);
	child_limit(RLIMIT_FSIZE, (rlim_t)l->fsize_bytes);
	child_limit(RLIMIT_NOFILE, (rlim_t)l->nofile);
	{
		struct rlimit cpu = { l->cpu_s, (rlim_t)l->cpu_s + 1 };

		setrlimit(RLIMIT_CPU, &cpu);
	}
	if (geteuid() == 0) {
		uid_t u = sandbox_uid();

		child_limit(RLIMIT_NPROC, (rlim_t)l->nproc);
		if (setgroups(0, NULL) < 0 || setgid((gid_t)u) < 0 || setuid(u) < 0 ||
		    getuid() == 0 || geteuid() == 0)
			goto fail;
	}
	/* a change of credentials clears it; set it last */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		goto fail;
	execve(bwrap, argv, envp);
fail:
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static int
cloexec_pipe(int p[2])
{
	if (pipe(p) < 0)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Append what fd has to b, up to its cap; -1 at EOF or error. */
static int
drain(int fd, struct buf *b, bool *truncated)
{
	char chunk[65536];
	ssize_t k = read(fd, chunk, sizeof(chunk));

	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (k <= 0)
		return -1;
	size_t room = b->max - b->len, take = (size_t)k < room ? (size_t)k : room;

	if (take < (size_t)k)
		*truncated = true;
	if (take > 0 && buf_add(b, chunk, take) < 0)
		*truncated = true;
	return 0;
}

struct run {
	pid_t pid;
	int fd[3];	/* stdout, stderr, mark */
	bool started;
	bool exited;
	int status;
};

/* The prelude's byte on fd 4: the program started. */
static int
mark(struct run *u)
{
	char c;
	ssize_t k = read(u->fd[2], &c, 1);

	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (k == 1)
		u->started = true;
	return k == 1 ? 0 : -1;
}

static void
kill_run(struct run *u)
{
	kill(-u->pid, SIGKILL);
	kill(u->pid, SIGKILL);
}

/* Read the outputs until the program is gone and its pipes closed, or the
 * wall clock is out. */
static void
supervise(struct run *u, const struct sandbox_limits *l, struct sandbox_result *r)
{
	int64_t start = clock_mono_ns(), deadline = start + l->wall_ms * 1000000;

	for (;;) {
		struct pollfd p[3];
		int np = 0, idx[3];
		int64_t now = clock_mono_ns();

		if (u->exited && u->fd[0] < 0 && u->fd[1] < 0 && u->fd[2] < 0)
			break;
		if (now >= deadline) {
			kill_run(u);
			r->timed_out = true;
			break;
		}
		for (int i = 0; i < 3; i++)
			if (u->fd[i] >= 0) {
				p[np].fd = u->fd[i];
				p[np].events = POLLIN;
				idx[np++] = i;
			}
		int64_t ms = (deadline - now) / 1000000 + 1;

		if (!u->exited || np == 0)
			ms = ms < 20 ? ms : 20;
		if (poll(p, (nfds_t)np, (int)ms) > 0)
			for (int j = 0; j < np; j++) {
				int i = idx[j];

				if (!(p[j].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				if (i == 2 ? mark(u) < 0
					   : drain(u->fd[i], i == 0 ? &r->out : &r->err,
						   i == 0 ? &r->out_truncated
							  : &r->err_truncated) < 0)
					close_fd(&u->fd[i]);
			}
		if (!u->exited) {
			pid_t w = waitpid(u->pid, &u->status, WNOHANG);

			/* ECHILD: a caller that ignores SIGCHLD has it reaped */
			if (w == u->pid || (w < 0 && errno == ECHILD))
				u->exited = true;
		}
	}
	if (!u->exited)
		while (waitpid(u->pid, &u->status, 0) < 0 && errno == EINTR)
			;
	r->wall_ns = clock_mono_ns() - start;
}

static int
spawn(struct run *u, const char *bwrap, struct argv *a, const int fds[5],
      const struct sandbox_limits *l, char *err, size_t errlen)
{
	int ep[2], e = 0;
	ssize_t k;
	pid_t parent = getpid();

	if (cloexec_pipe(ep) < 0)
		return util_seterr(err, errlen, "cannot make a pipe: %s", util_strerror(errno));
	u->pid = fork();
	if (u->pid < 0) {
		e = errno;
		close(ep[0]);
		close(ep[1]);
		return util_seterr(err, errlen, "cannot fork: %s", util_strerror(e));
	}
	if (u->pid == 0) {
		child(bwrap, (char *const *)a->v, fds, ep[1], l, parent);
	}
	setpgid(u->pid, u->pid);
	close(ep[1]);
	while ((k = read(ep[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(ep[0]);
	if (k <= 0)
		return 0;
	while (waitpid(u->pid, &u->status, 0) < 0 && errno == EINTR)
		;
	return util_seterr(err, errlen, "cannot run '%s': %s", bwrap, util_strerror(e));
}

/* bwrap did not get as far as the program: its first stderr line says why. */
static int
setup_failed(const struct sandbox_result *r, char *err, size_t errlen)
{
	const char *s = buf_str(&r->err);
	int n = (int)strcspn(s, "\n");

	if (n == 0)
		return util_seterr(err, errlen, "bwrap failed before the program "
				   "started (exit %d)", r->exit_code);
	return util_seterr(err, errlen, "%.*s", n > 200 ? 200 : n, s);
}

static int
exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

int
sandbox_run(const struct sandbox_limits *l, const char *prog, size_t plen,
	    const char *in, size_t inlen, struct sandbox_result *r,
	    char *err, size_t errlen)
{
	char bwrap[PATH_MAX];
	struct argv *a = NULL;
	struct run u = { .pid = -1, .fd = { -1, -1, -1 } };
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, pm[2] = { -1, -1 };
	int infd = -1, progfd = -1, ret = -1;

	memset(r, 0, sizeof(*r));
	buf_init(&r->out, l->out_max);
	buf_init(&r->err, l->err_max);
	if (find_bwrap(l->bwrap ? l->bwrap : "bwrap", bwrap, sizeof(bwrap), err,
		       errlen) < 0)
		goto out;
	infd = tmpfile_with(in, inlen, err, errlen);
	if (infd < 0)
		goto out;
	progfd = tmpfile_with(prog, plen, err, errlen);
	if (progfd < 0)
		goto out;
	if (cloexec_pipe(po) < 0 || cloexec_pipe(pe) < 0 || cloexec_pipe(pm) < 0) {
		util_seterr(err, errlen, "cannot make a pipe: %s", util_strerror(errno));
		goto out;
	}
	a = xmalloc(sizeof(*a));
	build_argv(a, bwrap, l);
	if (spawn(&u, bwrap, a, (const int[5]){ infd, po[1], pe[1], progfd, pm[1] },
		  l, err, errlen) < 0)
		goto out;
	close_fd(&po[1]);
	close_fd(&pe[1]);
	close_fd(&pm[1]);
	u.fd[0] = po[0];
	u.fd[1] = pe[0];
	u.fd[2] = pm[0];
	po[0] = pe[0] = pm[0] = -1;
	supervise(&u, l, r);
	r->exit_code = r->timed_out ? -1 : exit_code(u.status);
	if (!u.started && !r->timed_out)
		setup_failed(r, err, errlen);
	else
		ret = 0;
out:
	for (int i = 0; i < 3; i++)
		close_fd(&u.fd[i]);
	close_fd(&po[0]);
	close_fd(&po[1]);
	close_fd(&pe[0]);
	close_fd(&pe[1]);
	close_fd(&pm[0]);
	close_fd(&pm[1]);
	close_fd(&infd);
	close_fd(&progfd);
	free(a);
	if (ret < 0)
		sandbox_result_release(r);
	return ret;
}
