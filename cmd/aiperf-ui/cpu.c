/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-ui: client health from /proc (the sender's CPU share) and notices from the wrapper. */
#include "ui.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* A small file's text, NUL-terminated, in buf; its length or -1. */
static ssize_t
read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

void
ui_cpu_init(struct ui_cpu *c, const char *const *pidfiles, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->p = n ? xcalloc(n, sizeof(*c->p)) : NULL;
	c->n = n;
	for (size_t i = 0; i < n; i++) {
		c->p[i].pidfile = pidfiles[i];
		c->p[i].ticks = -1;
	}
	c->tck = sysconf(_SC_CLK_TCK);
	if (c->tck <= 0)
		c->tck = 100;
}

void
ui_cpu_release(struct ui_cpu *c)
{
	free(c->p);
	c->p = NULL;
	c->n = 0;
}

int
ui_cpu_ticks(const char *s, size_t n, long long *ticks)
{
	const char *p = NULL, *e = s + n;
	long long f[2];
	int field;

	/* the command name may hold spaces and parentheses: after the last ')' */
	for (const char *q = s; q < e; q++)
		if (*q == ')')
			p = q;
	if (!p)
		return -1;
	/* fields 3 (state) on; utime and stime are fields 14 and 15 */
	for (field = 2, p++; p < e && field < 15;) {
		while (p < e && *p == ' ')
			p++;
		if (p >= e)
			return -1;
		field++;
		if (field >= 14) {
			long long v = 0;

			if (*p < '0' || *p > '9')
				return -1;
			for (; p < e && *p >= '0' && *p <= '9'; p++) {
				if (v > (1LL << 55))
					return -1;
				v = v * 10 + (*p - '0');
			}
			f[field - 14] = v;
		}
		while (p < e && *p != ' ')
			p++;
	}
	if (field < 15)
		return -1;
	*ticks = f[0] + f[1];
	return 0;
}

/* utime + stime of p now, or -1 (no PID yet, the process gone). */
static long long
proc_ticks(struct ui_cpu_proc *p)
{
	char buf[1024], path[64];
	const char *why;
	long long t, pid;
	ssize_t n;

	if (!p->pid) {
		if (read_small(p->pidfile, buf, sizeof(buf)) <= 0)
			return -1;
		buf[strcspn(buf, "\n")] = '\0';
		if (util_strtonum(buf, 1, 1LL << 30, &pid, &why) < 0)
			return -1;
		p->pid = (long)pid;
	}
	snprintf(path, sizeof(path), "/proc/%ld/stat", p->pid);
	if ((n = read_small(path, buf, sizeof(buf))) <= 0 ||
	    ui_cpu_ticks(buf, (size_t)n, &t) < 0)
		return -1;
	return t;
}

double
ui_cpu_sample(struct ui_cpu *c, int64_t now_ns)
{
	long long d = 0;
	int known = 0;

	c->alive = 0;
	for (size_t i = 0; i < c->n; i++) {
		long long t = proc_ticks(&c->p[i]);

		if (t >= 0) {
			c->alive++;
			if (c->p[i].ticks >= 0 && t >= c->p[i].ticks) {
				d += t - c->p[i].ticks;
				known = 1;
			}
		}
		c->p[i].ticks = t;
	}
	double pct = !known || now_ns <= c->t_ns ? -1 :
		     100.0 * (double)d / (double)c->tck / ((double)(now_ns - c->t_ns) / 1e9);
	c->t_ns = now_ns;
	return pct;
}

int
ui_notice_read(struct ui_state *st, const char *path)
{
	char buf[sizeof(st->notice)];
	ssize_t n;
	size_t i, k = 0;

	if (!path || st->notice[0] || (n = read_small(path, buf, sizeof(buf))) <= 0)
		return 0;
	for (i = 0; i < (size_t)n && buf[i] != '\n'; i++)
		if ((unsigned char)buf[i] >= 0x20 && buf[i] != 0x7f)
			st->notice[k++] = buf[i];
	st->notice[k] = '\0';
	return k > 0;
}
