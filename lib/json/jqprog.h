/* SPDX-License-Identifier: Apache-2.0 */
/* A user's jq program, compiled with libjq and run in a helper process that bounds its memory, time and output. */
#ifndef AIPERF_JQPROG_H
#define AIPERF_JQPROG_H

#include <stddef.h>

#include "buf.h"

/*
 * The rest of the code sees JSON text only: libjq's jv values stay inside
 * jqprog.c. A struct jqprog owns its program's text and, once it has run,
 * a helper process, aiperf-jqrun(1) (lib/json/jqexec.h), that runs it:
 * libjq 1.6 has no step budget and its allocator cannot be replaced, and
 * one jq_next() call can build a value of any size ([range(1e9)],
 * "x" * 1e9), so only a process of its own can be stopped. Each run may use JQPROG_MEM_BASE plus
 * JQPROG_MEM_PER_BYTE bytes of address space a byte of its input
 * (RLIMIT_AS; not in AddressSanitizer builds, whose shadow memory such a
 * limit forbids) and JQPROG_CPU_MS plus JQPROG_CPU_MS_MIB ms of CPU time a
 * MiB of input (ITIMER_PROF); the helper is restarted after a run that
 * passes either. Use a struct jqprog from one thread at a time (one per
 * thread). Messages in err are jq's own or ours, never the input's.
 */
#define JQPROG_MEM_BASE ((size_t)256 << 20)
#define JQPROG_MEM_PER_BYTE 16
#define JQPROG_CPU_MS 2000
#define JQPROG_CPU_MS_MIB 64

struct jqprog;

/*
 * Is prog (a program that compiles) a path program: only steps (.name,
 * ."name", .[N], .[N:M], .["name"], .[], each with or without ?) joined
 * by |, alone or collected in [ ] with an optional | select(. != null) at
 * the end (j2jq_path()'s translations are)? Its outputs are parts of its
 * input that do not overlap, found in time linear in the input: it needs
 * no limit and runs in this process (unless AIPERF_NO_FASTPATH=1), saving
 * the helper's two context switches a run.
 */
int jqprog_is_path(const char *prog);

/* Compile prog (a helper starts at the first run of a program that is not
 * a path). NULL with jq's first compile error in err. */
struct jqprog *jqprog_new(const char *prog, char *err, size_t errlen);
/* Ends p's helper. NULL is fine. */
void jqprog_free(struct jqprog *p);
/*
 * Run p over the JSON text in[0..n): the first output's compact JSON text is
 * appended to out. Returns the number of outputs (0, 1, or 2 for "more than
 * one", the rest not run), or -1 with a message in err and errno:
 * EINVAL: the input is not JSON to jq, or the program raised an error
 * before its first output; ENOBUFS: the output does not fit out's cap;
 * E2BIG: the input is over 2 GiB; ENOMEM, ETIME: the run passed its memory
 * or CPU time limit; EIO: the helper could not start, died or gave no
 * answer in ten times its CPU time limit and 10 s.
 */
int jqprog_run(struct jqprog *p, const char *in, size_t n, struct buf *out,
	       char *err, size_t errlen);

#endif
