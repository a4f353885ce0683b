/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-loss: the requests of each shard of a multi-host run without a record, lost in flight or never sent. */
#define _GNU_SOURCE		/* pipe2, environ */
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lines.h"
#include "opt.h"
#include "shardloss.h"
#include "util.h"

#define GEN "aiperf-gen"
#define LINE_MAX_BYTES ((size_t)256 << 20)
#define EXIT_LOST 3

struct options {
	long long shards;
	long long concurrency;
	long long wconcurrency;	/* 0: --concurrency's */
	long long ramp_ns;
	long long wramp_ns;
	char **files;
	int nfiles;
	char **gen;		/* aiperf-gen's options, after "--" */
	int ngen;
};

enum { K_SHARDS = 256, K_CONC, K_WCONC, K_RAMP, K_WRAMP, K_HELP, K_VERSION };

#define SECS(lv) OPT_SECONDS, "s", OPT_TO(lv), .hi = 9.2e9, .scale = 1e9
#define CONC(lv) OPT_INT, "n", OPT_TO(lv), .min = 1, .max = 1000000

/* The options in synopsis order. */
#define LOSS_OPTS(o) { \
	{ "shards", K_SHARDS, OPT_INT, "n", OPT_TO(o->shards), .min = 1, .max = 1000000, \
	  .flags = OPT_REQ }, \
	{ "concurrency", K_CONC, CONC(o->concurrency) }, \
	{ "warmup-concurrency", K_WCONC, CONC(o->wconcurrency) }, \
	{ "concurrency-ramp-duration", K_RAMP, SECS(o->ramp_ns), .flags = OPT_BR }, \
	{ "warmup-concurrency-ramp-duration", K_WRAMP, SECS(o->wramp_ns), .flags = OPT_BR }, \
	{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

/* Our words end at the first "--" (no option of ours takes it as a value);
 * aiperf-gen's follow, as they are (getopt would mix them with ours). */
static void
parse_args(struct options *o, int argc, char **argv)
{
	struct opt tab[] = LOSS_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-loss", tab, "file ... [-- gen-option ...]", 12,
				     NULL, NULL };
	struct opt_iter it;
	int n = 1;

	*o = (struct options){ .concurrency = 1 };
	while (n < argc && strcmp(argv[n], "--"))
		n++;
	if (n < argc) {
		o->gen = argv + n + 1;
		o->ngen = argc - n - 1;
	}
	opt_init(&it, &cmd, n, argv);
	while (opt_next(&it) != -1)
		;
	if (!o->shards)
		die_usage("--shards is required");
	if (it.ind == n)
		die_usage("no record file");
	o->files = argv + it.ind;
	o->nfiles = n - it.ind;
	if (!o->wconcurrency)
		o->wconcurrency = o->concurrency;
}

/* Shard k's (from 0) part of total slots, split as evenly as can be. */
static uint64_t
share(long long total, long long shards, size_t k)
{
	return (uint64_t)(total / shards + ((long long)k < total % shards ? 1 : 0));
}

/* aiperf-gen beside the running binary (both installed in one bin/), else
 * the first on PATH, into exe. */
static const char *
gen_path(char *exe, size_t size)
{
	ssize_t k = readlink("/proc/self/exe", exe, size - 1);
	char *slash;

	if (k <= 0 || k >= (ssize_t)size - 1)
		return GEN;
	exe[k] = '\0';
	if (!(slash = strrchr(exe, '/')) || (size_t)(slash - exe) + sizeof("/" GEN) > size)
		return GEN;
	memcpy(slash + 1, GEN, sizeof(GEN));
	return access(exe, X_OK) == 0 ? exe : GEN;
}

/* Start aiperf-gen OPTION... --shard SHARD, its standard output a pipe
 * (*fd, its reading end), its input /dev/null: its pid, or -1 said. */
