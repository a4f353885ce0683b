/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-metrics: raw records in, per-request metric records (profile_export.jsonl lines) out. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "linefile.h"
#include "lines.h"
#include "metrics.h"
#include "progress.h"
#include "status.h"
#include "opt.h"
#include "rand/pystr.h"
#include "runlog.h"
#include "util.h"

#define LINE_MAX_BYTES ((size_t)256 << 20)

struct options {
	struct opts o;
	const char *tokenizer;
	const char *revision;
	const char *tee;
	const char *follow;	/* the first --follow */
	const char **follows;	/* each of them */
	size_t nfollows;
	int progress_fd;
	int status_fd;
	const char *start_fifo;	/* --start-fifo: wait for it before reading */
	const char *acc_problems, *acc_grader;
	int acc_verbose;
	char **files;
	int nfiles;
};

enum {
	K_TOKENIZER = 256, K_REVISION, K_TRUST, K_ENDPOINT_TYPE, K_SERVER_TOKENS,
	K_STREAMING, K_TRACE, K_UNBUFFERED, K_DROP_WARMUP, K_KEEP_GOING,
	K_THREADS, K_TEE, K_FOLLOW, K_PROGRESS, K_STATUS, K_START, K_VERSION,
	K_ACC_PROBLEMS, K_ACC_GRADER, K_ACC_VERBOSE,
};

#define FLAG(lv) OPT_FLAG, NULL, OPT_TO(lv)

