/* SPDX-License-Identifier: Apache-2.0 */
/* Run one untrusted python3 program under bubblewrap, with rlimits, a wall clock and capped output. */
#ifndef AIPERF_SANDBOX_H
#define AIPERF_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"

/*
 * The program runs as /usr/bin/python3 -I inside a bwrap sandbox: every
 * namespace unshared (no network but a loopback that is down, its own
 * pids, no further user namespaces), /usr read-only and nothing else of
 * the host (no /etc, /home, /root, /tmp, no project tree), a fresh
 * size-capped tmpfs /w as its working directory and only writable place,
 * a clean environment, its own session, killed with its caller. A root
 * caller runs bwrap as an unprivileged uid of its own (sandbox_uid())
 * with RLIMIT_NPROC set first, since the kernel exempts root from that
 * limit; any caller also has the limit set again inside the sandbox,
 * where it counts the sandbox's processes only. The wall clock kills
 * bwrap, whose death (--die-with-parent, pid namespace) kills every
 * process of the sandbox.
 */
struct sandbox_limits {
	const char *bwrap;	/* NULL: "bwrap" looked up in PATH */
	int64_t wall_ms;	/* wall clock for the whole run */
	unsigned cpu_s;		/* RLIMIT_CPU of each process */
	uint64_t mem_bytes;	/* RLIMIT_AS of each process */
	uint64_t fsize_bytes;	/* RLIMIT_FSIZE */
	uint64_t tmpfs_bytes;	/* the size of /w */
	unsigned nofile;	/* RLIMIT_NOFILE */
	unsigned nproc;		/* RLIMIT_NPROC: processes and threads */
	size_t out_max;		/* stdout kept; the rest is read and dropped */
	size_t err_max;		/* stderr kept */
};

/* The limits code_execution grades with (see sandbox.c for the values). */
void sandbox_limits_default(struct sandbox_limits *l);

/*
 * What one run gave: exit_code is the program's exit status, or 128 +
 * the signal that killed it (bwrap's convention), or -1 when the wall
 * clock killed it (timed_out). out and err are the caller's to release
 * with sandbox_result_release().
 */
struct sandbox_result {
	int exit_code;
	bool timed_out;
	bool out_truncated;
	bool err_truncated;
	int64_t wall_ns;
	struct buf out;
	struct buf err;
};

/*
 * Run the python3 source prog[0..plen) with in[0..inlen) as its stdin.
 * Returns 0 with *r filled when the program ran, whatever its fate, or -1
 * with a message in err when the sandbox could not be made (bwrap
 * missing, namespaces refused, out of resources): then nothing ran, and
 * nothing ever runs outside the sandbox. *r is initialized either way.
 */
int sandbox_run(const struct sandbox_limits *l, const char *prog, size_t plen,
		const char *in, size_t inlen, struct sandbox_result *r,
		char *err, size_t errlen);

void sandbox_result_release(struct sandbox_result *r);

/* The uid a root caller's sandboxes run as (one per calling process). */
uid_t sandbox_uid(void);

#endif
