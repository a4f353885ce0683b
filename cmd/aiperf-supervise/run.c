/* SPDX-License-Identifier: Apache-2.0 */
/* The run: the FIFOs, the scrapers, the senders' pipelines, metrics and export, one loop to the end. */
#define _GNU_SOURCE
#include "supervise.h"

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu.h"
#include "phase.h"

/* A FIFO of the plan: made, or one already there. */
static int
fifo(const char *path)
{
	struct stat st;

	if (!path || mkfifo(path, 0600) == 0)
		return 0;
	if (errno == EEXIST && lstat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		return 0;
	return -1;
}

/* Every FIFO of the plan, before anything starts. */
static void
make_fifos(struct sv *sv)
{
	const struct plan *p = &sv->p;

	if (p->nscrapers && fifo(p->scrape_ctl) < 0) {
		warn("cannot make '%s': no server metrics nor GPU telemetry:", p->scrape_ctl);
		plan_set(&sv->p.scrape_ctl, NULL);
	}
	if (fifo(p->scrape_ack) < 0)
		die("cannot make '%s':", p->scrape_ack);
	for (size_t i = 0; i < p->nscrapers; i++)
		if (fifo(p->scrapers[i].cue) < 0)
			die("cannot make '%s':", p->scrapers[i].cue);
	if (fifo(p->metrics_gate) < 0)
		die("cannot make '%s':", p->metrics_gate);
	/* held before metrics starts: it waits until the senders end */
	if (p->metrics_gate && (sv->gate_fd = open(p->metrics_gate, O_RDWR | O_CLOEXEC)) < 0)
		die("cannot open '%s':", p->metrics_gate);
	if (p->nsenders < 2)
		return;
	for (size_t k = 0; k < p->nsenders; k++)
		if (fifo(p->senders[k].phase_ack) < 0)
			die("cannot make '%s':", p->senders[k].phase_ack);
	if (fifo(p->phase_cue) < 0)
		die("cannot make '%s':", p->phase_cue);
}

/* The spools of an earlier run go: each sender's records are appended anew. */
static void
remove_spools(const struct plan *p)
{
	for (size_t k = 0; k < p->nsenders; k++)
		if (unlink(p->senders[k].spool) < 0 && errno != ENOENT)
			die("cannot remove '%s':", p->senders[k].spool);
}

/* The planner's notes, "LEVEL message" each, into the run log. */
static void
log_plan(const struct plan *p)
{
	for (size_t i = 0; i < p->log.n; i++) {
		const char *s = p->log.v[i], *sp = strchr(s, ' ');
		char level[16];
		int l;

		if (!sp || (size_t)(sp - s) >= sizeof(level))
			continue;
		memcpy(level, s, (size_t)(sp - s));
		level[sp - s] = 0;
		l = runlog_parse_level(level);
		sv_log(l > 0 ? (enum runlog_level)l : RUNLOG_INFO, "%s", sp + 1);
	}
}

static void
write_pid(const char *path, pid_t pid)
{
	char b[32];
	int n = snprintf(b, sizeof(b), "%ld\n", (long)pid);
	int fd;

	if (!path)
		return;
	fd = open_out(path);
	if (write(fd, b, (size_t)n) != n)
		warn("cannot write '%s':", path);
	close(fd);
}

/* A stage in the stages' group (the first one leads it). */
static pid_t
stage(struct sv *sv, struct spawn *s, enum kid_kind kind, size_t index, int keeper)
{
	pid_t pid;

	s->pgid = sv->pgid;
	pid = keeper ? spawn_keeper(sv, s) : spawn_exec(sv, s);
	if (!sv->pgid)
		sv->pgid = pid;
	kid_add(sv, pid, kind, index);
	for (int i = 0; i < 3; i++)
		if (s->fd[i] > 2)
			xclose(&s->fd[i]);
	return pid;
}

/* Sender k: gen | send | spool, the spool holding metrics' input (hold). */
static void
start_sender(struct sv *sv, size_t k, int hold)
{
	const struct plan_sender *ps = &sv->p.senders[k];
	static char cat_name[] = "cat";
	char *const cat[] = { cat_name, NULL };
	int a[2], b[2];
	struct spawn s = { .fd3 = -1, .hold = -1, .cpu = CPU_REST, .idle = 1 };
	pid_t pid;

	pipe_cloexec(a);
	pipe_cloexec(b);
	s.argv = ps->gen.v;
	s.fd[0] = s.fd[2] = -1;
	s.file[0] = !sv->p.input ? "/dev/null" : strcmp(sv->p.input, "-") ? sv->p.input : NULL;
	s.fd[1] = a[1];
	s.file[2] = ps->gen_err;
	stage(sv, &s, KID_GEN, k, 0);
	s = (struct spawn){ .argv = ps->send.v, .fd3 = -1, .hold = -1, .cpu = CPU_SOLO,
			    .blocked = 1 };
	s.fd[0] = a[0];
	s.fd[1] = b[1];
	s.fd[2] = -1;
	s.file[2] = ps->send_err;
	pid = stage(sv, &s, KID_SEND, k, 0);
	write_pid(ps->send_pid, pid);
	s = (struct spawn){ .argv = cat, .fd3 = -1, .hold = hold, .cpu = CPU_REST, .idle = 1 };
	s.fd[0] = b[0];
	s.fd[1] = s.fd[2] = -1;
	s.file[1] = ps->spool;
	s.file[2] = ps->spool_err;
	stage(sv, &s, KID_SPOOL, k, 1);
}

/* metrics (its live view on fd 3 into aiperf-ui) | export. */
static void
start_downstream(struct sv *sv, int in)
{
	struct spawn s = { .argv = sv->p.metrics.v, .fd3 = -1, .hold = -1, .cpu = CPU_REST,
			   .idle = 1 };
	int ui[2] = { -1, -1 }, out = sv->export_in;

	if (sv->p.ui.n)
		pipe_cloexec(ui);
	s.fd[0] = in;
	s.fd[1] = out;
	s.fd[2] = -1;
	s.file[2] = sv->p.metrics_err;
	s.fd3 = ui[1];
	stage(sv, &s, KID_METRICS, 0, 0);
	sv->export_in = -1;
	xclose(&ui[1]);
	if (sv->p.ui.n) {
		s = (struct spawn){ .argv = sv->p.ui.v, .fd3 = -1, .hold = -1, .cpu = CPU_REST,
				    .idle = 1 };
		s.fd[0] = ui[0];
		s.fd[1] = open("/dev/null", O_WRONLY | O_CLOEXEC);
		s.fd[2] = -1;
		stage(sv, &s, KID_UI, 0, 0);
	}
	s = (struct spawn){ .argv = sv->p.export.v, .fd3 = -1, .hold = -1, .cpu = CPU_REST,
			    .idle = 1 };
	s.fd[0] = sv->export_out;
	s.fd[1] = -1;
	s.fd[2] = -1;
	s.file[2] = sv->p.export_err;
	stage(sv, &s, KID_EXPORT, 0, 0);
	sv->export_out = -1;
}

static pid_t
pid_of(const struct sv *sv, enum kid_kind kind)
{
	for (size_t i = 0; i < sv->nkids; i++)
		if (sv->kids[i].kind == kind)
			return sv->kids[i].pid;
	return 0;
}

/* The stage CPU sampler (cpu.h), once the pids are known. */
static void
start_cpu(struct sv *sv)
{
	pid_t *gens = xcalloc(sv->p.nsenders, sizeof(*gens));
	size_t n = 0;

	for (size_t i = 0; i < sv->nkids; i++)
		if (sv->kids[i].kind == KID_GEN)
			gens[n++] = sv->kids[i].pid;
	if (sv->p.stage_cpu)
		sv->cpu = cpu_start(sv->l, sv->p.stage_cpu, gens, n, pid_of(sv, KID_METRICS),
				    pid_of(sv, KID_EXPORT));
	free(gens);
}

void
run_start(struct sv *sv)
{
	int c[2];

	sv->started = 1;
	/* the barrier's reader is there before a sender cues it */
	if (sv->p.nsenders > 1)
		sv->phase = phase_open(sv->l, &sv->p);
	pipe_cloexec(c);
	for (size_t k = 0; k < sv->p.nsenders; k++)
		start_sender(sv, k, c[1]);
	close(c[1]);
	start_downstream(sv, c[0]);
	start_cpu(sv);
	sig_deliver_pending(sv);
}

static void
senders_ended(struct sv *sv)
{
	sv->senders_ended = 1;
	sv_log(RUNLOG_DEBUG, "the senders have ended: the scrapers' final scrape%s",
	       sv->gate_fd >= 0 ? ", aiperf-metrics starts" : "");
	scrape_release(sv);
	xclose(&sv->gate_fd);
	phase_close(sv->phase);
	sv->phase = NULL;
	cpu_stop(sv->cpu);
	sv->cpu = NULL;
}

void
run_reaped(struct sv *sv, struct kid *k)
{
	if (k->kind == KID_SEND && !kids_running(sv, KID_SEND))
		senders_ended(sv);
	else if (k->kind == KID_METRICS)
		scrape_metrics_ended(sv);
	else if (k->kind == KID_SCRAPER)
		scrape_ended(sv, k);
}

static int
finished(const struct sv *sv)
{
	if (!sv->started && !sv->killed)
		return 0;
	for (size_t i = 0; i < sv->nkids; i++)
		if (sv->kids[i].status < 0)
			return 0;
	return 1;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static void
release(struct sv *sv)
{
	scrape_free(sv);
	phase_close(sv->phase);
	cpu_stop(sv->cpu);
	xclose(&sv->export_in);
	xclose(&sv->export_out);
	xclose(&sv->gate_fd);
	if (sv->ctl_fd >= 0) {
		evloop_forget(sv->l, sv->ctl_fd);
		xclose(&sv->ctl_fd);
	}
	evloop_free(sv->l);
	free(sv->kids);
	if (sv->script_gone && sv->p.run_dir)
		nftw(sv->p.run_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	plan_release(&sv->p);
}

int
run_supervise(struct sv *sv)
{
	int e[2], st;

	sv->scrape_ctl_fd = sv->inotify_fd = sv->gate_fd = -1;
	sv->baseline_timer = (struct evloop_timer)EVLOOP_TIMER_INIT(NULL, sv);
	sv->gpu_timer = (struct evloop_timer)EVLOOP_TIMER_INIT(NULL, sv);
	if (!(sv->l = evloop_new(16)))
		die("cannot make an event loop:");
	sig_setup(sv);
	make_fifos(sv);
	remove_spools(&sv->p);
	log_plan(&sv->p);
	pipe_cloexec(e);
	sv->export_out = e[0];
	sv->export_in = e[1];
	scrape_start(sv);
	scrape_baseline(sv);
	while (!finished(sv)) {
		if (sv->start_now && !sv->started && !sv->killed)
			run_start(sv);
		if (finished(sv) || evloop_run_once(sv->l, -1) >= 0 || errno == EINTR)
			continue;
		die("the event loop failed:");
	}
	st = report_end(sv);
	release(sv);
	return st;
}
