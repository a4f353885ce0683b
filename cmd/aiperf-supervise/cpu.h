/* SPDX-License-Identifier: Apache-2.0 */
/* The stage CPU sampler: the other stages' CPU time while the senders run (aiperf-export --stage-cpu). */
#ifndef AIPERF_SUPERVISE_CPU_H
#define AIPERF_SUPERVISE_CPU_H

#include <stddef.h>
#include <sys/types.h>

struct evloop;
struct cpu_sampler;

/*
 * Every 50 ms (a timer on l, no thread, no sleep) the CPU time (user +
 * system, ns) of the generators (summed; the largest sum seen is kept, as a
 * generator that ended leaves no /proc entry), of metrics and of export
 * into the file path, in the form aiperf-export --stage-cpu reads (the
 * same as cpu_sampler in cmd/aiperf-profile.sh writes today: a "names"
 * line, then "T_NS GEN_NS METRICS_NS EXPORT_NS" lines), each line written
 * whole. A pid <= 0 is a stage not started: its column stays 0. NULL with
 * a warning when path cannot be created.
 *
 * T_NS is the wall clock (CLOCK_REALTIME, never clock.h's fake clock),
 * which the records' stamps the window comes from are on. Each process
 * keeps the largest CPU time read of it once it is gone (or its pid is
 * another process's), so a column never goes back. The first sample is
 * taken at once. The sampler owns its descriptor and a copy of gens; it
 * never waits for, signals or reaps a process.
 */
struct cpu_sampler *cpu_start(struct evloop *l, const char *path, const pid_t *gens,
			      size_t ngens, pid_t metrics, pid_t export);
/* The senders have ended: one last sample, the "end" line, closed, freed
 * (before l is). NULL is a no-op. */
void cpu_stop(struct cpu_sampler *c);

#endif
