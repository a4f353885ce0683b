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
ui_cpu_init(struct ui_cpu *c, const char *pidfile)
{
	memset(c, 0, sizeof(*c));
	c->pidfile = pidfile;
	c->ticks = -1;
	c->tck = sysconf(_SC_CLK_TCK);
	if (c->tck <= 0)
		c->tck = 100;
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

double
ui_cpu_sample(struct ui_cpu *c, int64_t now_ns)
{
	char buf[1024], path[64];
	const char *why;
	long long t, pid;
	ssize_t n;
	double pct;

	if (!c->pidfile)
		return -1;
	if (!c->pid) {
		if (read_small(c->pidfile, buf, sizeof(buf)) <= 0)
			return -1;
		buf[strcspn(buf, "\n")] = '\0';
		if (util_strtonum(buf, 1, 1LL << 30, &pid, &why) < 0)
			return -1;
		c->pid = (long)pid;
	}
	snprintf(path, sizeof(path), "/proc/%ld/stat", c->pid);
	if ((n = read_small(path, buf, sizeof(buf))) <= 0 ||
	    ui_cpu_ticks(buf, (size_t)n, &t) < 0)
		return c->ticks = -1, -1;
	pct = c->ticks < 0 || now_ns <= c->t_ns ? -1 :
	      100.0 * (double)(t - c->ticks) / (double)c->tck / ((double)(now_ns - c->t_ns) / 1e9);
	c->ticks = t;
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