/* The options in synopsis order; --follow is in the operands' item. */
#define METRICS_OPTS(op) { \
	{ "tokenizer", K_TOKENIZER, OPT_STR, "name", OPT_TO(op->tokenizer) }, \
	{ "tokenizer-revision", K_REVISION, OPT_STR, "rev", OPT_TO(op->revision) }, \
	{ "tokenizer-trust-remote-code", K_TRUST, OPT_FLAG, .flags = OPT_BR }, \
	{ "endpoint-type", K_ENDPOINT_TYPE, OPT_STR, "type", OPT_TO(op->o.endpoint_type), .choices = endpoint_names(), \
	  .flags = OPT_LOOSE }, \
	{ "use-server-token-count", K_SERVER_TOKENS, FLAG(op->o.server_tokens), .flags = OPT_BR }, \
	{ "streaming", K_STREAMING, FLAG(op->o.streaming) }, \
	{ "export-http-trace", K_TRACE, FLAG(op->o.export_trace), .flags = OPT_BR }, \
	{ "drop-warmup", K_DROP_WARMUP, FLAG(op->o.drop_warmup) }, \
	{ "keep-going", K_KEEP_GOING, FLAG(op->o.keep_going) }, \
	{ "threads", K_THREADS, OPT_INT, "n", OPT_TO(op->o.threads), .min = 1, .max = 256, \
	  .flags = OPT_BR }, \
	{ "accuracy-problems", K_ACC_PROBLEMS, OPT_STR, "file", OPT_TO(op->acc_problems) }, \
	{ "accuracy-grader", K_ACC_GRADER, OPT_STR, "name", OPT_TO(op->acc_grader), .flags = OPT_BR }, \
	{ "accuracy-verbose", K_ACC_VERBOSE, FLAG(op->acc_verbose) }, \
	{ "tee", K_TEE, OPT_STR, "file", OPT_TO(op->tee) }, \
	{ "follow", K_FOLLOW, OPT_STR, "file", OPT_TO(op->follow), .flags = OPT_HIDE }, \
	{ "unbuffered", K_UNBUFFERED, FLAG(op->o.unbuffered), .flags = OPT_BR }, \
	{ "progress-fd", K_PROGRESS, OPT_INT, "fd", OPT_TO(op->progress_fd), .min = 0, \
	  .max = 1 << 20, .flags = OPT_BR }, \
	{ "status-fd", K_STATUS, OPT_INT, "fd", OPT_TO(op->status_fd), .min = 0, \
	  .max = 1 << 20, .flags = OPT_BR }, \
	{ "start-fifo", K_START, OPT_STR, "fifo", OPT_TO(op->start_fifo), .flags = OPT_PRIVATE }, \
	{ "help", 'h', OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static void
parse_args(struct options *op, int argc, char **argv)
{
	struct opt tab[] = METRICS_OPTS(op);
	const struct opt_cmd cmd = { "aiperf-metrics", tab, "[--follow file | file ...]", 0,
					NULL, NULL };
	struct opt_iter it;
	int c;

	opt_init(&it, &cmd, argc, argv);
	/* the table checks --endpoint-type (any case, '-' for '_') */
	while ((c = opt_next(&it)) != -1)
		if (c == K_FOLLOW) {
			op->follows = xreallocarray(op->follows, op->nfollows + 1,
						    sizeof(*op->follows));
			op->follows[op->nfollows++] = it.arg;
			if (!*it.arg || !strcmp(it.arg, "-"))
				die_usage("invalid value for --follow: '%s' (a file that grows)",
					  it.arg);
		}
	op->follow = op->nfollows ? op->follows[0] : NULL;
	op->files = argv + it.ind;
	op->nfiles = argc - it.ind;
	if (op->follow && op->nfiles)
		die_usage("--follow reads its file alone: no file operands");
	if (!op->acc_problems && (op->acc_grader || op->acc_verbose))
		die_usage("--%s needs --accuracy-problems",
			  op->acc_grader ? "accuracy-grader" : "accuracy-verbose");
}

/* --tee onto the file --follow reads would empty it, or read its own lines. */
static void
check_tee(const struct options *op)
{
	struct stat a, b;

	for (size_t i = 0; i < op->nfollows; i++) {
		const char *f = op->follows[i];

		if (!strcmp(op->tee, f) || (stat(op->tee, &a) == 0 && stat(f, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino))
			die_usage("--tee and --follow name the same file: '%s'", f);
	}
}

/*
 * --start-fifo: opened without waiting for a writer (a FIFO that has none
 * reads its end at once), then read, blocking, to its end: until the last
 * writer is gone, the supervisor's when it closes it or dies. Nothing
 * before this reads a record or loads the tokenizer, so that metrics takes
 * no CPU from the sender while it runs. A signal ends the wait as it ends
 * a read of the records.
 */
static void
start_wait(const char *path)
{
	struct stat st;
	char s[512];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		die_usage("--start-fifo %s:", path);
	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		die_usage("--start-fifo %s: not a FIFO", path);
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		die("--start-fifo %s:", path);
	/* what a writer says is no record: read and dropped */
	while ((n = read(fd, s, sizeof(s))) != 0)
		if (n < 0 && errno != EINTR)
			die("cannot read '%s':", path);
	close(fd);
}

struct run {
	struct rec rec;
	struct buf out;
	size_t skipped;
	struct pool *pool;	/* --threads > 1 */
	struct linefile *tee;	/* --tee: every input line, as read */
};

static _Noreturn void
tee_failed(const struct linefile *lf)
{
	die("cannot write '%s': %s (it holds the first %zu lines, whole)", lf->path,
	    util_strerror(errno), lf->lines);
}

/* --accuracy-verbose: a record's lines, after the record, on standard
 * error and, as the original logs them (at INFO), in the run log. */
void
rec_note(const char *s, size_t n)
{
	if (n && fwrite(s, 1, n, stderr) != n)
		die("cannot write to stderr:");
	if (!runlog_enabled(RUNLOG_INFO))
		return;
	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t k = nl ? (size_t)(nl - s) : n;

		runlog(RUNLOG_INFO, "%.*s", (int)k, s);
		k += nl != NULL;
		s += k;
		n -= k;
	}
}

/* One input line: returns 0, or -1 on a malformed line (already reported). */
static int
do_line(struct run *run, const struct opts *o, struct lines *l, const char *s, size_t n)
{
	char why[256];
	int none;

	if (rec_parse(&run->rec, o, s, n, why, sizeof(why)) < 0) {
		if (!o->keep_going)
			die("%s:%zu: %s", l->name, l->lineno, why);
		warn("%s:%zu: %s (skipped)", l->name, l->lineno, why);
		run->skipped++;
		return -1;
	}
	if (run->rec.unrecorded)
		return 0;
	if (o->drop_warmup && run->rec.warmup) {
		rec_status(&run->rec, o);
		return 0;
	}
	rec_progress(&run->rec, o);
	none = rec_emit(&run->rec, o, &run->out);
	rec_status(&run->rec, o);
	if (!none) {
		if (fwrite(run->out.s, 1, run->out.len, stdout) != run->out.len)
			die_write();
		if (o->unbuffered && fflush(stdout) == EOF)
			die_write();
	}
	rec_note(run->rec.note.s, run->rec.note.len);
	return 0;
}

/* The line cap; AIPERF_METRICS_MAX_LINE lowers it (tests). */
static size_t
line_max(void)
{
	const char *e = getenv("AIPERF_METRICS_MAX_LINE");
	long long v;
	const char *why;

	if (e && util_strtonum(e, 64, (long long)LINE_MAX_BYTES, &v, &why) == 0)
		return (size_t)v;
	return LINE_MAX_BYTES;
}

/* --follow caught up with the file: the records so far go downstream
 * now, not when 64 KiB of them have come. */
static void
flush_idle(void *ctx)
{
	(void)ctx;
	if (fflush(stdout) == EOF)
		die_write();
}

/* Every line of path ("-": stdin), or of the file f follows (path). */
static void
do_file(struct run *run, const struct opts *o, const char *path, struct follow *f)
{
	struct lines l;
	const char *s;
	size_t n, max = line_max();
	int rc;

	if (f) {
		lines_fdopen(&l, follow_fd(f), path, max);
		l.idle = flush_idle;
	} else if (!strcmp(path, "-"))
		lines_fdopen(&l, 0, "<stdin>", max);
	else if (lines_open_stream(&l, path, max) < 0)
		die("cannot open '%s':", path);
	while ((rc = lines_next(&l, &s, &n)) != 0) {
		/* past the pipe's end, nothing is handled before f's verdict */
		if (f && l.eof)
			follow_end(f);
		if (rc < 0 && errno == ENOBUFS) {
			if (!o->keep_going)
				die("%s:%zu: line longer than %zu bytes", l.name,
				    l.lineno, max);
			warn("%s:%zu: line too long (skipped)", l.name, l.lineno);
			run->skipped++;
			continue;
		}
		if (rc < 0)
			die("cannot read '%s':", l.name);
		if (run->tee && linefile_put(run->tee, s, n) < 0)
			tee_failed(run->tee);
		if (pystr_isblank(s, n))
			continue;
		if (run->pool)
			pool_add(run->pool, l.name, l.lineno, s, n);
		else
			do_line(run, o, &l, s, n);
	}
	if (f)
		follow_end(f);
	if (run->pool)
		pool_flush(run->pool);
	lines_close(&l);
}

int
main(int argc, char **argv)
{
	struct options op = { .progress_fd = -1, .status_fd = -1 };
	struct run run;
	struct progress progress;

	util_setprogname("aiperf-metrics");
	signal(SIGPIPE, SIG_IGN);
	parse_args(&op, argc, argv);
	if (op.tee)
		check_tee(&op);
	if (op.start_fifo)
		start_wait(op.start_fifo);
	if (op.acc_problems)
		op.o.acc = accuracy_new(op.acc_problems, op.acc_grader, op.acc_verbose);
	if (!op.o.server_tokens)
		op.o.tok = tokenizer_open(op.tokenizer, op.revision);
	rec_init(&run.rec);
	buf_init(&run.out, BUF_NOMAX);
	run.skipped = 0;
	run.pool = NULL;
	run.tee = NULL;
	struct linefile tee;
	if (op.tee) {
		if (linefile_open(&tee, op.tee, 0) < 0)
			die("cannot open '%s':", op.tee);
		run.tee = &tee;
		check_tee(&op);	/* two names of one new file */
	}
	/* Records out in 64 KiB writes, not stdio's 4 KiB for a pipe: a
	 * sixteenth of the system calls here and in aiperf-export at the other
	 * end (1.4x for the two). --follow writes what it holds whenever it
	 * waits for the file to grow (flush_idle()); --unbuffered, each. */
	static char outbuf[(size_t)64 << 10];
	if (!op.o.unbuffered)
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	metrics_init();
	progress_init(&progress, op.progress_fd);
	if (progress.fd >= 0)
		op.o.progress = &progress;
	if (op.status_fd >= 0)
		op.o.status = status_new(op.status_fd);
	/* Several files and no --threads: computed concurrently, a thread a
	 * file up to the CPUs online, written in order (the pool's output is
	 * byte for byte one thread's). --tee keeps one thread: the pool reads
	 * a batch ahead, so its copy could hold lines past a malformed one. */
	if (op.o.threads == 0 && op.nfiles > 1 && !op.tee) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		op.o.threads = op.nfiles < cpus ? op.nfiles : (int)(cpus < 256 ? cpus : 256);
	}
	if (op.o.threads > 1)
		run.pool = pool_new(&op.o, op.o.threads);
	if (op.follow) {
		struct follow *f = follow_start(op.follows, op.nfollows);

		do_file(&run, &op.o, op.follow, f);
		follow_free(f);
		free(op.follows);
	} else if (op.nfiles == 0) {
		do_file(&run, &op.o, "-", NULL);
	}
	for (int i = 0; i < op.nfiles; i++)
		do_file(&run, &op.o, op.files[i], NULL);
	if (run.pool)
		run.skipped += pool_free(run.pool);
	if (run.tee && linefile_close(run.tee) < 0)
		tee_failed(run.tee);
	progress_end(&progress);
	status_end(op.o.status);
	if (run.skipped)
		warn("%zu malformed line%s skipped", run.skipped, run.skipped == 1 ? "" : "s");
	rec_release(&run.rec);
	buf_release(&run.out);
	tokenizer_free(op.o.tok);
	accuracy_free((struct accuracy *)op.o.acc);
	return util_fshut(stdout, "<stdout>") < 0;
}
