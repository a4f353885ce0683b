/* SPDX-License-Identifier: Apache-2.0 */
/* The run's end, reported once: the first failure upstream, the stages' messages, the status. */
#define _GNU_SOURCE
#include "supervise.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"

#define MAX_ERR_FILE ((size_t)16 << 20)

enum { S_GEN, S_SEND, S_SPOOL, S_METRICS, S_EXPORT, S_N };

static const char *const stage_names[S_N] = { "gen", "send", "spool", "metrics", "export" };

/* Where path's last whole line ends, reading back from size: 0 when none. */
static off_t
last_newline(int fd, off_t size)
{
	char b[4096];
	off_t pos = size;

	while (pos > 0) {
		ssize_t n = pos < (off_t)sizeof(b) ? (ssize_t)pos : (ssize_t)sizeof(b);

		if (pread(fd, b, (size_t)n, pos - n) != n)
			return size;
		for (ssize_t j = n - 1; j >= 0; j--)
			if (b[j] == '\n')
				return pos - n + j + 1;
		pos -= n;
	}
	return 0;
}

void
trim_partial(const char *path)
{
	struct stat st;
	char last;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) == 1 &&
	    last != '\n' && ftruncate(fd, last_newline(fd, st.st_size)) < 0)
		fprintf(stderr, "%s: cannot truncate '%s': %s\n", argv0, path, util_strerror(errno));
	close(fd);
}

/* A stage's status: the first that failed of its senders' (shards_gather); 255: never ran. */
static int
stage_status(const struct sv *sv, enum kid_kind kind)
{
	int st = 255, seen = 0;

	for (size_t i = 0; i < sv->nkids; i++) {
		const struct kid *k = &sv->kids[i];

		if (k->kind != kind)
			continue;
		if (!seen++)
			st = 0;
		if (st == 0 && k->status != 0)
			st = k->status;
	}
	return st;
}

/* The stage's messages, its senders' files one after the other, into b. */
static int
stage_messages(const struct sv *sv, int stage, struct buf *b)
{
	const struct plan *p = &sv->p;
	int any = 0;

	for (size_t k = 0; k < (stage <= S_SPOOL ? p->nsenders : 1); k++) {
		const char *path = stage == S_GEN ? p->senders[k].gen_err
				 : stage == S_SEND ? p->senders[k].send_err
				 : stage == S_SPOOL ? p->senders[k].spool_err
				 : stage == S_METRICS ? p->metrics_err : p->export_err;
		size_t n;
		char *s = path ? util_readfile(path, MAX_ERR_FILE, &n) : NULL;

		if (!s)
			continue;
		buf_add(b, s, n);
		free(s);
		any = 1;
	}
	return any && b->len;
}

/* The last n lines of b's text (tail -n), from where. */
static const char *
last_lines(const struct buf *b, int n)
{
	size_t i = b->len;

	if (i && b->s[i - 1] == '\n')
		i--;
	while (i > 0) {
		if (b->s[i - 1] == '\n' && --n == 0)
			break;
		i--;
	}
	return b->s + i;
}

/* The raw records' file a spool writes: the senders' one, less its ".K". */
static char *
spill_name(const struct sv *sv)
{
	char *s = xstrdup(sv->p.senders[0].spool), *dot = strrchr(s, '.');

	if (sv->p.nsenders > 1 && dot && !strcmp(dot, ".1"))
		*dot = 0;
	return s;
}

static void
stage_failed(const struct sv *sv, int stage, int st)
{
	struct buf b;
	const char *log = sv->p.log_file;
	int any;

	buf_init(&b, BUF_NOMAX);
	any = stage_messages(sv, stage, &b);
	if (stage == S_SPOOL) {
		char *spill = spill_name(sv);
		const char *last = any ? last_lines(&b, 1) : "";

		trim_partial(spill);
		sv_say("writing the raw records to %s failed (status %d): %.*s", spill, st,
		       (int)strcspn(last, "\n"), last);
		sv_log(RUNLOG_ERROR, "writing the raw records to %s failed (status %d)", spill, st);
		free(spill);
	} else {
		sv_say("aiperf-%s failed (status %d)%s%s", stage_names[stage], st,
		       log ? "; its messages are in " : "", log ? log : "");
		sv_log(RUNLOG_ERROR, "aiperf-%s failed (status %d)", stage_names[stage], st);
		if (stage != S_EXPORT && any)
			fputs(last_lines(&b, 5), stderr);
	}
	buf_release(&b);
}