static pid_t
gen_start(const struct options *o, const char *shard, int *fd)
{
	char exe[4096], arg0[] = GEN, opt[] = "--shard";
	char **argv = xreallocarray(NULL, (size_t)o->ngen + 4, sizeof(*argv));
	const char *path = gen_path(exe, sizeof(exe));
	posix_spawn_file_actions_t fa;
	int p[2], rc;
	pid_t pid;

	argv[0] = arg0;
	if (o->ngen)	/* no options after --: o->gen is NULL */
		memcpy(argv + 1, o->gen, (size_t)o->ngen * sizeof(*argv));
	argv[o->ngen + 1] = opt;
	argv[o->ngen + 2] = (char *)shard;
	argv[o->ngen + 3] = NULL;
	if (pipe2(p, O_CLOEXEC) < 0) {
		free(argv);
		return error("cannot start %s:", GEN);
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	rc = posix_spawnp(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	close(p[1]);
	if (rc) {
		close(p[0]);
		errno = rc;
		return error("cannot start '%s':", path);
	}
	*fd = p[0];
	return pid;
}

static int
gen_wait(pid_t pid, int kill_it)
{
	int st;

	if (kill_it)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

/* The line cap; AIPERF_LOSS_MAX_LINE lowers it (tests). */
static size_t
line_max(void)
{
	const char *e = getenv("AIPERF_LOSS_MAX_LINE");
	long long v;
	const char *why;

	if (e && util_strtonum(e, 64, (long long)LINE_MAX_BYTES, &v, &why) == 0)
		return (size_t)v;
	return LINE_MAX_BYTES;
}

/* Shard k's requests, from aiperf-gen --shard k+1/N: 0, or -1 said. */
static int
read_requests(struct shardloss *sl, const struct options *o, size_t k)
{
	char shard[48], name[80], err[256];
	struct lines l;
	const char *s;
	size_t n;
	int fd = -1, rc, st, e;
	pid_t pid;

	snprintf(shard, sizeof(shard), "%zu/%lld", k + 1, o->shards);
	snprintf(name, sizeof(name), GEN " --shard %s", shard);
	if ((pid = gen_start(o, shard, &fd)) < 0)
		return -1;
	lines_fdopen(&l, fd, name, line_max());
	while ((rc = lines_next(&l, &s, &n)) == 1)
		if (shardloss_request(sl, k, s, n, err, sizeof(err)) < 0)
			break;
	e = errno;
	n = l.lineno;
	lines_close(&l);
	close(fd);
	st = gen_wait(pid, rc != 0);
	if (rc == 1)
		return error("%s:%zu: %s", name, n, err);
	if (rc < 0 && e == ENOBUFS)
		return error("%s:%zu: line longer than %zu bytes", name, n, line_max());
	errno = e;
	if (rc < 0)
		return error("cannot read the output of %s:", name);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return error("%s failed (%s %d)", name,
			     st >= 0 && WIFSIGNALED(st) ? "signal" : "status",
			     st < 0 ? -1 : WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	return 0;
}

static void
open_records(struct lines *l, const char *path)
{
	if (!strcmp(path, "-"))
		lines_fdopen(l, 0, "<stdin>", line_max());
	else if (lines_open(l, path, line_max()) < 0)
		die("cannot open '%s':", path);
}

/* The raw records of one file: 0, or -1 said. */
static int
read_records(struct shardloss *sl, const char *path)
{
	char err[256];
	struct lines l;
	const char *s;
	size_t n;
	int rc, e, r = 0;

	open_records(&l, path);
	while ((rc = lines_next(&l, &s, &n)) == 1)
		if (shardloss_record(sl, s, n, err, sizeof(err)) < 0)
			break;
	e = errno;
	if (rc == 1)
		r = error("%s:%zu: %s", l.name, l.lineno, err);
	else if (rc < 0 && e == ENOBUFS)
		r = error("%s:%zu: line longer than %zu bytes", l.name, l.lineno, l.max);
	else if (rc < 0)
		errno = e, r = error("cannot read '%s':", l.name);
	lines_close(&l);
	return r;
}

/* The report, one line a shard, then one a worker of strays: whether a
 * request has no record or a record no request. */
static int
report(struct shardloss *sl, const struct options *o)
{
	struct shardloss_count c;
	const char *w;
	size_t i, len;
	uint64_t n;
	int bad = 0;

	for (i = 0; i < (size_t)o->shards; i++) {
		shardloss_count(sl, i, &c);
		printf("worker_%zu: %llu requests ended, %llu lost in flight (due before its "
		       "last record ended), %llu never sent\n", i, (unsigned long long)c.ended,
		       (unsigned long long)c.lost, (unsigned long long)c.never);
		bad |= c.lost || c.never;
	}
	for (i = 0; (w = shardloss_stray(sl, i, &len, &n)); i++, bad = 1) {
		/* a worker_id is the record's: no byte of it breaks the line */
		for (size_t j = 0; j < len; j++)
			putchar((unsigned char)w[j] < 0x20 || w[j] == 0x7f ? '?' : w[j]);
		printf(": %llu records of no shard of this run (another seed or other "
		       "options?)\n", (unsigned long long)n);
	}
	return bad;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct shardloss *sl;
	struct lines l;
	int bad;

	util_setprogname("aiperf-loss");
	signal(SIGPIPE, SIG_IGN);
	parse_args(&o, argc, argv);
	/* every record file opens, before the first aiperf-gen runs */
	for (int i = 0; i < o.nfiles; i++)
		if (strcmp(o.files[i], "-")) {
			open_records(&l, o.files[i]);
			lines_close(&l);
		}
	sl = shardloss_new((size_t)o.shards);
	shardloss_ramps(sl, o.ramp_ns, o.wramp_ns);
	for (size_t k = 0; k < (size_t)o.shards; k++) {
		shardloss_slots(sl, k, share(o.concurrency, o.shards, k),
				share(o.wconcurrency, o.shards, k));
		if (read_requests(sl, &o, k) < 0)
			goto fail;
	}
	for (int i = 0; i < o.nfiles; i++)
		if (read_records(sl, o.files[i]) < 0)
			goto fail;
	bad = report(sl, &o);
	shardloss_free(sl);
	if (util_fshut(stdout, "stdout"))
		return 1;
	return bad ? EXIT_LOST : 0;
fail:
	shardloss_free(sl);
	return 1;
}
