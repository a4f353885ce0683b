/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate: what a run directory says of its run. */
#ifndef AIPERF_AGG_RUNDIR_H
#define AIPERF_AGG_RUNDIR_H

#include <stddef.h>

/* DIR/NAME, malloc'd (the caller frees it). */
char *rundir_path(const char *dir, const char *name);

/*
 * Whether DIR's exit_status file says the run failed (1, why in why) or
 * not (0). No file is no verdict; one that cannot be read (not a regular
 * file, over 64 bytes), is empty or holds anything but a status 0 to 255
 * on one line is a failed run; statuses 0 and 3 (an exit gate failed,
 * the run is whole) are not.
 */
int rundir_failed(const char *dir, char *why, size_t n);

#endif
