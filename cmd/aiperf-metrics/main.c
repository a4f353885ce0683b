/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-metrics: raw records in, per-request metric records (profile_export.jsonl lines) out. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "linefile.h"
#include "lines.h"
#include "metrics.h"
#include "rand/pystr.h"
#include "util.h"

#define LINE_MAX_BYTES ((size_t)256 << 20)

struct options {
	struct opts o;
	const char *tokenizer;
	const char *revision;
	const char *tee;
	char **files;
	int nfiles;
};

enum {
	OPT_TOKENIZER = 256,
	OPT_REVISION,
	OPT_TRUST,
	OPT_ENDPOINT_TYPE,
	OPT_SERVER_TOKENS,
	OPT_STREAMING,
	OPT_TRACE,
	OPT_UNBUFFERED,
	OPT_DROP_WARMUP,
	OPT_KEEP_GOING,
	OPT_THREADS,
	OPT_TEE,
	OPT_VERSION,
};

static const struct option longopts[] = {
	{ "tokenizer", required_argument, NULL, OPT_TOKENIZER },
	{ "tokenizer-revision", required_argument, NULL, OPT_REVISION },
	{ "tokenizer-trust-remote-code", no_argument, NULL, OPT_TRUST },
	{ "endpoint-type", required_argument, NULL, OPT_ENDPOINT_TYPE },
	{ "use-server-token-count", no_argument, NULL, OPT_SERVER_TOKENS },
	{ "streaming", no_argument, NULL, OPT_STREAMING },
	{ "export-http-trace", no_argument, NULL, OPT_TRACE },
	{ "unbuffered", no_argument, NULL, OPT_UNBUFFERED },
	{ "drop-warmup", no_argument, NULL, OPT_DROP_WARMUP },
	{ "keep-going", no_argument, NULL, OPT_KEEP_GOING },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "tee", required_argument, NULL, OPT_TEE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static _Noreturn void
usage(FILE *f, int status)
{
	fputs("usage: aiperf-metrics [--tokenizer name] [--tokenizer-revision rev]\n"
	      "                      [--tokenizer-trust-remote-code] [--endpoint-type type]\n"
	      "                      [--use-server-token-count] [--streaming]\n"
	      "                      [--export-http-trace] [--drop-warmup] [--keep-going]\n"
	      "                      [--threads n] [--tee file] [--unbuffered] [file ...]\n", f);
	exit(status);
}

static const char *const endpoint_types[] = {
	"chat", "completions", "embeddings", "nim_embeddings", "responses",
	"rankings", "huggingface_generate", "template", NULL,
};

static void
check_endpoint_type(const char *t)
{
	for (size_t i = 0; endpoint_types[i]; i++)
		if (!strcmp(t, endpoint_types[i]))
			return;
	die_usage("invalid value for --endpoint-type: '%s'", t);
}

static void
parse_args(struct options *op, int argc, char **argv)
{
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_TOKENIZER: op->tokenizer = optarg; break;
		case OPT_REVISION: op->revision = optarg; break;
		case OPT_TRUST: break;
		case OPT_ENDPOINT_TYPE:
			check_endpoint_type(optarg);
			op->o.endpoint_type = optarg;
			break;
		case OPT_SERVER_TOKENS: op->o.server_tokens = 1; break;
		case OPT_STREAMING: op->o.streaming = 1; break;
		case OPT_TRACE: op->o.export_trace = 1; break;
		case OPT_UNBUFFERED: op->o.unbuffered = 1; break;
		case OPT_DROP_WARMUP: op->o.drop_warmup = 1; break;
		case OPT_KEEP_GOING: op->o.keep_going = 1; break;
		case OPT_THREADS: op->o.threads = (int)opt_int("--threads", optarg, 1, 256); break;
		case OPT_TEE: op->tee = optarg; break;
		case 'h': usage(stdout, 0);
		case OPT_VERSION:
			printf("aiperf-metrics %s\n", AIPERF_VERSION);
			exit(0);
		default: usage(stderr, 2);
		}
	}
	op->files = argv + optind;
	op->nfiles = argc - optind;
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
	    strerror(errno), lf->lines);
}

/* One input line: returns 0, or -1 on a malformed line (already reported). */
static int
do_line(struct run *run, const struct opts *o, struct lines *l, const char *s, size_t n)
{
	char why[256];

	if (rec_parse(&run->rec, o, s, n, why, sizeof(why)) < 0) {
		if (!o->keep_going)
			die("%s:%zu: %s", l->name, l->lineno, why);
		warn("%s:%zu: %s (skipped)", l->name, l->lineno, why);
		run->skipped++;
		return -1;
	}
	if ((o->drop_warmup && run->rec.warmup) || run->rec.not_sent)
		return 0;
	if (rec_emit(&run->rec, o, &run->out) == 0) {
		if (fwrite(run->out.s, 1, run->out.len, stdout) != run->out.len)
			die_write();
		if (o->unbuffered && fflush(stdout) == EOF)
			die_write();
	}
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

static void
do_file(struct run *run, const struct opts *o, const char *path)
{
	struct lines l;
	const char *s;
	size_t n, max = line_max();
	int rc;

	if (!strcmp(path, "-"))
		lines_fdopen(&l, 0, "<stdin>", max);
	else if (lines_open(&l, path, max) < 0)
		die("cannot open '%s':", path);
	while ((rc = lines_next(&l, &s, &n)) != 0) {
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
	if (run->pool)
		pool_flush(run->pool);
	lines_close(&l);
}

int
main(int argc, char **argv)
{
	struct options op = { 0 };
	struct run run;

	util_setprogname("aiperf-metrics");
	signal(SIGPIPE, SIG_IGN);
	parse_args(&op, argc, argv);
	if (!op.o.server_tokens)
		op.o.tok = tokenizer_open(op.tokenizer, op.revision);
	rec_init(&run.rec);
	buf_init(&run.out, BUF_NOMAX);
	run.skipped = 0;
	run.pool = NULL;
	run.tee = NULL;
	struct linefile tee;
	if (op.tee) {
		if (linefile_open(&tee, op.tee) < 0)
			die("cannot open '%s':", op.tee);
		run.tee = &tee;
	}
	metrics_init();
	if (op.o.threads > 1)
		run.pool = pool_new(&op.o, op.o.threads);
	if (op.nfiles == 0)
		do_file(&run, &op.o, "-");
	for (int i = 0; i < op.nfiles; i++)
		do_file(&run, &op.o, op.files[i]);
	if (run.pool)
		run.skipped += pool_free(run.pool);
	if (run.tee && linefile_close(run.tee) < 0) {
		tee.path = (char *)op.tee;
		tee_failed(&tee);
	}
	if (run.skipped)
		warn("%zu malformed line%s skipped", run.skipped, run.skipped == 1 ? "" : "s");
	rec_release(&run.rec);
	buf_release(&run.out);
	tokenizer_free(op.o.tok);
	return util_fshut(stdout, "<stdout>") < 0;
}
