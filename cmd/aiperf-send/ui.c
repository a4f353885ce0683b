/* SPDX-License-Identifier: Apache-2.0 */
/* --ui-type: the sender's progress on standard error (a terminal only). */
#include "send.h"

#include <stdio.h>
#include <sys/resource.h>

#include "clock.h"
#include "xfer.h"

#define UI_EVERY_NS 500000000

/* The CPU this process used since the sample before, % of one core. */
static void
cpu_sample(struct send_ui *u, int64_t now)
{
	struct rusage ru;
	int64_t used;

	if (!u->cpu_at)
		u->cpu = -1;	/* until a second sample */
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return;
	used = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
	       ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	if (u->cpu_at && now > u->cpu_at)
		u->cpu = 100.0 * (double)(used - u->cpu_ns) / (double)(now - u->cpu_at);
	u->cpu_ns = used;
	u->cpu_at = now;
}

void
ui_count(struct sender *s, const struct xfer *x)
{
	struct send_ui *u = &s->ui;
	int ph = x->warmup;

	s->nphase_err[ph] += x->err != XE_NONE;
	s->nphase_done[ph]++;
	/* the span as aiperf-metrics' status lines have it: first start to last end */
	if (x->start_ns > 0 && (!u->first_ns[ph] || x->start_ns < u->first_ns[ph]))
		u->first_ns[ph] = x->start_ns;
	if (x->end_ns > u->last_ns[ph])
		u->last_ns[ph] = x->end_ns;
}

/* Phase ph's progress (1 warmup, 0 profiling): done of the records read
 * once the input is all read, else against its duration. */
static struct progress
phase(const struct sender *s, int ph, int final)
{
	const struct send_ui *u = &s->ui;
	int64_t dur = ph ? s->o->warmup_ns : s->o->duration_ns;
	int64_t span = u->first_ns[ph] ? u->last_ns[ph] - u->first_ns[ph] : 0;
	struct progress p = {
		.done = (int64_t)s->nphase_done[ph], .errors = (int64_t)s->nphase_err[ph],
		.duration_s = (double)dur / 1e9, .cpu = -1, .senders = 1,
		.ended = final || (ph && s->phase == 2),
	};

	if (!dur && s->in_state == 1)
		p.total = (int64_t)s->nlines[ph];
	p.span_s = span > 0 ? (double)span / 1e9 : 0;
	p.request_rate = p.span_s > 0 ? (double)p.done / p.span_s : 0;
	if (!ph)
		p.cpu = u->cpu;
	return p;
}

static void
simple(struct sender *s, int64_t now, int final)
{
	struct progress warm, prof;

	cpu_sample(&s->ui, now);
	warm = phase(s, 1, final);
	prof = phase(s, 0, final);
	progress_draw_phases(&s->ui.screen, s->nlines[1] || s->o->warmup_ns ? &warm : NULL, &prof,
			     2);
}

void
ui_update(struct sender *s, int final)
{
	int64_t now = clock_now_ns();

	if (s->o->ui == UI_NONE || (!final && now < s->ui_next))
		return;
	s->ui_next = now + UI_EVERY_NS;
	if (s->o->ui == UI_SIMPLE) {
		simple(s, now, final);
		return;
	}
	fprintf(stderr, "\raiperf-send: %llu sent, %llu done, %llu errors, %zu in flight ",
		(unsigned long long)s->nstarted, (unsigned long long)s->ndone,
		(unsigned long long)s->nerr, s->inflight);
	if (final)
		fputc('\n', stderr);
}
