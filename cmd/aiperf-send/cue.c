/* SPDX-License-Identifier: Apache-2.0 */
/* --scrape-cue and --phase-cue: the sender's end of lib/cue, the scrapers' cue and the senders' phase barrier. */
#include "send.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "runlog.h"
#include "util.h"

/* One "cue" line into the FIFO at path: 1, or 0 when no scraper reads it. */
static int
cue_one(const char *path)
{
	long n = cue_send(path, CUE_SCRAPE, strlen(CUE_SCRAPE), 1);

	if (n < 0)	/* ENXIO: nobody has it open to read (the scraper has ended) */
		warn("no scraper reads '%s': not cued:", path);
	else if (n != 1)
		warn("cannot cue the scraper through '%s':", path);
	return n == 1;
}

/*
 * The warmup has drained (no request in flight) and profiling is about
 * to start: each scraper scrapes its endpoints now and acknowledges once
 * those samples are written, so that they are the reference of the
 * profiling window (aiperf-send(1), Scrapers). CUE_WAIT_NS at most, then
 * profiling starts anyway. The ack FIFO is opened read-write: it never
 * reads EOF between the scrapers' writes.
 */
void
cue_scrapers(struct sender *s)
{
	const struct options *o = s->o;
	int64_t t0 = clock_mono_ns();
	size_t want = 0, got;
	long n;
	int fd = cue_fifo_open(o->scrape_ack);

	if (fd < 0) {
		warn("cannot open '%s': the scrapers are not cued:", o->scrape_ack);
		return;
	}
	for (size_t i = 0; i < o->ncues; i++)
		want += (size_t)cue_one(o->cues[i]);
	if ((n = cue_acks_wait(fd, want, t0 + CUE_WAIT_NS)) < 0)
		die("poll:");
	got = (size_t)n;
	close(fd);
	if (got < want)
		warn("%zu of %zu scrapers did not acknowledge the cue within %.0f s: profiling "
		     "starts without their reference scrape (server metrics counters may "
		     "include warmup traffic)", want - got, want, (double)CUE_WAIT_NS / 1e9);
	runlog(RUNLOG_INFO, "scrapers cued: %zu of %zu acknowledged in %.3f ms", got, want,
	       (double)(clock_mono_ns() - t0) / 1e6);
}

/*
 * --phase-cue / --phase-ack: several senders share one run (aiperf
 * profile --workers-max, one shard of the request stream each). Before a
 * phase starts, with the previous one drained, each sender writes a line
 * "PHASE BOOT_ID MONO_NS WALL_NS" (PHASE warmup or profiling; the
 * kernel's boot id, our monotonic clock and the wall-clock time of that
 * moment) into the cue FIFO, which all of them share,
 * and waits for one line "go WALL_NS [BOOT_ID MONO_NS]" on its own ack
 * FIFO: the coordinator answers once every sender has cued, and the time,
 * the same for all of them, is when the phase starts: MONO_NS exactly
 * where BOOT_ID is ours (one host, one monotonic clock), else WALL_NS
 * through our wall-clock anchor (several hosts: as good as their clocks
 * agree). Every sender passes both
 * barriers, in order, whatever its shard holds: one without warmup
 * records (or without any) passes the warmup one on its way, and one
 * whose input ended passes the rest before it exits, so that no other
 * waits for it. A signal ends the wait (and all later ones): the sender
 * then stops as always.
 */

/* This kernel's boot id: the senders that share it share CLOCK_MONOTONIC. */
static const char *
boot_id(void)
{
	static char id[CUE_BOOT_MAX + 1];

	if (!id[0])
		cue_boot_id(id);
	return id;
}

/* A signal that ends the wait is pending (the loop's signalfd takes it). */
static int
stop_pending(void)
{
	sigset_t pending;

	return sigpending(&pending) == 0 &&
	       (sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM) ||
		sigismember(&pending, SIGHUP));
}

/* The next line on the ack FIFO: 1, 0 (none yet), -1 (too long). */
static int
next_line(struct sender *s, const char **line, size_t *len)
{
	int k = cue_reader_next(&s->sync_in, line, len);

	if (k)
		return k;
	while (cue_reader_fill(&s->sync_in, s->sync_fd) > 0)
		if ((k = cue_reader_next(&s->sync_in, line, len)))
			return k;
	return 0;
}

/* Wait for the go line: the phase's start on our clock (the monotonic
 * time when the go names our boot, else its wall-clock time), -1 (a bad
 * line) or -2 (a signal came). */
