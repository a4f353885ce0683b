/* SPDX-License-Identifier: Apache-2.0 */
/* The simple view's progress bars (aiperf-ui's simple view, aiperf-send's own). */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BAR 30

double
progress_fraction(const struct progress *p, double *eta)
{
	double f = -1;

	*eta = -1;
	if (p->total > 0) {
		f = (double)p->done / (double)p->total;
		if (p->request_rate > 0)
			*eta = (double)(p->total > p->done ? p->total - p->done : 0) /
			       p->request_rate;
	} else if (p->duration_s > 0) {
		f = p->span_s / p->duration_s;
		*eta = p->duration_s > p->span_s ? p->duration_s - p->span_s : 0;
	}
	if (f > 1)
		f = 1;
	if (p->ended) {
		f = f < 0 ? -1 : 1;
		*eta = 0;
	}
	return f;
}

void
progress_eta(double eta, char *b, size_t size)
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

void
progress_count(const struct progress *p, char *b, size_t size)
{
	if (p->total > 0)
		snprintf(b, size, "%lld/%lld", (long long)p->done, (long long)p->total);
	else if (p->duration_s > 0)
		snprintf(b, size, "%.1fs/%gs", p->span_s, p->duration_s);
	else
		snprintf(b, size, "%lld", (long long)p->done);
}

void
progress_bar(const struct progress *p, const char *label, char *b, size_t size)
{
	char bar[BAR + 1], cnt[48], eta[24];
	double e, f = progress_fraction(p, &e);
	int fill = f < 0 ? 0 : (int)(f * BAR + 0.5);
	size_t n;

	/* not measurable: a mark that moves with the count */
	for (int i = 0; i < BAR; i++)
		bar[i] = f < 0 ? (i == (p->done / 8) % BAR ? '#' : '-') : i < fill ? '#' : '-';
	bar[BAR] = 0;
	progress_count(p, cnt, sizeof(cnt));
	progress_eta(e, eta, sizeof(eta));
	if (f >= 0)
		snprintf(b, size, "%-9s [%s] %5.1f%% %s  %lld errors  %.1f req/s  ETA %s", label, bar,
			 100 * f, cnt, (long long)p->errors, p->request_rate, eta);
	else
		snprintf(b, size, "%-9s [%s] %s  %lld errors  %.1f req/s", label, bar, cnt,
			 (long long)p->errors, p->request_rate);
	if (p->cpu < 0 || (n = strlen(b)) >= size)	/* client health */
		return;
	if (p->senders > 1)
		snprintf(b + n, size - n, "  send CPU %.0f%% (%d senders)", p->cpu, p->senders);
	else
		snprintf(b + n, size - n, "  send CPU %.0f%%", p->cpu);
}

void
progress_draw(struct progress_screen *sc, const char *const lines[], int n, int fd)
{
	char out[2048];
	int k = 0;

	if (sc->drawn)
		k += snprintf(out + k, sizeof(out) - (size_t)k, "\r\033[%dA", sc->drawn);
	for (int i = 0; i < n && (size_t)k < sizeof(out); i++)
		k += snprintf(out + k, sizeof(out) - (size_t)k, "\033[2K%s\n", lines[i]);
	if ((size_t)k >= sizeof(out))
		k = (int)sizeof(out) - 1;
	sc->drawn = write(fd, out, (size_t)k) < 0 ? 0 : n;
}

void
progress_draw_phases(struct progress_screen *sc, const struct progress *warm,
		     const struct progress *prof, int fd)
{
	char line[2][256];
	const char *lines[2] = { line[0], line[1] };
	int n = 0;

	if (warm)
		progress_bar(warm, "Warmup", line[n++], sizeof(line[0]));
	progress_bar(prof, "Profiling", line[n++], sizeof(line[0]));
	progress_draw(sc, lines, n, fd);
}
