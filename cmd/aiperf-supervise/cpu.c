/* SPDX-License-Identifier: Apache-2.0 */
/* The stage CPU sampler: the other stages' CPU time while the senders run (aiperf-export --stage-cpu). */
#include "cpu.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "evloop.h"
#include "procstat.h"
#include "util.h"

#define CPU_PERIOD_NS 50000000	/* as cmd/aiperf-profile.sh sampled */

/* One process watched. */
struct cpu_proc {
	pid_t pid;		/* <= 0: not started, never read */
	int gone;		/* ended (or its pid is another process now) */
	long long start;	/* its starttime, once read (-1 before) */
	int64_t ns;		/* the largest CPU time read of it */
};

struct cpu_sampler {
	struct evloop *l;
	struct evloop_timer timer;
	int64_t due;		/* when the timer was armed to fire (ns) */
	int fd;			/* -1 once a write failed */
	char *path;
	size_t ngens;
	struct cpu_proc *gens, metrics, export;
};

static void
proc_init(struct cpu_proc *p, pid_t pid)
{
	p->pid = pid;
	p->gone = pid <= 0;
	p->start = -1;
	p->ns = 0;
}

/* Read p's CPU time now; a process gone keeps its last. */
static void
proc_sample(struct cpu_proc *p)
{
	struct procstat ps;

	if (p->gone)
		return;
	if (procstat_read(&ps, p->pid) < 0) {
		/* EINVAL, EACCES...: unreadable this time, maybe not the next */
		if (errno == ESRCH)
			p->gone = 1;
		return;
	}
	if (p->start < 0)
		p->start = ps.starttime;
	if (ps.starttime != p->start) {
		p->gone = 1;	/* the pid was reused */
		return;
	}
	int64_t ns = procstat_cpu_ns(&ps);

	if (ns > p->ns)
		p->ns = ns;
}

/* Write one line whole; after a failure the file is left as it is. */
static void
put_line(struct cpu_sampler *c, const char *s, size_t n)
{
	while (c->fd >= 0 && n > 0) {
		ssize_t w = write(c->fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			warn("cannot write '%s':", c->path);
			close(c->fd);
			c->fd = -1;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

static void
sample(struct cpu_sampler *c)
{
	int64_t gen = 0;
	char line[128];

	for (size_t i = 0; i < c->ngens; i++) {
		proc_sample(&c->gens[i]);
		gen = c->gens[i].ns > INT64_MAX - gen ? INT64_MAX : gen + c->gens[i].ns;
	}
	proc_sample(&c->metrics);
	proc_sample(&c->export);
	int n = snprintf(line, sizeof(line), "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n",
			 clock_real_ns(), gen, c->metrics.ns, c->export.ns);

	put_line(c, line, (size_t)n);
}

static void
on_timer(struct evloop *l, struct evloop_timer *t)
{
	struct cpu_sampler *c = t->ud;
	int64_t now = clock_mono_ns();

	sample(c);
	if (c->fd < 0)
		return;
	/* a loop held up past a period samples once, not a burst */
	c->due += CPU_PERIOD_NS;
	if (c->due <= now)
		c->due = now + CPU_PERIOD_NS;
	evloop_timer_arm(l, t, c->due);
}

struct cpu_sampler *
cpu_start(struct evloop *l, const char *path, const pid_t *gens, size_t ngens,
	  pid_t metrics, pid_t export)
{
	static const char names[] = "names aiperf-gen aiperf-metrics aiperf-export\n";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);

	if (fd < 0) {
		warn("cannot create '%s':", path);
		return NULL;
	}
	struct cpu_sampler *c = xcalloc(1, sizeof(*c));

	c->l = l;
	c->fd = fd;
	c->path = xstrdup(path);
	c->ngens = ngens;
	c->gens = xcalloc(ngens ? ngens : 1, sizeof(*c->gens));
	for (size_t i = 0; i < ngens; i++)
		proc_init(&c->gens[i], gens[i]);
	proc_init(&c->metrics, metrics);
	proc_init(&c->export, export);
	c->timer = (struct evloop_timer)EVLOOP_TIMER_INIT(on_timer, c);
	put_line(c, names, sizeof(names) - 1);
	sample(c);
	c->due = clock_mono_ns() + CPU_PERIOD_NS;
	if (c->fd >= 0)
		evloop_timer_arm(l, &c->timer, c->due);
	return c;
}

void
cpu_stop(struct cpu_sampler *c)
{
	if (!c)
		return;
	evloop_timer_stop(c->l, &c->timer);
	sample(c);
	put_line(c, "end\n", 4);
	if (c->fd >= 0 && close(c->fd) < 0)
		warn("cannot write '%s':", c->path);
	free(c->gens);
	free(c->path);
	free(c);
}
