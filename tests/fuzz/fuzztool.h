/* SPDX-License-Identifier: Apache-2.0 */
/* For fuzz targets built with a tool's files: die() escapes, stdout captured, input as a file. */
#ifndef AIPERF_FUZZTOOL_H
#define AIPERF_FUZZTOOL_H

/*
 * The Makefile links these targets with -Wl,--wrap=die,--wrap=die_usage:
 * a tool's die() on a rejected input comes here and jumps back to
 * FUZZ_TRY() instead of exiting, which libFuzzer would report as a crash.
 * What the tool had allocated and opened by then is lost, so such targets
 * turn leak detection off and fuzz_closefds() closes the descriptors.
 * Include this header in one file only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdint.h>

static jmp_buf fuzz_jb;
static int fuzz_armed, fuzz_died, fuzz_fdbase = -1;

void __wrap_die(const char *fmt, ...);
void __wrap_die_usage(const char *fmt, ...);

void
__wrap_die(const char *fmt, ...)
{
	(void)fmt;
	if (!fuzz_armed)
		abort();
	fuzz_died = 1;
	longjmp(fuzz_jb, 1);
}

void
__wrap_die_usage(const char *fmt, ...)
{
	(void)fmt;
	if (!fuzz_armed)
		abort();
	fuzz_died = 2;
	longjmp(fuzz_jb, 2);
}

/*
 * malloc, calloc, realloc and free from our own files are wrapped too: a
 * block allocated while fuzz_track is set and not yet freed is remembered,
 * and fuzz_free_tracked() frees them all after a die(). A target whose
 * state outlives one input (a cache) leaves fuzz_track off.
 */
#define FUZZ_TRACK_MAX (1 << 16)
static void *fuzz_blocks[FUZZ_TRACK_MAX];
static int fuzz_track;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t k);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

static size_t
fuzz_slot(const void *p)
{
	return ((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15u >> 48;
}

static void
fuzz_forget(void *p)
{
	for (size_t i = fuzz_slot(p), k = 0; p && k < 64; i = (i + 1) % FUZZ_TRACK_MAX, k++)
		if (fuzz_blocks[i] == p) {
			fuzz_blocks[i] = NULL;
			return;
		}
}

static void *
fuzz_remember(void *p)
{
	for (size_t i = fuzz_slot(p), k = 0; p && fuzz_track && k < 64;
	     i = (i + 1) % FUZZ_TRACK_MAX, k++)
		if (!fuzz_blocks[i]) {
			fuzz_blocks[i] = p;
			break;
		}
	return p;
}

void *
__wrap_malloc(size_t n)
{
	return fuzz_remember(__real_malloc(n));
}

void *
__wrap_calloc(size_t n, size_t k)
{
	return fuzz_remember(__real_calloc(n, k));
}

void *
__wrap_realloc(void *p, size_t n)
{
	fuzz_forget(p);
	return fuzz_remember(__real_realloc(p, n));
}

void
__wrap_free(void *p)
{
	fuzz_forget(p);
	__real_free(p);
}

/* After a die(): free what the tool allocated for this input (free 1),
 * or only forget it (free 0: its owner lives on). */
static void
fuzz_release_tracked(int free_them)
{
	for (size_t i = 0; i < FUZZ_TRACK_MAX; i++)
		if (fuzz_blocks[i]) {
			if (free_them)
				__real_free(fuzz_blocks[i]);
			fuzz_blocks[i] = NULL;
		}
}

/* FUZZ_TRY() is 0 when first reached, the die kind after a die(). */
#define FUZZ_TRY() (fuzz_armed = 1, fuzz_died = 0, setjmp(fuzz_jb))

/* Descriptors the tool left open when it died. */
static void
fuzz_closefds(void)
{
	if (fuzz_fdbase < 0) {
		fuzz_fdbase = dup(0);
		close(fuzz_fdbase);
		return;
	}
	for (int fd = fuzz_fdbase; fd < fuzz_fdbase + 64; fd++)
		close(fd);
}

/* Write data to a fixed per-process file and return its path. */
static const char *
fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/aiperf-fuzz-%ld-%s", (long)getpid(),
		 name);
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size ||
	    fclose(f))
		abort();
	return path;
}

/* stdout into memory between fuzz_out_begin() and fuzz_out_end(). */
static FILE *fuzz_saved_stdout;
static char *fuzz_out;
static size_t fuzz_outlen;

static void
fuzz_out_begin(void)
{
	fuzz_saved_stdout = stdout;
	stdout = open_memstream(&fuzz_out, &fuzz_outlen);
	if (!stdout)
		abort();
}

/* The captured text (NUL-terminated, the caller frees it); closed is
 * whether the tool already closed the stream itself. */
static char *
fuzz_out_end(int closed, size_t *len)
{
	char *s;

	if (!closed)
		fclose(stdout);
	stdout = fuzz_saved_stdout;
	s = fuzz_out;
	*len = fuzz_outlen;
	fuzz_out = NULL;
	return s;
}

#endif
