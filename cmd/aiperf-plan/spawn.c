/* SPDX-License-Identifier: Apache-2.0 */
/* The sibling tools run for their checks: found beside aiperf-plan, else on PATH. */
#define _GNU_SOURCE
#include "planner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int
on_path(const char *name)
{
	const char *path = getenv("PATH"), *end;
	char *f;
	int ok = 0;

	for (; path && !ok; path = *end ? end + 1 : NULL) {
		end = path + strcspn(path, ":");
		f = xstrfmt("%.*s/%s", (int)(end - path), end == path ? "." : path, name);
		ok = access(f, X_OK) == 0;
		free(f);
		if (!*end)
			break;
	}
	return ok;
}

/* The folder this binary was run from, links not resolved (the script
 * finds us on its PATH, its own folder first): argv[0]'s, else the first
 * PATH entry holding it, else the binary's own. */
static const char *
tool_dir(void)
{
	static char *dir;
	const char *path = getenv("PATH"), *end;
	char *f;

	if (dir)
		return dir;
	if (strchr(argv0_path, '/'))
		return dir = xstrndup(argv0_path, (size_t)(strrchr(argv0_path, '/') - argv0_path));
	for (; path && *path && !dir; path = *end ? end + 1 : end) {
		end = path + strcspn(path, ":");
		f = xstrfmt("%.*s/%s", (int)(end - path), end == path ? "." : path, argv0_path);
		if (access(f, X_OK) == 0)
			dir = xstrfmt("%.*s", (int)(end - path), end == path ? "." : path);
		free(f);
	}
	return dir ? dir : (dir = xstrdup(""));
}

const char *argv0_path = "aiperf-plan";

/* The signals that stop a run: held (blocked) while planning, so that a
 * planning interrupted still ends with its plan; the script, which gets
 * the same signal, has the run written as cancelled. */
static const int held[] = { SIGINT, SIGTERM, SIGHUP };
static int caught;

/* The held signals and SIGCHLD, the set every use here takes. */
static void
held_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(held) / sizeof(*held); i++)
		sigaddset(set, held[i]);
	sigaddset(set, SIGCHLD);
}

void
signals_hold(void)
{
	sigset_t set;

	/* SIGCHLD blocked stays pending (never discarded) for wait_or_signal */
	held_set(&set);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* inherited as ignored (a helper of the script's): held, not discarded */
	for (size_t i = 0; i < sizeof(held) / sizeof(*held); i++)
		signal(held[i], SIG_DFL);
}

int
signal_caught(void)
{
	sigset_t pend;

	if (caught)
		return caught;
	if (sigpending(&pend) == 0)
		for (size_t i = 0; i < sizeof(held) / sizeof(*held); i++)
			if (sigismember(&pend, held[i]))
				return caught = held[i];
	return 0;
}

int
wait_or_signal(void)
{
	sigset_t set;
	int sig;

	if (signal_caught())
		return caught;
	held_set(&set);
	while ((sig = sigwaitinfo(&set, NULL)) < 0)
		if (errno != EINTR)
			die("sigwaitinfo:");
	if (sig != SIGCHLD)
		caught = sig;
	return sig == SIGCHLD ? 0 : sig;
}

/* In the child: the group of its own first, so that no later signal to
 * ours reaches it; then the held signals that did (sent to our group
 * between fork and setpgid, pending behind the mask it inherited)
 * discarded, by ignoring them once, and left at their defaults; its
 * descriptors; the exec. Its errno on the CLOEXEC pipe when that fails. */
static void
child(const char *file, char *const argv[], const int fd[3], int report)
{
	sigset_t none;
	int e;

	setpgid(0, 0);
	for (size_t i = 0; i < sizeof(held) / sizeof(*held); i++) {
		signal(held[i], SIG_IGN);
		signal(held[i], SIG_DFL);
	}
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int i = 0; i < 3; i++)
		if (fd[i] >= 0 && dup2(fd[i], i) < 0)
			goto fail;
	execvp(file, argv);
fail:
	e = errno;
	(void)!write(report, &e, sizeof(e));
	_exit(127);
}