static int64_t
wait_go(struct sender *s)
{
	const char *line, *why;
	size_t len;
	struct cue_go g;
	int k;

	for (;;) {
		struct pollfd p = { s->sync_fd, POLLIN, 0 };

		if (stop_pending())
			return -2;
		if ((k = next_line(s, &line, &len)) < 0) {
			warn("'%s': a line too long for a go line", s->o->phase_ack);
			return -1;
		}
		if (k && cue_go_parse(line, len, &g, &why) < 0) {
			warn("'%s': not a go line: %s", s->o->phase_ack, line);
			return -1;
		}
		if (k) {	/* out of our clock's range: now */
			int64_t at = cue_go_start(&g, boot_id(), s->mono0, s->wall0);
			return at > 0 ? at : clock_now_ns();
		}
		if (poll(&p, 1, 50) < 0 && errno != EINTR)
			die("poll:");
	}
}

/* One barrier: cue phase ph's name, wait for its go; the phase's start on
 * our clock, or -1 (then no more barriers). */
static int64_t
barrier(struct sender *s, int ph)
{
	const char *name = cue_phase_name(ph);
	struct cue_mark m = { .phase = ph };
	char cue[CUE_LINE_MAX];
	size_t len;
	int fd;
	int64_t at;

	if (s->sync_fd < 0) {
		s->sync_fd = cue_fifo_open(s->o->phase_ack);
		cue_reader_init(&s->sync_in);
	}
	if (s->sync_fd < 0 ||
	    (fd = open(s->o->phase_cue, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		warn("cannot open '%s': the phases start unsynchronized:",
		     s->sync_fd < 0 ? s->o->phase_ack : s->o->phase_cue);
		s->synced = 3;
		return -1;
	}
	at = clock_now_ns();
	memcpy(m.boot, boot_id(), sizeof(m.boot));
	m.mono_ns = at;
	m.wall_ns = s->wall0 + (at - s->mono0);
	len = cue_mark_format(&m, cue);
	if (!len || write(fd, cue, len) != (ssize_t)len) {
		warn("cannot cue through '%s': the phases start unsynchronized:",
		     s->o->phase_cue);
		close(fd);
		s->synced = 3;
		return -1;
	}
	close(fd);
	s->synced = ph;
	if ((at = wait_go(s)) < 0) {
		s->synced = 3;
		return at;
	}
	runlog(RUNLOG_INFO, "%s barrier passed: the phase starts %.3f ms from now",
	       name, (double)(at - clock_now_ns()) / 1e6);
	return at;
}

/*
 * --start-at: seconds since the epoch, up to 9 decimals, as epoch ns
 * (exactly: no float); 0 for a malformed value.
 */
int64_t
start_at_parse(const char *v)
{
	int64_t sec = 0, frac = 0;
	const char *p = v;
	int nd = 0;

	if (*p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > 9000000000LL)
			return 0;
		sec = sec * 10 + (*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, nd++) {
			if (nd >= 9)
				return 0;
			frac = frac * 10 + (*p - '0');
		}
	if (*p)
		return 0;
	for (; nd < 9; nd++)
		frac *= 10;
	return sec * 1000000000LL + frac;
}

/*
 * --start-at (several hosts, aiperf(7)): the first phase's barrier is a
 * "go WALL_NS" known in advance, through our wall-clock anchor; later
 * phases start when ours has drained (there is no barrier across hosts).
 * A moment already past: now, with a warning.
 */
static int64_t
start_at(struct sender *s)
{
	int64_t at, now = clock_now_ns();

	s->synced = 3;
	at = s->mono0 + (s->o->start_at_ns - s->wall0);
	if (at < now) {
		warn("--start-at %s is %.3f s past: the run starts now", s->o->start_at,
		     (double)(now - at) / 1e9);
		return -1;
	}
	runlog(RUNLOG_INFO, "--start-at: the first phase starts %.3f ms from now",
	       (double)(at - now) / 1e6);
	return at;
}

int64_t
phase_sync(struct sender *s, int ph)
{
	int64_t at = -1, now;

	if (s->stopping)
		return -1;
	if (!s->o->phase_cue) {
		if (!s->o->start_at || s->synced >= 3 || (at = start_at(s)) < 0)
			return -1;
		ph = 3;
	}
	while (s->synced < ph)
		if ((at = barrier(s, s->synced + 1)) < 0)
			return at;
	/* sleep to the start, a shared moment: nothing may start before it */
	while ((now = clock_now_ns()) < at) {
		struct timespec ts = { 0, (long)(at - now) };

		nanosleep(&ts, NULL);
	}
	return at;
}
