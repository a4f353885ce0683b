/* SPDX-License-Identifier: Apache-2.0 */
/* The senders' phase barrier and the scrapers' cue, coordinator side: lib/cue's barrier on the loop. */
#include "phase.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cue.h"
#include "evloop.h"
#include "plan.h"
#include "runlog.h"
#include "util.h"

struct phase {
	struct evloop *l;
	int cue_fd;		/* p->phase_cue: the senders' cues, read */
	int *ack;		/* each sender's phase_ack: its go lines */
	size_t nsenders;
	int scrape_fd;		/* p->scrape_ack, or -1: no scraper cue */
	char **cues;		/* the scrapers' cue FIFOs */
	size_t ncues;
	struct cue_reader in;
	struct cue_barrier b;
	struct evloop_timer timer;	/* the scrapers' CUE_WAIT_NS */
	size_t want, got;	/* scrapers cued, acknowledgements */
	int64_t t0;		/* when they were cued */
	int waiting;		/* for the scrapers: the go waits */
};

static void on_cue(struct evloop *l, int fd, unsigned events, void *ud);

/* --start-at's moment, as seconds since the epoch ("1700000000.25"). */
static void
show_start(char out[32], int64_t ns)
{
	int n = snprintf(out, 32, "%lld.%09lld", (long long)(ns / 1000000000),
			 (long long)(ns % 1000000000));

	while (n > 0 && out[n - 1] == '0')
		out[--n] = '\0';
	if (n > 0 && out[n - 1] == '.')
		out[--n] = '\0';
}

/* The go of the phase every sender has cued, to each of them. */
static void
give_go(struct phase *ph)
{
	const char *name = cue_phase_name(ph->b.phase);
	char line[CUE_LINE_MAX], at[32];
	struct cue_go g;
	size_t len;

	if (cue_barrier_go(&ph->b, clock_real_ns(), &g) < 0)
		return;
	if (ph->b.start_past) {
		show_start(at, ph->b.start_ns);
		warn("--start-at %s is past: the run starts now", at);
	}
	len = cue_go_format(&g, line);
	for (size_t k = 0; k < ph->nsenders; k++)
		if (write(ph->ack[k], line, len) != (ssize_t)len)
			warn("cannot send the %s go to sender %zu:", name, k + 1);
	runlog(RUNLOG_INFO, "%zu senders: the %s phase starts at %lld (epoch ns)", ph->nsenders,
	       name, (long long)g.wall_ns);
}

/* The scrapers have acknowledged, or their time is up: profiling goes. */
static void
scrapers_done(struct phase *ph)
{
	evloop_timer_stop(ph->l, &ph->timer);
	evloop_del(ph->l, ph->scrape_fd);
	if (ph->got < ph->want)
		warn("%zu of %zu scrapers did not acknowledge the cue within %.0f s: profiling "
		     "starts without their reference scrape (server metrics counters may "
		     "include warmup traffic)", ph->want - ph->got, ph->want,
		     (double)CUE_WAIT_NS / 1e9);
	runlog(RUNLOG_INFO, "scrapers cued: %zu of %zu acknowledged in %.3f ms", ph->got,
	       ph->want, (double)(clock_mono_ns() - ph->t0) / 1e6);
	ph->waiting = 0;
	give_go(ph);
	/* the lines that came meanwhile */
	if (evloop_add(ph->l, ph->cue_fd, EVLOOP_IN, on_cue, ph) == 0)
		on_cue(ph->l, ph->cue_fd, EVLOOP_IN, ph);
}

static void
on_ack(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct phase *ph = ud;

	(void)l;
	(void)events;
	ph->got += cue_count_lines(fd);
	if (ph->got >= ph->want)
		scrapers_done(ph);
}

static void
on_timer(struct evloop *l, struct evloop_timer *t)
{
	(void)l;
	scrapers_done(t->ud);
}

/*
 * Before profiling: a "cue" line to each scraper (one that has ended,
 * whose FIFO nobody reads, is not awaited), then their acknowledgements
 * on the loop, CUE_WAIT_NS at most; the senders' cues wait meanwhile.
 */
static void
cue_scrapers(struct phase *ph)
{
	ph->t0 = clock_mono_ns();
	ph->want = ph->got = 0;
	cue_count_lines(ph->scrape_fd);	/* no stale acknowledgement counts */
	for (size_t i = 0; i < ph->ncues; i++) {
		long n = cue_send(ph->cues[i], CUE_SCRAPE, strlen(CUE_SCRAPE), 1);

		if (n < 0)
			warn("no scraper reads '%s': not cued:", ph->cues[i]);
		else if (n != 1)
			warn("cannot cue the scraper through '%s':", ph->cues[i]);
		ph->want += n == 1;
	}
	ph->waiting = 1;
	evloop_del(ph->l, ph->cue_fd);
	if (!ph->want || evloop_add(ph->l, ph->scrape_fd, EVLOOP_IN, on_ack, ph) < 0) {
		scrapers_done(ph);
		return;
	}
	evloop_timer_arm(ph->l, &ph->timer, ph->t0 + CUE_WAIT_NS);
}

