/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-ui: the plain line and the simple view's progress bars. */
#include "ui.h"

#include <stdio.h>
#include <string.h>

#include "progress.h"

/* Phase warmup's (else profiling's) progress as lib/progress reads it. */
static struct progress
phase_progress(const struct ui_state *st, int warmup)
{
	const struct ui_phase *p = warmup ? &st->warm : &st->prof;

	return (struct progress){
		.done = p->done, .errors = p->errors,
		.total = warmup ? st->warmup_count : st->request_count,
		.duration_s = warmup ? st->warmup_duration_s : st->duration_s,
		.span_s = p->span_s, .request_rate = p->request_rate,
		.ended = st->end || (warmup && st->prof.done),
		.cpu = warmup ? -1 : st->sender_cpu, .senders = st->senders,
	};
}

double
ui_fraction(const struct ui_state *st, int warmup, double *eta)
{
	struct progress pr = phase_progress(st, warmup);

	return progress_fraction(&pr, eta);
}

void
ui_plain_line(const struct ui_state *st, char *buf, size_t size)
{
	int warm = !strcmp(st->phase, "warmup");
	const struct ui_phase *p = warm ? &st->warm : &st->prof;
	struct progress pr = phase_progress(st, warm);
	char cnt[48], eta[24];
	double e, f = progress_fraction(&pr, &e);
	int n;

	progress_count(&pr, cnt, sizeof(cnt));
	progress_eta(e, eta, sizeof(eta));
	n = snprintf(buf, size, "aiperf: %s%s %s requests", st->end ? "done, " : "",
		     warm ? "warmup" : "profiling", cnt);
	if (f >= 0 && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " (%.0f%%)", 100 * f);
	if (n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ", %lld errors, %.1f requests/s",
			      (long long)p->errors, p->request_rate);
	if (!st->end && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ", ETA %s", eta);
	if (!warm && st->ttft.n && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ", TTFT p50 %.2f ms p99 %.2f ms",
			      st->ttft.p50, st->ttft.p99);
	if (!warm && st->lat.n && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ", latency p50 %.2f ms p99 %.2f ms",
			      st->lat.p50, st->lat.p99);
	if (!warm && st->late.n && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", lateness p99 %.1f us", st->late.p99);
}

static struct progress_screen screen;	/* the simple view's lines last drawn */

void
ui_simple_draw(const struct ui_state *st, int fd)
{
	struct progress warm = phase_progress(st, 1), prof = phase_progress(st, 0);
	int shown = st->warm.done || st->warmup_count || st->warmup_duration_s;

	progress_draw_phases(&screen, shown ? &warm : NULL, &prof, fd);
}

void
ui_simple_end(const struct ui_state *st, int fd)
{
	ui_simple_draw(st, fd);
	screen.drawn = 0;
}
