/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-ui: the plain line and the simple view's progress bars. */
#include "ui.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BAR 30

double
ui_fraction(const struct ui_state *st, int warmup, double *eta)
{
	const struct ui_phase *p = warmup ? &st->warm : &st->prof;
	int64_t total = warmup ? st->warmup_count : st->request_count;
	double dur = warmup ? st->warmup_duration_s : st->duration_s, f = -1;

	*eta = -1;
	if (total > 0) {
		f = (double)p->done / (double)total;
		if (p->request_rate > 0)
			*eta = (double)(total > p->done ? total - p->done : 0) / p->request_rate;
	} else if (dur > 0) {
		f = p->span_s / dur;
		*eta = dur > p->span_s ? dur - p->span_s : 0;
	}
	if (f > 1)
		f = 1;
	if (st->end || (warmup && st->prof.done)) {
		f = f < 0 ? -1 : 1;
		*eta = 0;
	}
	return f;
}

static void
eta_text(double eta, char *b, size_t size)
{
	/* 99:59:59 at most (no conversion of a huge double: a rate near 0) */
	long s = eta > 359999 ? 359999 : eta < 0 ? 0 : (long)(eta + 0.5);

	if (eta < 0)
		snprintf(b, size, "--:--");
	else if (s >= 3600)
		snprintf(b, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(b, size, "%02ld:%02ld", s / 60, s % 60);
}

/* "done/total" or "12.0s/60s" or "done" for phase p. */
static void
count_text(const struct ui_state *st, int warmup, char *b, size_t size)
{
	const struct ui_phase *p = warmup ? &st->warm : &st->prof;
	int64_t total = warmup ? st->warmup_count : st->request_count;
	double dur = warmup ? st->warmup_duration_s : st->duration_s;

	if (total > 0)
		snprintf(b, size, "%lld/%lld", (long long)p->done, (long long)total);
	else if (dur > 0)
		snprintf(b, size, "%.1fs/%gs", p->span_s, dur);
	else
		snprintf(b, size, "%lld", (long long)p->done);
}

void
ui_plain_line(const struct ui_state *st, char *buf, size_t size)
{
	int warm = !strcmp(st->phase, "warmup");
	const struct ui_phase *p = warm ? &st->warm : &st->prof;
	char cnt[48], eta[24];
	double e, f = ui_fraction(st, warm, &e);
	int n;

	count_text(st, warm, cnt, sizeof(cnt));
	eta_text(e, eta, sizeof(eta));
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

static int drawn;	/* lines the simple view drew last time */

static void
bar_line(const struct ui_state *st, int warmup, char *b, size_t size)
{
	const struct ui_phase *p = warmup ? &st->warm : &st->prof;
	char bar[BAR + 1], cnt[48], eta[24];
	double e, f = ui_fraction(st, warmup, &e);
	int fill = f < 0 ? 0 : (int)(f * BAR + 0.5);

	for (int i = 0; i < BAR; i++)
		bar[i] = f < 0 ? (i == (p->done / 8) % BAR ? '#' : '-') : i < fill ? '#' : '-';
	bar[BAR] = 0;
	count_text(st, warmup, cnt, sizeof(cnt));
	eta_text(e, eta, sizeof(eta));
	if (f >= 0)
		snprintf(b, size, "%-9s [%s] %5.1f%% %s  %lld errors  %.1f req/s  ETA %s",
			 warmup ? "Warmup" : "Profiling", bar, 100 * f, cnt,
			 (long long)p->errors, p->request_rate, eta);
	else
		snprintf(b, size, "%-9s [%s] %s  %lld errors  %.1f req/s",
			 warmup ? "Warmup" : "Profiling", bar, cnt, (long long)p->errors,
			 p->request_rate);
	if (st->sender_cpu >= 0 && !warmup) {	/* client health */
		size_t n = strlen(b);

		if (st->senders > 1)
			snprintf(b + n, size - n, "  send CPU %.0f%% (%d senders)",
				 st->sender_cpu, st->senders);
		else
			snprintf(b + n, size - n, "  send CPU %.0f%%", st->sender_cpu);
	}
}

void
ui_simple_draw(const struct ui_state *st, int fd)
{
	char out[1024], line[256];
	int n = 0, lines = 0;

	if (drawn)
		n += snprintf(out + n, sizeof(out) - (size_t)n, "\r\033[%dA", drawn);
	if (st->warm.done || st->warmup_count || st->warmup_duration_s) {
		bar_line(st, 1, line, sizeof(line));
		n += snprintf(out + n, sizeof(out) - (size_t)n, "\033[2K%s\n", line);
		lines++;
	}
	bar_line(st, 0, line, sizeof(line));
	n += snprintf(out + n, sizeof(out) - (size_t)n, "\033[2K%s\n", line);
	lines++;
	drawn = lines;
	if (n > 0 && write(fd, out, (size_t)n < sizeof(out) ? (size_t)n : sizeof(out) - 1) < 0)
		drawn = 0;
}

void
ui_simple_end(const struct ui_state *st, int fd)
{
	ui_simple_draw(st, fd);
	drawn = 0;
}