/* One sender's line (NULL: one too long); its phase complete, the go or
 * the scrapers' cue. */
static void
take_line(struct phase *ph, const char *line, size_t len)
{
	char w[160];
	int k = cue_barrier_line(&ph->b, line, len, w, sizeof(w));

	if (w[0])
		runlog(RUNLOG_WARNING, "phase barrier: %s", w);
	if (k != 1)
		return;
	if (ph->b.phase == CUE_PROFILING && ph->scrape_fd >= 0 && ph->ncues)
		cue_scrapers(ph);
	else
		give_go(ph);
}

/* The senders' cues: every whole line, until the scrapers' cue holds the
 * barrier back or both phases have passed (then nothing more is read). */
static void
on_cue(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct phase *ph = ud;
	const char *line;
	size_t len;
	int k;

	(void)events;
	do {
		while (!ph->waiting && ph->b.phase != CUE_DONE &&
		       (k = cue_reader_next(&ph->in, &line, &len)))
			take_line(ph, k > 0 ? line : NULL, len);
		if (ph->waiting)
			return;
		if (ph->b.phase == CUE_DONE) {
			evloop_del(l, fd);
			return;
		}
	} while (cue_reader_fill(&ph->in, fd) > 0);
}

/* A FIFO of the plan opened read-write into *fd: 0, or -1 with a warning. */
static int
open_fifo(const char *path, int *fd)
{
	if (path && (*fd = cue_fifo_open(path)) >= 0)
		return 0;
	warn("cannot open '%s': the senders' phases start unsynchronized:",
	     path ? path : "(none)");
	return -1;
}

/* The scrapers' cue FIFOs and their acknowledgements' (none: no cue;
 * one that cannot be opened: a warning, the phases go on uncued). */
static void
open_scrapers(struct phase *ph, const struct plan *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nscrapers; i++)
		n += p->scrapers[i].cue != NULL;
	if (!p->scrape_ack || !n)
		return;
	if ((ph->scrape_fd = cue_fifo_open(p->scrape_ack)) < 0) {
		warn("cannot open '%s': the scrapers are not cued:", p->scrape_ack);
		return;
	}
	ph->cues = xcalloc(n, sizeof(*ph->cues));
	for (size_t i = 0; i < p->nscrapers; i++)
		if (p->scrapers[i].cue)
			ph->cues[ph->ncues++] = xstrdup(p->scrapers[i].cue);
}

/* The plan's margin (µs, any value) in ns, within the barrier's bounds. */
static int64_t
margin_ns(long long us)
{
	return us < 0 ? 0 : us > 3600000000LL ? 3600000000000LL : (int64_t)us * 1000;
}

struct phase *
phase_open(struct evloop *l, const struct plan *p)
{
	struct phase *ph = xcalloc(1, sizeof(*ph));

	*ph = (struct phase){ .l = l, .cue_fd = -1, .scrape_fd = -1,
			      .timer = EVLOOP_TIMER_INIT(on_timer, ph) };
	cue_reader_init(&ph->in);
	cue_barrier_init(&ph->b, p->nsenders, margin_ns(p->margin_us), p->start_ns);
	ph->ack = xcalloc(p->nsenders + 1, sizeof(*ph->ack));
	for (size_t k = 0; k < p->nsenders; k++)
		ph->ack[k] = -1;
	ph->nsenders = p->nsenders;
	for (size_t k = 0; k < p->nsenders; k++)
		if (open_fifo(p->senders[k].phase_ack, &ph->ack[k]) < 0)
			goto err;
	open_scrapers(ph, p);
	if (open_fifo(p->phase_cue, &ph->cue_fd) < 0)
		goto err;
	if (evloop_add(l, ph->cue_fd, EVLOOP_IN, on_cue, ph) < 0) {
		warn("cannot watch '%s': the senders' phases start unsynchronized:",
		     p->phase_cue);
		goto err;
	}
	return ph;
err:
	phase_close(ph);
	return NULL;
}

static void
close_fd(struct evloop *l, int fd)
{
	if (fd < 0)
		return;
	evloop_forget(l, fd);
	close(fd);
}

void
phase_close(struct phase *ph)
{
	if (!ph)
		return;
	evloop_timer_stop(ph->l, &ph->timer);
	close_fd(ph->l, ph->cue_fd);
	close_fd(ph->l, ph->scrape_fd);
	for (size_t k = 0; k < ph->nsenders; k++)
		close_fd(ph->l, ph->ack[k]);
	for (size_t i = 0; i < ph->ncues; i++)
		free(ph->cues[i]);
	free(ph->cues);
	free(ph->ack);
	free(ph);
}