pid_t
spawn_tool(const char *file, char *const argv[], const int fd[3], int *err)
{
	int report[2], e;
	ssize_t k;
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) < 0) {
		*err = errno;
		return -1;
	}
	if ((pid = fork()) < 0) {
		*err = errno;
		close(report[0]);
		close(report[1]);
		return -1;
	}
	if (pid == 0)
		child(file, argv, fd, report[1]);
	/* as a shell does: a signal to our group now misses it either way */
	setpgid(pid, pid);
	close(report[1]);
	while ((k = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (k == (ssize_t)sizeof(e)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		*err = e;
		return -1;
	}
	return pid;
}

const char *
tool_path(const char *name, char *buf, size_t size)
{
	const char *dir = tool_dir();
	ssize_t k;
	char *slash;

	if (*dir) {
		if ((size_t)snprintf(buf, size, "%s/%s", dir, name) < size && access(buf, X_OK) == 0)
			return buf;
		return name;
	}
	k = readlink("/proc/self/exe", buf, size - 1);
	if (k <= 0 || k >= (ssize_t)size - 1)
		return name;
	buf[k] = '\0';
	if (!(slash = strrchr(buf, '/')) || (size_t)(slash - buf) + strlen(name) + 2 > size)
		return name;
	memcpy(slash + 1, name, strlen(name) + 1);
	return access(buf, X_OK) == 0 ? buf : name;
}

/* Reads both pipes (either fd -1) to their ends into out and err. */
static void
drain(int ofd, struct buf *out, int efd, struct buf *err)
{
	struct pollfd pf[2] = { { ofd, POLLIN, 0 }, { efd, POLLIN, 0 } };
	struct buf *to[2] = { out, err };
	char chunk[65536];
	ssize_t k;

	while (pf[0].fd >= 0 || pf[1].fd >= 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll:");
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			k = read(pf[i].fd, chunk, sizeof(chunk));
			if (k > 0 && buf_tryadd(to[i], chunk, (size_t)k) < 0)
				die("a stage's answer is too long");
			if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) {
				close(pf[i].fd);
				pf[i].fd = -1;
			}
		}
	}
}

/* fd: a pipe's write end for target's answer (if b), else -1; *rd its read end. */
static int
pipe_for(struct buf *b, int *rd)
{
	int fds[2];

	*rd = -1;
	if (!b)
		return -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		die("pipe:");
	*rd = fds[0];
	return fds[1];
}

int
run_tool(char *const argv[], const char *in, struct buf *out, struct buf *err)
{
	char exe[PATH_MAX];
	const char *path = strchr(argv[0], '/') ? argv[0] : tool_path(argv[0], exe, sizeof(exe));
	int fd[3] = { -1, -1, -1 }, o, e, rc;
	pid_t pid;

	if (in && (fd[0] = open(in, O_RDONLY | O_CLOEXEC)) < 0)
		die("%s:", in);
	fd[1] = pipe_for(out, &o);
	/* our standard output is the shell's code */
	if (!out && (fd[1] = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		die("/dev/null:");
	fd[2] = pipe_for(err, &e);
	pid = spawn_tool(path, argv, fd, &rc);
	for (int i = 0; i < 3; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	if (pid < 0) {
		warn("cannot run '%s': %s", argv[0], util_strerror(rc));
		drain(o, out, e, err);
		return 127;
	}
	drain(o, out, e, err);
	return tool_wait(pid);
}

int
tool_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid:");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* argv: tool, [first], args... */
static char **
argv_of(const char *tool, const char *first, const struct plan_argv *args)
{
	char **v = xcalloc(args->n + 3, sizeof(*v));
	size_t k = 0;

	v[k++] = (char *)tool;
	if (first)
		v[k++] = (char *)first;
	for (size_t i = 0; i < args->n; i++)
		v[k++] = args->v[i];
	return v;
}

/* check_stage: with no input the stage must accept its options; its
 * message (up to its "Try ..." hint) is this command's usage error. */
void
check_stage(const char *tool, const struct plan_argv *args, const char *first)
{
	char **v = argv_of(tool, first, args);
	struct buf err;
	const char *s, *try;
	size_t n;

	buf_init(&err, 1 << 20);
	if (run_tool(v, "/dev/null", NULL, &err) == 0) {
		buf_release(&err);
		free(v);
		return;
	}
	buf_addch(&err, '\0');
	s = buf_str(&err);
	try = strstr(s, "\nTry ");
	n = try ? (size_t)(try - s) : strlen(s);
	while (n && s[n - 1] == '\n')
		n--;
	usage_error("%.*s", (int)n, s);
}
