/* SPDX-License-Identifier: Apache-2.0 */
/* Monotonic and wall-clock time in nanoseconds, with a fake clock for tests. */
#include "clock.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int fake_state = -1;
static int64_t fake_next, fake_step;

static int
fake(int64_t *out)
{
	if (fake_state < 0) {
		const char *e = getenv("AIPERF_FAKE_CLOCK");
		fake_state = 0;
		if (e && *e) {
			char *end;
			fake_next = strtoll(e, &end, 10);
			fake_step = *end == ':' ? strtoll(end + 1, NULL, 10) : 0;
			fake_state = 1;
		}
	}
	if (!fake_state)
		return 0;
	*out = fake_next;
	fake_next += fake_step;
	return 1;
}

static int64_t
now(clockid_t id)
{
	struct timespec ts;
	int64_t v;

	if (fake(&v))
		return v;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t
clock_now_ns(void)
{
	return now(CLOCK_MONOTONIC);
}

int64_t
clock_wall_ns(void)
{
	return now(CLOCK_REALTIME);
}

void
clock_iso_local(int64_t epoch_ns, char out[64])
{
	time_t secs = (time_t)(epoch_ns / 1000000000);
	long us = (long)((epoch_ns % 1000000000) / 1000);
	struct tm tm;

	localtime_r(&secs, &tm);
	snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, us);
}
