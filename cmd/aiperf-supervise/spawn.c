/* SPDX-License-Identifier: Apache-2.0 */
/* The children: started with exactly their descriptors, their CPUs, a clean signal state; reaped. */
#define _GNU_SOURCE
#include "supervise.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpuset.h"

int
open_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (fd < 0)
		die("cannot create '%s':", path);
	return fd;
}

void
pipe_cloexec(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		die("cannot make a pipe:");
}

void
xclose(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* In a child: its descriptors at 0, 1, 2 (and 3, 4 as given), the rest close on exec. */
static void
child_fds(const int *src, int n)
{
	int tmp[5];

	for (int i = 0; i < n; i++)
		tmp[i] = src[i] < 0 ? -1 : fcntl(src[i], F_DUPFD_CLOEXEC, 10);
	for (int i = 0; i < n; i++)
		if (tmp[i] >= 0 && dup2(tmp[i], i) < 0)
			_exit(126);
}

/* In a child: the files it reads and writes, opened where they go; exits 1 when one cannot be. */
static void
child_files(const struct spawn *s)
{
	for (int i = 0; i < 3; i++) {
		int fd;

		if (!s->file[i])
			continue;
		fd = i ? open(s->file[i], O_WRONLY | O_CREAT | O_TRUNC, 0666)
		       : open(s->file[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "%s: cannot %s '%s': %s\n", argv0, i ? "create" : "open",
				s->file[i], util_strerror(errno));
			_exit(1);
		}
		if (fd != i && (dup2(fd, i) < 0 || close(fd) < 0))
			_exit(126);
	}
}

/* In a child: its CPUs and its priority, as the plan gives them. */
static void
child_sched(const struct sv *sv, const struct spawn *s)
{
	struct sched_param sp = { 0 };
	unsigned char bits[CPUSET_MAX / 8];
	cpu_set_t set;

	CPU_ZERO(&set);
	if (s->cpu == CPU_SOLO && sv->p.solo_cpu >= 0 && sv->p.solo_cpu < CPU_SETSIZE) {
		CPU_SET(sv->p.solo_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	} else if (s->cpu == CPU_REST && sv->p.rest_cpus &&
		   cpuset_parse(sv->p.rest_cpus, bits) == 0) {
		for (int i = 0; i < CPUSET_MAX && i < CPU_SETSIZE; i++)
			if (cpuset_has(bits, i))
				CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (s->idle && sv->p.idle)
		sched_setscheduler(0, SCHED_IDLE, &sp);
}

/* The signals ignored when the supervisor started (nohup's SIGHUP, a shell's trap ''). */
static sigset_t ignored_at_entry;

void
spawn_init(void)
{
	struct sigaction sa;

	sigemptyset(&ignored_at_entry);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(&ignored_at_entry, sig);
}

/*
 * In a child about to exec: every signal at its default (or ignored, as
 * it was when the supervisor started), none blocked; but a sender starts
 * with SIGINT, SIGTERM and SIGHUP blocked (blocked): it takes them through
 * a signalfd (lib/evloop), which then finds one sent before it was set
 * up, where a default disposition would have killed it.
 */
static void
child_signals(int blocked)
{
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, sigismember(&ignored_at_entry, sig) == 1 ? SIG_IGN : SIG_DFL);
	sigemptyset(&none);
	if (blocked) {
		sigaddset(&none, SIGINT);
		sigaddset(&none, SIGTERM);
		sigaddset(&none, SIGHUP);
	}
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static _Noreturn void
child_exec(char *const *argv, int blocked)
{
	child_signals(blocked);
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run '%s': %s\n", argv0, argv[0], util_strerror(errno));
	_exit(127);
}

/* A child in s's process group (0: one of its own), set on both sides of
 * the fork so that neither can signal the group before it exists; the
 * supervisor's streams flushed first. */
static pid_t
fork_in_group(const struct spawn *s)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("cannot start '%s':", s->argv[0]);
	if (pid == 0)
		setpgid(0, s->pgid);
	else
		setpgid(pid, s->pgid ? s->pgid : pid);
	return pid;
}

pid_t
spawn_exec(struct sv *sv, const struct spawn *s)
{
	int src[4] = { s->fd[0], s->fd[1], s->fd[2], s->fd3 };
	pid_t pid = fork_in_group(s);

	if (pid == 0) {
		child_fds(src, s->fd3 >= 0 ? 4 : 3);
		child_files(s);
		child_sched(sv, s);
		child_exec(s->argv, s->blocked);
	}
	return pid;
}

/* The keeper's loop: its child's end, the signals passed on to it. */
static int
keeper_wait(pid_t child)
{
	sigset_t set;
	int sig, st;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (;;) {
		if (waitpid(child, &st, WNOHANG) == child)
			break;
		sig = sigwaitinfo(&set, NULL);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			kill(child, sig);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static _Noreturn void
keeper(struct sv *sv, const struct spawn *s)
{
	int src[4] = { s->fd[0], s->fd[1], s->fd[2], s->hold };
	pid_t child;
	int st;

	/* not to be taken for the supervisor (pgrep -x, ps -o comm) */
	prctl(PR_SET_NAME, "aiperf-keeper", 0, 0, 0);
	child_fds(src, s->hold >= 0 ? 4 : 3);
	syscall(SYS_close_range, s->hold >= 0 ? 4U : 3U, ~0U, 0U);
	child_files(s);
	child_sched(sv, s);
	child = fork();
	if (child < 0)
		_exit(126);
	if (child == 0) {
		if (s->hold >= 0)
			close(3);
		child_exec(s->argv, s->blocked);
	}
	st = keeper_wait(child);
	if (s->rename_from && s->rename_to) {
		trim_partial(s->rename_from);
		if (rename(s->rename_from, s->rename_to) < 0)
			fprintf(stderr, "%s: cannot rename '%s':  %s\n", argv0, s->rename_from,
				util_strerror(errno));
	}
	_exit(st);
}

pid_t
spawn_keeper(struct sv *sv, const struct spawn *s)
{
	pid_t pid = fork_in_group(s);

	if (pid == 0)
		keeper(sv, s);
	return pid;
}

struct kid *
kid_add(struct sv *sv, pid_t pid, enum kid_kind kind, size_t index)
{
	struct kid *k;

	if (sv->nkids == sv->kids_alloc) {
		sv->kids_alloc = sv->kids_alloc ? 2 * sv->kids_alloc : 16;
		sv->kids = xreallocarray(sv->kids, sv->kids_alloc, sizeof(*sv->kids));
	}
	k = &sv->kids[sv->nkids++];
	k->pid = pid;
	k->status = -1;
	k->kind = kind;
	k->index = index;
	return k;
}

void
kids_reap(struct sv *sv)
{
	int st;

	for (size_t i = 0; i < sv->nkids; i++) {
		struct kid *k = &sv->kids[i];

		if (k->status >= 0 || waitpid(k->pid, &st, WNOHANG) != k->pid)
			continue;
		k->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		run_reaped(sv, k);
	}
}

int
kids_running(const struct sv *sv, enum kid_kind kind)
{
	for (size_t i = 0; i < sv->nkids; i++)
		if (sv->kids[i].kind == kind && sv->kids[i].status < 0)
			return 1;
	return 0;
}
