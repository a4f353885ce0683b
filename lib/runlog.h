/* SPDX-License-Identifier: Apache-2.0 */
/* The run log: lines in the original's logs/aiperf.log form, appended by every stage of a run. */
#ifndef AIPERF_RUNLOG_H
#define AIPERF_RUNLOG_H

#include <stdarg.h>

/*
 * aiperf profile sets AIPERF_LOG_FILE (the run's logs/aiperf.log) and
 * AIPERF_LOG_LEVEL (TRACE, DEBUG, INFO, NOTICE, WARNING, SUCCESS, ERROR or
 * CRITICAL; INFO when unset or unknown) for its stages. Each message at or
 * above the level becomes one line,
 *
 *	2026-11-26 10:30:00.123 - aiperf-send - WARNING - the message
 *
 * (local time, the program's name, the level), written with one append so
 * that the stages' lines interleave whole. Without AIPERF_LOG_FILE nothing
 * is written. warn(), error() and die() (util.h) log at WARNING and ERROR
 * besides printing; runlog() is for what only the log should hold: phase
 * changes, counts, the settings in force.
 */
enum runlog_level {
	RUNLOG_TRACE = 5,
	RUNLOG_DEBUG = 10,
	RUNLOG_INFO = 20,
	RUNLOG_NOTICE = 25,
	RUNLOG_WARNING = 30,
	RUNLOG_SUCCESS = 35,
	RUNLOG_ERROR = 40,
	RUNLOG_CRITICAL = 50,
};

/* Whether a message at level would be written (to skip costly formatting). */
int runlog_enabled(enum runlog_level level);
void runlog(enum runlog_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void runlog_v(enum runlog_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The level named by s (any case), or -1. */
int runlog_parse_level(const char *s);

#endif
