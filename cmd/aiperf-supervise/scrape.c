/* SPDX-License-Identifier: Apache-2.0 */
/* The scrapers: started first, their baseline waited for, ended by the senders' end. */
#define _GNU_SOURCE
#include "supervise.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "clock.h"

/* The pid of scraper i, 0 when it was not started. */
static struct kid *
scraper_kid(struct sv *sv, size_t i)
{
	for (size_t j = 0; j < sv->nkids; j++)
		if (sv->kids[j].kind == KID_SCRAPER && sv->kids[j].index == i)
			return &sv->kids[j];
	return NULL;
}

static int
devnull(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("cannot open '/dev/null':");
	return fd;
}

static void
start_one(struct sv *sv, size_t i, int null)
{
	const struct plan_scraper *c = &sv->p.scrapers[i];
	struct spawn s = { .argv = c->argv.v, .fd3 = -1, .cpu = CPU_REST, .idle = 1 };
	pid_t pid;

	/* there already when the baseline's watch is set on it */
	close(open_out(c->out));
	s.fd[0] = null;
	s.fd[1] = s.fd[2] = -1;
	s.file[1] = c->out;
	s.file[2] = c->err;
	s.hold = c->hold_export ? sv->export_in : -1;
	s.rename_from = c->done ? c->out : NULL;
	s.rename_to = c->done;
	pid = spawn_keeper(sv, &s);
	kid_add(sv, pid, KID_SCRAPER, i);
}

void
scrape_start(struct sv *sv)
{
	int null;

	if (!sv->p.nscrapers)
		return;
	sv->seen = xcalloc(sv->p.nscrapers, sizeof(*sv->seen));
	sv->lines = xcalloc(sv->p.nscrapers, sizeof(*sv->lines));
	if (!sv->p.scrape_ctl)
		return;
	sv->scrape_ctl_fd = open(sv->p.scrape_ctl, O_RDWR | O_CLOEXEC);
	if (sv->scrape_ctl_fd < 0) {
		warn("cannot open '%s': no server metrics nor GPU telemetry:", sv->p.scrape_ctl);
		return;
	}
	null = devnull();
	for (size_t i = 0; i < sv->p.nscrapers; i++)
		start_one(sv, i, null);
	close(null);
}

/* The lines scraper i has written to its out since the last count. */
static void
count_lines(struct sv *sv, size_t i)
{
	char b[65536];
	ssize_t n;
	int fd = open(sv->p.scrapers[i].out, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while ((n = pread(fd, b, sizeof(b), sv->seen[i])) > 0) {
		sv->seen[i] += n;
		for (ssize_t j = 0; j < n; j++)
			sv->lines[i] += b[j] == '\n';
	}
	close(fd);
}

/* How many scrapers the baseline still waits for. */
static int
baseline_waiting(struct sv *sv)
{
	int left = 0;

	for (size_t i = 0; i < sv->p.nscrapers; i++) {
		const struct kid *k = scraper_kid(sv, i);

		if (!sv->p.scrapers[i].baseline || !k || k->status >= 0)
			continue;
		count_lines(sv, i);
		left += sv->lines[i] < sv->p.scrapers[i].endpoints;
	}
	return left;
}

static void
baseline_done(struct sv *sv)
{
	if (sv->inotify_fd >= 0) {
		evloop_forget(sv->l, sv->inotify_fd);
		xclose(&sv->inotify_fd);
	}
	evloop_timer_stop(sv->l, &sv->baseline_timer);
	sv->baseline_left = 0;
	sv->start_now = 1;
}

static void
baseline_check(struct sv *sv)
{
	if (sv->baseline_left && !baseline_waiting(sv))
		baseline_done(sv);
}

static void
on_inotify(struct evloop *l, int fd, unsigned events, void *ud)
{
	char b[4096] __attribute__((aligned(__alignof__(struct inotify_event))));

	(void)l;
	(void)events;
	while (read(fd, b, sizeof(b)) > 0)
		;
	baseline_check(ud);
}

static void
on_baseline_timeout(struct evloop *l, struct evloop_timer *t)
{
	(void)l;
	baseline_done(t->ud);
}

void
scrape_baseline(struct sv *sv)
{
	sv->baseline_left = sv->p.nscrapers ? baseline_waiting(sv) : 0;
	if (!sv->baseline_left) {
		sv->start_now = 1;
		return;
	}
	sv->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	for (size_t i = 0; sv->inotify_fd >= 0 && i < sv->p.nscrapers; i++)
		if (sv->p.scrapers[i].baseline)
			inotify_add_watch(sv->inotify_fd, sv->p.scrapers[i].out, IN_MODIFY);
	if (sv->inotify_fd >= 0)
		evloop_add(sv->l, sv->inotify_fd, EVLOOP_IN, on_inotify, sv);
	sv->baseline_timer.fn = on_baseline_timeout;
	sv->baseline_timer.ud = sv;
	evloop_timer_arm(sv->l, &sv->baseline_timer, clock_mono_ns() +
			 (sv->p.scrape_timeout_s + 1) * 1000000000LL);
}

/* The GPU scraper's warnings, on stderr and in the log. */
static void
scrape_warnings(const char *path)
{
	FILE *f = path ? fopen(path, "re") : NULL;
	char line[4096];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		fprintf(stderr, "%s\n", line);
		sv_log(RUNLOG_WARNING, "%s", line);
	}
	fclose(f);
}

void
scrape_ended(struct sv *sv, struct kid *k)
{
	const struct plan_scraper *c = &sv->p.scrapers[k->index];

	if (c->done)
		sv_log(RUNLOG_DEBUG, "server metrics: the scraper has ended");
	if (c->hold_export)
		scrape_warnings(c->err);
	baseline_check(sv);
}

void
scrape_release(struct sv *sv)
{
	xclose(&sv->scrape_ctl_fd);
}

static void
kill_scrapers(struct sv *sv, int export_only)
{
	for (size_t i = 0; i < sv->p.nscrapers; i++) {
		const struct kid *k = scraper_kid(sv, i);

		if (k && k->status < 0 && (!export_only || sv->p.scrapers[i].hold_export))
			kill(-k->pid, SIGKILL);
	}
}

static void
on_gpu_timeout(struct evloop *l, struct evloop_timer *t)
{
	(void)l;
	kill_scrapers(t->ud, 1);
}

void
scrape_metrics_ended(struct sv *sv)
{
	sv->gpu_timer.fn = on_gpu_timeout;
	sv->gpu_timer.ud = sv;
	for (size_t i = 0; i < sv->p.nscrapers; i++) {
		const struct kid *k = scraper_kid(sv, i);

		if (k && k->status < 0 && sv->p.scrapers[i].hold_export)
			evloop_timer_arm(sv->l, &sv->gpu_timer, clock_mono_ns() + 30000000000LL);
	}
}

void
scrape_kill(struct sv *sv)
{
	kill_scrapers(sv, 0);
}

void
scrape_free(struct sv *sv)
{
	if (sv->inotify_fd >= 0) {
		evloop_forget(sv->l, sv->inotify_fd);
		xclose(&sv->inotify_fd);
	}
	evloop_timer_stop(sv->l, &sv->baseline_timer);
	evloop_timer_stop(sv->l, &sv->gpu_timer);
	xclose(&sv->scrape_ctl_fd);
	free(sv->seen);
	free(sv->lines);
}
