/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-supervise's phase.c: two fake senders through the barrier, scrapers cued, one silent. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Private to the tool; tested from its source. */
#include "../../cmd/aiperf-supervise/phase.c"
#include "test.h"

#define BOOT "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"

static char dir[] = "/tmp/test-phase.XXXXXX";
static char logpath[64];

/* dir/name, in one of a few static buffers. */
static const char *
at(const char *name)
{
	static char b[8][96];
	static int i;

	i = (i + 1) % 8;
	snprintf(b[i], sizeof(b[i]), "%s/%s", dir, name);
	return b[i];
}

static void
fifo(const char *name)
{
	if (mkfifo(at(name), 0600) < 0)
		abort();
}

/* The plan of a run with 2 senders and scrapers s1 and s2, cued. */
static void
make_plan(struct plan *p, long long start_ns)
{
	plan_init(p);
	for (int k = 1; k <= 2; k++) {
		char n[32];

		snprintf(n, sizeof(n), "phase.%d.ack", k);
		plan_set(&plan_add_sender(p)->phase_ack, at(n));
	}
	plan_set(&plan_add_scraper(p)->cue, at("s1.cue"));
	plan_set(&plan_add_scraper(p)->cue, at("s2.cue"));
	plan_add_scraper(p);	/* one without a cue */
	plan_set(&p->scrape_ack, at("scrape.ack"));
	plan_set(&p->phase_cue, at("phase.cue"));
	p->margin_us = 5000;
	p->start_ns = start_ns;
}

/* A sender's cue line into phase.cue. */
static void
cue(const char *line)
{
	int fd = open(at("phase.cue"), O_WRONLY | O_NONBLOCK);

	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		abort();
	close(fd);
}

/* A go line read from fd into g: 1, or 0 when none is there. */
static int
read_go(int fd, struct cue_go *g)
{
	char b[CUE_LINE_MAX];
	const char *why;
	ssize_t n = read(fd, b, sizeof(b));

	if (n <= 0)
		return 0;
	return n > 1 && b[n - 1] == '\n' && !cue_go_parse(b, (size_t)n - 1, g, &why);
}

/* Loop passes until both senders have their go (5 s at most): 1 when they
 * came, g[] the lines. */
static int
wait_gos(struct evloop *l, int ack[2], struct cue_go g[2])
{
	int got[2] = { 0, 0 };
	int64_t end = clock_mono_ns() + 5000000000LL;

	while ((!got[0] || !got[1]) && clock_mono_ns() < end) {
		evloop_run_once(l, 100000000);
		for (int k = 0; k < 2; k++)
			got[k] = got[k] || read_go(ack[k], &g[k]);
	}
	return got[0] && got[1];
}

/* Passes of the loop that do not sleep: what is ready now runs. */
static void
spin(struct evloop *l)
{
	for (int i = 0; i < 5; i++)
		evloop_run_once(l, 0);
}

static int
log_has(const char *s)
{
	size_t n;
	char *text = util_readfile(logpath, 1 << 20, &n);
	int found = text && strstr(text, s);

	free(text);
	return found;
}

static void
test_barrier(struct evloop *l)
{
	struct plan p;
	struct phase *ph;
	struct cue_go g[2];
	int ack[2] = { cue_fifo_open(at("phase.1.ack")), cue_fifo_open(at("phase.2.ack")) };
	int s1 = cue_fifo_open(at("s1.cue")), s2 = cue_fifo_open(at("s2.cue"));
	int64_t t0;
	char b[64];

	make_plan(&p, 0);
	ph = phase_open(l, &p);
	plan_release(&p);	/* the coordinator keeps its own copies */
	TEST("phase: opened", ph != NULL);
	cue("warmup " BOOT " 1000 5000\n");
	spin(l);
	TEST("phase: no go for one sender of two", !read_go(ack[0], g) && !read_go(ack[1], g));
	cue("warmup " BOOT " 3000 7000\n");
	TEST("phase: warmup: both senders get their go", wait_gos(l, ack, g));
	TEST("phase: one moment for both", g[0].wall_ns == g[1].wall_ns &&
	     g[0].mono_ns == g[1].mono_ns);
	TEST("phase: the first sender's offset", !strcmp(g[0].boot, BOOT) &&
	     g[0].mono_ns == g[0].wall_ns - 4000);
	TEST("phase: no scraper cued before warmup", read(s1, b, sizeof(b)) < 0);
	cue("profiling " BOOT " 5000 9000\nprofiling " BOOT " 6000 10000\n");
	spin(l);
	TEST("phase: the scrapers cued before profiling", read(s1, b, sizeof(b)) == 4 &&
	     !memcmp(b, "cue\n", 4) && read(s2, b, sizeof(b)) == 4);
	t0 = clock_mono_ns();
	TEST("phase: the go waits for the scrapers", !read_go(ack[0], g) && !read_go(ack[1], g));
	if (cue_send(at("scrape.ack"), CUE_ACK, 4, 1) != 1)
		abort();
	spin(l);
	TEST("phase: and for the one that does not acknowledge",
	     !read_go(ack[0], g) && !read_go(ack[1], g));
	TEST("phase: profiling: the go after 2 s anyway", wait_gos(l, ack, g) &&
	     clock_mono_ns() - t0 >= CUE_WAIT_NS / 2);
	TEST("phase: logged", log_has("scrapers cued: 1 of 2 acknowledged") &&
	     log_has("2 senders: the profiling phase starts at"));
	cue("warmup " BOOT " 1 1\n");
	spin(l);
	TEST("phase: nothing after both phases", !read_go(ack[0], g) && !read_go(ack[1], g));
	phase_close(ph);
	close(s1);
	close(s2);
	close(ack[0]);
	close(ack[1]);
}

