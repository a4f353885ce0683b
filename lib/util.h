/* SPDX-License-Identifier: Apache-2.0 */
/* Process-level helpers for the tools: messages, dying, checked allocation, number parsing. */
#ifndef AIPERF_UTIL_H
#define AIPERF_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Messages go to stderr prefixed with "argv0: ". A format ending in ':'
 * appends ": strerror(errno)". die() exits 1, usage errors exit 2 through
 * die_usage(). error() prints and returns -1 so "return error(...)" works.
 * The x* allocators abort on out-of-memory and on size overflow, so call
 * sites never check for NULL.
 */
extern const char *argv0;

#define FMT(a, b) __attribute__((format(printf, a, b)))

void util_setprogname(const char *name);
_Noreturn void die(const char *fmt, ...) FMT(1, 2);
_Noreturn void die_usage(const char *fmt, ...) FMT(1, 2);
void warn(const char *fmt, ...) FMT(1, 2);
int error(const char *fmt, ...) FMT(1, 2);
/*
 * After a failed write to stdout: EPIPE means downstream is done reading
 * (as under "| head"), so exit 0 quietly; anything else is
 * die("write error:"). Tools ignore SIGPIPE so that EPIPE reaches them.
 */
_Noreturn void die_write(void);

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A malloc'd string formatted as printf would (git xstrfmt). */
char *xstrfmt(const char *fmt, ...) FMT(1, 2);
/* For lib/ functions that report into a caller's buffer: format the message
 * into err (when errlen > 0) and return -1. */
int util_seterr(char *err, size_t errlen, const char *fmt, ...) FMT(3, 4);

/*
 * Parse a whole string as a base-10 integer in [min, max]. Returns 0 and
 * stores the value, or -1 with *why set to "invalid", "too small" or
 * "too large" (sbase estrtonum).
 */
int util_strtonum(const char *s, long long min, long long max, long long *out,
		  const char **why);

/* Parse a whole string as a finite double. Returns 0 or -1. */
int util_strtod(const char *s, double *out);

/*
 * Whether s names canon (lower case, '_' between words) as the original's
 * case-insensitive enums take a value: any case, '-' for '_'.
 */
int util_choice_eq(const char *s, const char *canon);

/* Option helpers for cmd/: die_usage with "invalid value for --opt" on failure. */
long long opt_int(const char *opt, const char *arg, long long min, long long max);
double opt_double(const char *opt, const char *arg, double min, double max);

/*
 * Checked close of a stream (sbase fshut): flushes, reports write errors
 * with name, and returns 0 or -1. EPIPE on stdout counts as success:
 * downstream is done reading.
 */
int util_fshut(FILE *f, const char *name);

/*
 * The errno of a named input that is not a regular file: a FIFO, a
 * terminal, a device or a socket (Linux has no EFTYPE of its own; a
 * directory is EISDIR). util_strerror() is strerror() that knows it; the
 * messages of die(), warn() and error() use it.
 */
#ifndef EFTYPE
#define EFTYPE 4095
/* Random (version 4) UUID text from /dev/urandom; dies when it cannot read it. */
void util_uuid4(char out[37]);

#endif
const char *util_strerror(int err);

/*
 * Open a named input for reading: a regular file of at most max bytes by
 * its size (max 0: any size). The open itself never waits (O_NONBLOCK, so a
 * FIFO with no writer or a terminal is refused at once, not read) and never
 * takes a controlling terminal. Returns the descriptor (O_CLOEXEC,
 * blocking), or -1 with errno EFTYPE (not a regular file), EISDIR, EFBIG
 * (larger than max) or open()'s.
 */
int util_openfile(const char *path, size_t max);

/* Read a whole regular file (max bytes at most, checked by its size before
 * reading and again as read); transparently zstd-decompresses names ending
 * in ".zst" (max bounds both the file and what it inflates to). Returns a
 * NUL-terminated malloc'd buffer owned by the caller, or NULL with errno set
 * (util_openfile()'s, EILSEQ on bad zstd). */
char *util_readfile(const char *path, size_t max, size_t *len);

/*
 * 1 unless the environment sets AIPERF_NO_FASTPATH (to anything but "" or
 * "0"): the fast paths for the common case (JSON numbers, metric lookups,
 * sorting, record shapes) are then off, and every output must be byte for
 * byte the same (tests/cli/t0640-fastpath.sh compares both).
 */
int util_fastpath(void);

/* The environment variable name, NULL when unset or empty. */
const char *util_env(const char *name);
/* Whether name is set to 1, on, yes or true (any case), as the hub's
 * clients read their *_OFFLINE switches. */
int util_env_true(const char *name);

/* mkdir -p path (links followed), mode 0777 less the umask: 0, or -1
 * with errno (ENOTDIR when path or a parent exists and is no folder). */
int util_mkdirs(const char *path);

#include "banned.h"
/* Random (version 4) UUID text from /dev/urandom; dies when it cannot read it. */
void util_uuid4(char out[37]);

#endif