/* stages_report: every stage that failed, upstream first; whether one did. */
static int
stages_report(const struct sv *sv)
{
	static const enum kid_kind kinds[S_N] = { KID_GEN, KID_SEND, KID_SPOOL, KID_METRICS,
						  KID_EXPORT };
	int bad[S_N], later = 0, any = 0;

	for (int i = S_N - 1; i >= 0; i--) {
		int st = stage_status(sv, kinds[i]);

		bad[i] = -1;
		if ((sv->caught && i == S_GEN) || st == 0 || (i == S_EXPORT && st == 3) ||
		    (st == 141 && later))
			continue;
		bad[i] = st;
		later = any = 1;
	}
	for (int i = 0; i < S_N; i++)
		if (bad[i] >= 0)
			stage_failed(sv, i, bad[i]);
	return any;
}

static void
cat_file(const char *path)
{
	size_t n;
	char *s = path ? util_readfile(path, MAX_ERR_FILE, &n) : NULL;

	if (s && fwrite(s, 1, n, stderr) != n)
		clearerr(stderr);
	free(s);
}

/* The server metrics scraper's warnings (an endpoint that failed). */
static void
server_metrics_warnings(const struct sv *sv)
{
	for (size_t i = 0; i < sv->p.nscrapers; i++) {
		const struct plan_scraper *c = &sv->p.scrapers[i];
		FILE *f = c->done && c->err ? fopen(c->err, "re") : NULL;
		char line[4096];

		while (f && fgets(line, sizeof(line), f)) {
			const char *s = line;

			line[strcspn(line, "\n")] = 0;
			if (!strncmp(s, "aiperf-scrape: ", 15))
				s += 15;
			sv_say("server metrics: %s", s);
			sv_log(RUNLOG_WARNING, "server metrics: %s", s);
		}
		if (f)
			fclose(f);
	}
}

static void
remove_spills(const struct sv *sv)
{
	for (size_t k = 0; k < sv->p.nsenders; k++)
		if (!sv->p.raw || strcmp(sv->p.senders[k].spool, sv->p.raw))
			unlink(sv->p.senders[k].spool);
}

static const char *
sig_abbrev(int sig)
{
	return sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : "HUP";
}

int
report_end(struct sv *sv)
{
	int failed, st;

	if (sv->killed) {
		remove_spills(sv);
		return 128 + sv->first_sig;
	}
	failed = stages_report(sv);
	if (sv->p.notice) {
		struct stat s;

		if (stat(sv->p.notice, &s) == 0 && s.st_size > 0)
			cat_file(sv->p.notice);
	}
	server_metrics_warnings(sv);
	cat_file(sv->p.export_err);
	remove_spills(sv);
	if (failed)
		return 1;
	st = stage_status(sv, KID_EXPORT);
	if (sv->caught)
		sv_log(RUNLOG_INFO, "the stages ended: cancelled by SIG%s", sig_abbrev(sv->first_sig));
	else
		sv_log(RUNLOG_INFO, "the stages ended: aiperf-export status %d", st);
	return sv->caught ? 128 + sv->first_sig : st;
}

void
report_killed(struct sv *sv)
{
	static const enum kid_kind kinds[S_N] = { KID_GEN, KID_SEND, KID_SPOOL, KID_METRICS,
						  KID_EXPORT };
	const char *names[S_N];
	struct buf b;
	int n = 0;

	for (int i = 0; i < S_N; i++)
		if (kids_running(sv, kinds[i]))
			names[n++] = i == S_SPOOL ? "the raw records' spool"
				   : i == S_GEN ? "aiperf-gen" : i == S_SEND ? "aiperf-send"
				   : i == S_METRICS ? "aiperf-metrics" : "aiperf-export";
	if (!n)
		return;
	buf_init(&b, BUF_NOMAX);
	for (int i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", names[i]);
	sv_say("%s killed at the third signal", b.s);
	sv_log(RUNLOG_WARNING, "%s killed at the third signal", b.s);
	buf_release(&b);
}