static void
test_hostile(struct evloop *l)
{
	struct plan p;
	struct phase *ph;
	struct cue_go g[2];
	int ack[2] = { cue_fifo_open(at("phase.1.ack")), cue_fifo_open(at("phase.2.ack")) };
	int s1 = cue_fifo_open(at("s1.cue"));
	char b[64];
	int fd;
	int64_t later = clock_real_ns() + 3600000000000LL;

	make_plan(&p, later);
	ph = phase_open(l, &p);
	plan_release(&p);
	cue("profiling " BOOT " 1000 5000\n");
	cue("warmup " BOOT " 99999999999999999999 5000\n");
	TEST("hostile: lines of the wrong phase and bad numbers count", wait_gos(l, ack, g));
	TEST("hostile: ... warned", log_has("phase barrier: 'profiling' while waiting for warmup") &&
	     log_has("(a number out of range)"));
	TEST("hostile: no monotonic part", !g[0].boot[0] && !g[1].mono_ns);
	TEST("hostile: --start-at later: then", g[0].wall_ns == later);
	memset(b, 'x', sizeof(b));
	fd = open(at("phase.cue"), O_WRONLY | O_NONBLOCK);
	for (int i = 0; i < 5; i++)
		if (write(fd, b, sizeof(b)) != sizeof(b))
			abort();
	close(fd);
	cue("\nprofiling - 1 1\n");
	spin(l);
	TEST("hostile: the only scraper left acknowledges", read(s1, b, sizeof(b)) == 4 &&
	     cue_send(at("scrape.ack"), CUE_ACK, 4, 1) == 1);
	TEST("hostile: a line too long counts too", wait_gos(l, ack, g) &&
	     log_has("too long"));
	TEST("hostile: s2 has no reader: not awaited", log_has("scrapers cued: 1 of 1"));
	TEST("hostile: never before the previous phase", g[0].wall_ns == later);
	phase_close(ph);
	close(s1);
	close(ack[0]);
	close(ack[1]);
}

int
main(void)
{
	struct evloop *l;
	struct plan p;

	if (!mkdtemp(dir))
		abort();
	snprintf(logpath, sizeof(logpath), "%s/log", dir);
	setenv("AIPERF_LOG_FILE", logpath, 1);
	util_setprogname("test-phase");
	fifo("phase.cue");
	fifo("phase.1.ack");
	fifo("phase.2.ack");
	fifo("s1.cue");
	fifo("s2.cue");
	fifo("scrape.ack");
	l = evloop_new(16);
	test_barrier(l);
	test_hostile(l);
	make_plan(&p, 0);
	plan_set(&p.senders[1].phase_ack, at("missing"));
	TEST("phase: a FIFO missing: NULL", phase_open(l, &p) == NULL);
	plan_release(&p);
	phase_close(NULL);
	evloop_free(l);
	for (const char *const *n = (const char *const[]){ "phase.cue", "phase.1.ack",
		"phase.2.ack", "s1.cue", "s2.cue", "scrape.ack", "log", NULL }; *n; n++)
		unlink(at(*n));
	rmdir(dir);
	return TEST_DONE();
}
