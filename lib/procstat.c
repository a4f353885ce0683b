/* SPDX-License-Identifier: Apache-2.0 */
/* A process's /proc/PID/stat: its name, state, parents and CPU time. */
#include "procstat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A whole decimal integer of n bytes at s in [0, INT64_MAX]; 0 or -1. */
static int
parse_num(const char *s, size_t n, long long *out)
{
	long long v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (INT64_MAX - (s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* Where field number field (4 on) is kept in ps, or NULL: not kept. */
static long long *
slot(struct procstat *ps, int field)
{
	switch (field) {
	case 4:
		return &ps->ppid;
	case 5:
		return &ps->pgrp;
	case 14:
		return &ps->utime;
	case 15:
		return &ps->stime;
	case 22:
		return &ps->starttime;
	}
	return NULL;
}

/* The next field of [*p, e), split on spaces (a final newline ends the
 * last): its start and length, 0 when none is left. */
static int
next_field(const char **p, const char *e, const char **f, size_t *n)
{
	const char *q = *p;

	while (q < e && *q == ' ')
		q++;
	if (q >= e || (*q == '\n' && q + 1 == e))
		return 0;
	*f = q;
	while (q < e && *q != ' ' && !(*q == '\n' && q + 1 == e))
		q++;
	*n = (size_t)(q - *f);
	*p = q;
	return 1;
}

/* Fields 3 to 22, after the name's ')' at p. */
static int
parse_fields(struct procstat *ps, const char *p, const char *e)
{
	const char *f;
	size_t n;
	int field = 2;

	while (field < 22 && next_field(&p, e, &f, &n)) {
		long long *v = slot(ps, ++field);

		if (field == 3) {
			if (n != 1)
				return -1;
			ps->state = *f;
		} else if (v && parse_num(f, n, v) < 0) {
			return -1;
		}
	}
	return field == 22 ? 0 : -1;
}

/* Fields 1 and 2: "PID (NAME)"; the position after the last ')'. */
static const char *
parse_head(struct procstat *ps, const char *text, const char *e)
{
	const char *open = memchr(text, '(', (size_t)(e - text)), *close = NULL;

	for (const char *q = e; q > text; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!open || !close || close < open || open - text < 2 || open[-1] != ' ' ||
	    parse_num(text, (size_t)(open - 1 - text), &ps->pid) < 0)
		return NULL;
	size_t n = (size_t)(close - open - 1);

	if (n >= sizeof(ps->comm))
		n = sizeof(ps->comm) - 1;
	memcpy(ps->comm, open + 1, n);
	ps->comm[n] = '\0';
	return close + 1;
}

int
procstat_parse(struct procstat *ps, const char *text, size_t len)
{
	const char *p;

	memset(ps, 0, sizeof(*ps));
	if (!len || !(p = parse_head(ps, text, text + len)) ||
	    parse_fields(ps, p, text + len) < 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Up to size bytes of the file at fd (to its end or the size); -1 on error. */
static ssize_t
read_some(int fd, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = read(fd, buf + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int
procstat_read(struct procstat *ps, pid_t pid)
{
	/* 52 fields of 20 digits at most and a name of 64 fit; the fields
	 * kept end within the first 600 bytes in any case */
	char path[64], buf[2048];
	ssize_t n;
	int fd, err;

	if (pid <= 0) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			errno = ESRCH;
		return -1;
	}
	n = read_some(fd, buf, sizeof(buf));
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	if (procstat_parse(ps, buf, (size_t)n) < 0 || ps->pid != (long long)pid) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int64_t
procstat_ns(long long ticks)
{
	static long tck;

	if (!tck && (tck = sysconf(_SC_CLK_TCK)) <= 0)
		tck = 100;
	if (ticks <= 0)
		return 0;
	if (ticks / tck >= INT64_MAX / 1000000000)
		return INT64_MAX;
	return (int64_t)(ticks / tck) * 1000000000 + (int64_t)(ticks % tck) * 1000000000 / tck;
}

int64_t
procstat_cpu_ns(const struct procstat *ps)
{
	int64_t u = procstat_ns(ps->utime), s = procstat_ns(ps->stime);

	return u > INT64_MAX - s ? INT64_MAX : u + s;
}
