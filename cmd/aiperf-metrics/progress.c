/* SPDX-License-Identifier: Apache-2.0 */
/* --progress-fd: the run's progress line, from the records as they are read. */
#include "progress.h"

#include <stdio.h>
#include <unistd.h>
#include "clock.h"
#include "metrics.h"
#include "status.h"

#define EVERY_NS 500000000

void
progress_init(struct progress *p, int fd)
{
	p->fd = fd >= 0 && isatty(fd) ? fd : -1;
	p->done = p->errors = 0;
	p->first_ns = p->last_ns = -1;
	p->next = 0;
	p->drawn = 0;
}

static void
draw(struct progress *p)
{
	char line[160];
	double secs = (double)(p->last_ns - p->first_ns) / 1e9;
	int n;

	n = snprintf(line, sizeof(line), "\raiperf: %llu requests done, %llu errors",
		     (unsigned long long)p->done, (unsigned long long)p->errors);
	if (p->first_ns >= 0 && secs > 0 && n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %.1f requests/s",
			      (double)p->done / secs);
	if (n > 0 && (size_t)n < sizeof(line) - 1) {
		line[n++] = ' ';
		if (write(p->fd, line, (size_t)n) < 0)
			p->fd = -1;	/* the terminal went away: stop drawing */
	}
	p->drawn = 1;
}

void
progress_record(struct progress *p, int64_t start_ns, int64_t end_ns, int error)
{
	int64_t now;

	if (p->fd < 0)
		return;
	p->done++;
	p->errors += error != 0;
	if (start_ns >= 0 && (p->first_ns < 0 || start_ns < p->first_ns))
		p->first_ns = start_ns;
	if (end_ns > p->last_ns)
		p->last_ns = end_ns;
	if ((now = clock_mono_ns()) < p->next)
		return;
	p->next = now + EVERY_NS;
	draw(p);
}

void
progress_end(struct progress *p)
{
	if (p->fd < 0)
		return;
	draw(p);
	if (write(p->fd, "\n", 1) < 0)
		p->fd = -1;
}

void
rec_progress_of(const struct rec *r, int64_t *start_ns, int64_t *end_ns, int *error)
{
	*start_ns = r->has_start ? r->start_perf_ns : -1;
	*end_ns = r->nr ? r->r[r->nr - 1].perf_ns : -1;
	*error = r->error || r->perr;
}

void
rec_progress(const struct rec *r, const struct opts *o)
{
	int64_t start_ns, end_ns;
	int error;

	if (!o->progress)
		return;
	rec_progress_of(r, &start_ns, &end_ns, &error);
	progress_record(o->progress, start_ns, end_ns, error);
}

void
rec_status(const struct rec *r, const struct opts *o)
{
	struct status_item it;

	if (!o->status)
		return;
	rec_status_of(r, &it);
	status_record(o->status, &it);
}
