/* SPDX-License-Identifier: Apache-2.0 */
/* The phase barrier and scrape cue protocol: line formats, the reader, the FIFOs' ends, the barrier. */
#include "cue.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "util.h"

/* The margin's bound: a phase starts at most this long after its barrier. */
#define MARGIN_MAX_NS 3600000000000LL

const char *
cue_phase_name(int phase)
{
	switch (phase) {
	case CUE_WARMUP:
		return "warmup";
	case CUE_PROFILING:
		return "profiling";
	case CUE_DONE:
		return "done";
	default:
		return "?";
	}
}

/* A BOOT_ID: 1 to CUE_BOOT_MAX printable characters, no space. */
static int
boot_ok(const char *s, size_t n)
{
	if (n < 1 || n > CUE_BOOT_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return 0;
	return 1;
}

/* The words of a line, each one space after the last: their count, up to
 * max (max + 1: more), or -1 (an empty word: two spaces, a leading or
 * trailing one). */
struct word {
	const char *p;
	size_t n;
};

static int
split(const char *s, size_t len, struct word *w, int max)
{
	int k = 0;
	size_t i = 0;

	for (;;) {
		size_t j = i;

		while (j < len && s[j] != ' ')
			j++;
		if (j == i)
			return -1;
		if (k == max)
			return max + 1;
		w[k++] = (struct word){ s + i, j - i };
		if (j == len)
			return k;
		i = j + 1;
	}
}

/* A number word: digits only, no leading zero, at most 2^63-1. */
static int
number(const struct word *w, int64_t *v, const char **why)
{
	int64_t x = 0;

	if (w->n > 1 && w->p[0] == '0') {
		*why = "a number with a leading zero";
		return -1;
	}
	if (w->n > 19) {
		*why = "a number out of range";
		return -1;
	}
	for (size_t i = 0; i < w->n; i++) {
		int d = w->p[i] - '0';

		if (d < 0 || d > 9) {
			*why = "not a number";
			return -1;
		}
		if (x > (INT64_MAX - d) / 10) {
			*why = "a number out of range";
			return -1;
		}
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* The checks every line shares: no NUL, not too long; its words. */
static int
words(const char *line, size_t len, struct word *w, int max, const char **why)
{
	int k;

	if (len >= CUE_LINE_MAX) {
		*why = "too long";
		return -1;
	}
	if (memchr(line, '\0', len)) {
		*why = "holds a NUL byte";
		return -1;
	}
	if ((k = split(line, len, w, max)) < 0)
		*why = "not words separated by one space each";
	return k;
}

static int
word_is(const struct word *w, const char *s)
{
	return w->n == strlen(s) && !memcmp(w->p, s, w->n);
}

static void
boot_copy(char *dst, const struct word *w)
{
	memcpy(dst, w->p, w->n);
	dst[w->n] = '\0';
}

int
cue_mark_parse(const char *line, size_t len, struct cue_mark *m, const char **why)
{
	struct word w[4];
	int k = words(line, len, w, 4, why);

	if (k < 0)
		return -1;
	if (k != 4) {
		*why = "not 4 words";
		return -1;
	}
	if (word_is(&w[0], "warmup"))
		m->phase = CUE_WARMUP;
	else if (word_is(&w[0], "profiling"))
		m->phase = CUE_PROFILING;
	else {
		*why = "not a phase (warmup or profiling)";
		return -1;
	}
	if (!boot_ok(w[1].p, w[1].n)) {
		*why = "not a boot id";
		return -1;
	}
	boot_copy(m->boot, &w[1]);
	return number(&w[2], &m->mono_ns, why) || number(&w[3], &m->wall_ns, why) ? -1 : 0;
}

/* snprintf's result as a line's length: 0 when it did not fit. */
static size_t
fitted(int n)
{
	return n > 0 && n < CUE_LINE_MAX ? (size_t)n : 0;
}

size_t
cue_mark_format(const struct cue_mark *m, char out[CUE_LINE_MAX])
{
	out[0] = '\0';
	if ((m->phase != CUE_WARMUP && m->phase != CUE_PROFILING) ||
	    !boot_ok(m->boot, strlen(m->boot)) || m->mono_ns < 0 || m->wall_ns < 0)
		return 0;
	return fitted(snprintf(out, CUE_LINE_MAX, "%s %s %lld %lld\n",
			       cue_phase_name(m->phase), m->boot, (long long)m->mono_ns,
			       (long long)m->wall_ns));
}

int
cue_go_parse(const char *line, size_t len, struct cue_go *g, const char **why)
{
	struct word w[4];
	int k = words(line, len, w, 4, why);

	if (k < 0)
		return -1;
	if (!word_is(&w[0], "go") || (k != 2 && k != 4)) {
		*why = "not \"go WALL_NS [BOOT_ID MONO_NS]\"";
		return -1;
	}
	*g = (struct cue_go){ 0 };
	if (number(&w[1], &g->wall_ns, why))
		return -1;
	if (k == 4 && !boot_ok(w[2].p, w[2].n)) {
		*why = "not a boot id";
		return -1;
	}
	if (k == 4 && number(&w[3], &g->mono_ns, why))
		return -1;
	if (g->wall_ns <= 0 || (k == 4 && g->mono_ns <= 0)) {
		*why = "a time of 0";
		return -1;
	}
	if (k == 4)
		boot_copy(g->boot, &w[2]);
	return 0;
}

size_t
cue_go_format(const struct cue_go *g, char out[CUE_LINE_MAX])
{
	out[0] = '\0';
	if (g->wall_ns <= 0)
		return 0;
	if (!g->boot[0])
		return fitted(snprintf(out, CUE_LINE_MAX, "go %lld\n", (long long)g->wall_ns));
	if (!boot_ok(g->boot, strlen(g->boot)) || g->mono_ns <= 0)
		return 0;
	return fitted(snprintf(out, CUE_LINE_MAX, "go %lld %s %lld\n", (long long)g->wall_ns,
			       g->boot, (long long)g->mono_ns));
}

int64_t
cue_go_start(const struct cue_go *g, const char *boot, int64_t mono0, int64_t wall0)
{
	int64_t d, at;

	if (g->boot[0] && g->mono_ns > 0 && strcmp(g->boot, "-") && !strcmp(g->boot, boot))
		return g->mono_ns;
	if (__builtin_sub_overflow(g->wall_ns, wall0, &d) ||
	    __builtin_add_overflow(mono0, d, &at))
		return -1;
	return at;
}

void
cue_boot_id(char out[CUE_BOOT_MAX + 1])
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, out, CUE_BOOT_MAX) : -1;
	size_t len;

	if (fd >= 0)
		close(fd);
	out[n > 0 ? n : 0] = '\0';
	len = strcspn(out, "\n");
	out[len] = '\0';
	if (!boot_ok(out, len))
		memcpy(out, "-", 2);
}

void
cue_reader_init(struct cue_reader *r)
{
	r->start = r->n = 0;
	r->skip = 0;
}

/* The unread bytes moved to the front: the room left is at the end. */
static void
compact(struct cue_reader *r)
{
	if (!r->start)
		return;
	memmove(r->b, r->b + r->start, r->n - r->start);
	r->n -= r->start;
	r->start = 0;
}

size_t
cue_reader_push(struct cue_reader *r, const char *p, size_t n)
{
	compact(r);
	if (n > sizeof(r->b) - r->n)
		n = sizeof(r->b) - r->n;
	memcpy(r->b + r->n, p, n);
	r->n += n;
	return n;
}

long
cue_reader_fill(struct cue_reader *r, int fd)
{
	ssize_t got;

	compact(r);
	got = read(fd, r->b + r->n, sizeof(r->b) - r->n);
	if (got > 0)
		r->n += (size_t)got;
	return (long)got;
}

int
cue_reader_next(struct cue_reader *r, const char **line, size_t *len)
{
	for (;;) {
		char *p = r->b + r->start;
		size_t have = r->n - r->start;
		char *nl = memchr(p, '\n', have);

		if (!nl && have < sizeof(r->b)) {
			if (r->skip)
				r->start = r->n = 0;	/* still inside the long line */
			return 0;
		}
		if (!nl) {	/* a full buffer and no newline */
			r->start = r->n = 0;
			if (r->skip)
				continue;
			r->skip = 1;
			return -1;
		}
		r->start += (size_t)(nl - p) + 1;
		if (r->skip) {
			r->skip = 0;	/* the long line's end */
			continue;
		}
		*nl = '\0';
		*line = p;
		*len = (size_t)(nl - p);
		return 1;
	}
}

int
cue_fifo_open(const char *path)
{
	return open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

long
cue_send(const char *path, const char *s, size_t len, unsigned count)
{
	int fd;
	long done = 0;

	if (len > CUE_LINE_MAX) {
		errno = EINVAL;
		return -1;
	}
	if ((fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -1;
	/* under PIPE_BUF: each line whole or not at all */
	while ((unsigned long)done < count && write(fd, s, len) == (ssize_t)len)
		done++;
	close(fd);
	return done;
}

size_t
cue_count_lines(int fd)
{
	char b[64];
	ssize_t n;
	size_t got = 0;

	while ((n = read(fd, b, sizeof(b))) > 0)
		for (ssize_t i = 0; i < n; i++)
			got += b[i] == '\n';
	return got;
}

long
cue_acks_wait(int fd, size_t want, int64_t deadline_ns)
{
	size_t got = cue_count_lines(fd);

	while (got < want) {
		int64_t left = deadline_ns - clock_mono_ns();
		struct pollfd p = { fd, POLLIN, 0 };

		if (left <= 0)
			break;
		if (left > MARGIN_MAX_NS)
			left = MARGIN_MAX_NS;	/* poll(2)'s int of ms */
		if (poll(&p, 1, (int)((left + 999999) / 1000000)) < 0 && errno != EINTR)
			return -1;
		got += cue_count_lines(fd);
	}
	return (long)got;
}

void
cue_barrier_init(struct cue_barrier *b, size_t nsenders, int64_t margin_ns, int64_t start_ns)
{
	*b = (struct cue_barrier){
		.nsenders = nsenders, .phase = CUE_WARMUP, .mono = 1,
		.margin_ns = margin_ns < 0 ? 0 : margin_ns > MARGIN_MAX_NS ? MARGIN_MAX_NS : margin_ns,
		.start_ns = start_ns > 0 ? start_ns : 0,
	};
}

/* A line as a message may show it: 40 bytes at most, each byte that is
 * not printable ASCII as '?'. */
static void
shown(char out[48], const char *line, size_t len)
{
	size_t n = len > 40 ? 40 : len;

	for (size_t i = 0; i < n; i++)
		out[i] = line[i] >= ' ' && line[i] <= '~' ? line[i] : '?';
	memcpy(out + n, len > n ? "..." : "", len > n ? 4 : 1);
}

/* What a valid line m does to the phase's monotonic part. */
static void
barrier_mark(struct cue_barrier *b, const struct cue_mark *m)
{
	if (!b->got) {
		memcpy(b->boot, m->boot, sizeof(b->boot));
		b->off = m->mono_ns - m->wall_ns;	/* both >= 0: no overflow */
	}
	if (strcmp(m->boot, b->boot) || !strcmp(m->boot, "-"))
		b->mono = 0;
}

int
cue_barrier_line(struct cue_barrier *b, const char *line, size_t len, char *warning,
		 size_t wlen)
{
	struct cue_mark m;
	const char *why = "too long";
	char s[48];

	util_seterr(warning, wlen, "%s", "");
	if (b->phase == CUE_DONE)
		return util_seterr(warning, wlen, "a line after the last phase: ignored");
	if (b->got == b->nsenders)
		return util_seterr(warning, wlen, "a line before the %s go: ignored",
				   cue_phase_name(b->phase));
	if (!line || cue_mark_parse(line, len, &m, &why)) {
		b->mono = 0;
		shown(s, line ? line : "", line ? len : 0);
		util_seterr(warning, wlen, "line '%s' refused (%s): the %s phase starts "
			    "by the wall clock", s, why, cue_phase_name(b->phase));
	} else {
		barrier_mark(b, &m);
		if (m.phase != b->phase)
			util_seterr(warning, wlen, "'%s' while waiting for %s",
				    cue_phase_name(m.phase), cue_phase_name(b->phase));
	}
	b->got++;
	return b->got == b->nsenders;
}

int
cue_barrier_go(struct cue_barrier *b, int64_t now_ns, struct cue_go *g)
{
	int64_t t;

	if (b->phase == CUE_DONE || b->got < b->nsenders)
		return -1;
	if (__builtin_add_overflow(now_ns, b->margin_ns, &t))
		t = INT64_MAX;
	b->start_past = 0;
	if (b->phase == CUE_WARMUP && b->start_ns) {
		if (b->start_ns > t)
			t = b->start_ns;
		else
			b->start_past = 1;
	}
	if (t < b->prev)
		t = b->prev;
	if (t <= 0)
		t = 1;
	b->prev = t;
	*g = (struct cue_go){ .wall_ns = t };
	if (b->mono && !__builtin_add_overflow(t, b->off, &g->mono_ns) && g->mono_ns > 0)
		memcpy(g->boot, b->boot, sizeof(g->boot));
	else
		g->mono_ns = 0;
	b->phase++;
	b->got = 0;
	b->mono = 1;
	return 0;
}
