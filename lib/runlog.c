/* SPDX-License-Identifier: Apache-2.0 */
/* The run log: lines in the original's logs/aiperf.log form, appended by every stage of a run. */
#include "runlog.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

static const struct {
	const char *name;
	enum runlog_level level;
} levels[] = {
	{ "TRACE", RUNLOG_TRACE }, { "DEBUG", RUNLOG_DEBUG },
	{ "INFO", RUNLOG_INFO }, { "NOTICE", RUNLOG_NOTICE },
	{ "WARNING", RUNLOG_WARNING }, { "SUCCESS", RUNLOG_SUCCESS },
	{ "ERROR", RUNLOG_ERROR }, { "CRITICAL", RUNLOG_CRITICAL },
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int fd = -1;
static int threshold = RUNLOG_INFO;

int
runlog_parse_level(const char *s)
{
	for (size_t i = 0; s && i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcasecmp(s, levels[i].name))
			return levels[i].level;
	return -1;
}

static const char *
level_name(enum runlog_level level)
{
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (levels[i].level == level)
			return levels[i].name;
	return "INFO";
}

static void
setup(void)
{
	const char *path = getenv("AIPERF_LOG_FILE");
	int l = runlog_parse_level(getenv("AIPERF_LOG_LEVEL"));

	if (l > 0)
		threshold = l;
	if (path && *path)
		fd = outfile_append(AT_FDCWD, path);
}

int
runlog_enabled(enum runlog_level level)
{
	pthread_once(&once, setup);
	return fd >= 0 && (int)level >= threshold;
}

void
runlog_v(enum runlog_level level, const char *fmt, va_list ap)
{
	char line[4096], stamp[32];
	struct timespec ts;
	struct tm tm;
	int n, m;

	if (!runlog_enabled(level))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%s.%03ld - %s - %s - ", stamp,
		     ts.tv_nsec / 1000000, argv0, level_name(level));
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (m < 0)
		return;
	n = (size_t)n + (size_t)m >= sizeof(line) - 1 ? (int)sizeof(line) - 2 : n + m;
	line[n++] = '\n';
	/* one append: a short write to a full disk is as much as can be kept */
	if (write(fd, line, (size_t)n) < 0)
		return;
}

void
runlog(enum runlog_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	runlog_v(level, fmt, ap);
	va_end(ap);
}
