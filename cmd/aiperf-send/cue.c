/* SPDX-License-Identifier: Apache-2.0 */
/* --scrape-cue: the scrapers take the profiling window's reference between warmup and profiling. */
#include "send.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "clock.h"
#include "runlog.h"
#include "util.h"

/* How long profiling waits for the scrapers' acknowledgements at most. */
#define CUE_WAIT_NS 2000000000LL

/* One "cue" line into the FIFO at path: 1, or 0 when no scraper reads it. */
static int
cue_one(const char *path)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		/* ENXIO: nobody has it open to read (the scraper has ended) */
		warn("no scraper reads '%s': not cued:", path);
		return 0;
	}
	n = write(fd, "cue\n", 4);	/* under PIPE_BUF: whole or nothing */
	close(fd);
	if (n != 4)
		warn("cannot cue the scraper through '%s':", path);
	return n == 4;
}

/* "ack" lines read from fd until want of them came or the deadline passed. */
static size_t
wait_acks(int fd, size_t want, int64_t deadline)
{
	size_t got = 0;
	char b[64];

	while (got < want) {
		int64_t left = deadline - clock_mono_ns();
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t n;

		if (left <= 0)
			break;
		if (poll(&p, 1, (int)((left + 999999) / 1000000)) < 0 && errno != EINTR)
			die("poll:");
		while ((n = read(fd, b, sizeof(b))) > 0)
			for (ssize_t i = 0; i < n; i++)
				got += b[i] == '\n';
	}
	return got;
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
	int fd = open(o->scrape_ack, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		warn("cannot open '%s': the scrapers are not cued:", o->scrape_ack);
		return;
	}
	for (size_t i = 0; i < o->ncues; i++)
		want += (size_t)cue_one(o->cues[i]);
	got = wait_acks(fd, want, t0 + CUE_WAIT_NS);
	close(fd);
	if (got < want)
		warn("%zu of %zu scrapers did not acknowledge the cue within %.0f s: profiling "
		     "starts without their reference scrape (server metrics counters may "
		     "include warmup traffic)", want - got, want, (double)CUE_WAIT_NS / 1e9);
	runlog(RUNLOG_INFO, "scrapers cued: %zu of %zu acknowledged in %.3f ms", got, want,
	       (double)(clock_mono_ns() - t0) / 1e6);
}
