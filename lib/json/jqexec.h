/* SPDX-License-Identifier: Apache-2.0 */
/* jqprog's engine: a compiled jq program run in this process, or in a helper process under jqprog.h's limits. */
#ifndef AIPERF_JQEXEC_H
#define AIPERF_JQEXEC_H

#include <stddef.h>
#include <sys/types.h>

#include <jq.h>

#include "buf.h"

/*
 * For lib/json/jqprog.c, and jqexec_serve() for aiperf-jqrun. Results,
 * messages and errno are jqprog_run()'s. The caller owns the jq_state (jq_teardown()) and the
 * struct jqexec (jqexec_stop()).
 */

/* prog compiled, or NULL with jq's first message in msg. */
jq_state *jqexec_compile(const char *prog, char *msg, size_t msglen);
/* Run jq over in[0..n) here, without limits. */
int jqexec_here(jq_state *jq, const char *in, size_t n, struct buf *out,
		char *err, size_t errlen);

/* A helper process: aiperf-jqrun(1), beside the running binary or on PATH,
 * its socket on descriptor JQEXEC_FD. */
#define JQEXEC_FD 3
struct jqexec {
	pid_t pid;		/* 0: none runs */
	int fd;			/* its socket, or -1 */
	long wall_ms;		/* the socket's timeouts */
};
#define JQEXEC_INIT { 0, -1, 0 }

/* Run prog over in[0..n) in x's helper, first started (prog compiled
 * there) when none runs; one that passed a limit is reaped, and the next
 * run starts another. */
int jqexec_run(struct jqexec *x, const char *prog, const char *in, size_t n,
	       struct buf *out, char *err, size_t errlen);
/* End x's helper (none running is fine). */
void jqexec_stop(struct jqexec *x);

/*
 * The helper's side (aiperf-jqrun's main): take the program, then run it
 * on each input under its limits until the socket on JQEXEC_FD ends.
 * Returns the exit status: 0, or 1 when no program came or it did not
 * compile (the caller was told why). A run past a limit exits from
 * inside, after saying so.
 */
int jqexec_serve(void);

#endif
