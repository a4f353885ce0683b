/* SPDX-License-Identifier: Apache-2.0 */
/* A user's jq program, compiled once with libjq and run over JSON text. */
#ifndef AIPERF_JQPROG_H
#define AIPERF_JQPROG_H

#include <stddef.h>

#include "buf.h"

/*
 * The rest of the code sees JSON text only: libjq's jv values stay inside
 * jqprog.c. A struct jqprog owns one jq_state; use it from one thread at a
 * time (one per thread). Messages in err are jq's own, never the program's
 * input.
 */
struct jqprog;

/* Compile prog. NULL with jq's first compile error in err. */
struct jqprog *jqprog_new(const char *prog, char *err, size_t errlen);
/* NULL is fine. */
void jqprog_free(struct jqprog *p);
/*
 * Run p over the JSON text in[0..n): the first output's compact JSON text is
 * appended to out. Returns the number of outputs (0, 1, or 2 for "more than
 * one", the rest not run), or -1 with a message in err when the input is not
 * JSON, the program raises an error before its first output, or the output
 * does not fit out's cap.
 */
int jqprog_run(struct jqprog *p, const char *in, size_t n, struct buf *out,
	       char *err, size_t errlen);

#endif
