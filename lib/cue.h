/* SPDX-License-Identifier: Apache-2.0 */
/* The phase barrier and scrape cue protocol between senders, scrapers and their coordinator: both ends. */
#ifndef AIPERF_CUE_H
#define AIPERF_CUE_H

#include <stddef.h>
#include <stdint.h>

/*
 * aiperf(7), "Supervisor interface", describes the protocol; this module
 * is its only definition. Four lines travel through FIFOs:
 *
 *	PHASE BOOT_ID MONO_NS WALL_NS	a sender's cue of a phase (warmup or
 *					profiling), all senders into one FIFO
 *	go WALL_NS [BOOT_ID MONO_NS]	the coordinator's answer, the
 *					phase's start, on each sender's FIFO
 *	cue				to a scraper: scrape every endpoint now
 *	ack				a scraper's answer, once those
 *					samples are written
 *
 * Words are separated by one space; numbers are decimal digits (no sign,
 * no leading zero) up to 2^63-1; a BOOT_ID is 1 to CUE_BOOT_MAX printable
 * ASCII characters, "-" for a kernel whose boot id is unknown; a line is
 * at most CUE_LINE_MAX bytes, its newline included, and is written with
 * one write(2), whole (under PIPE_BUF), so that the lines of several
 * writers never mix. The ends that read "cue" and "ack" lines count lines:
 * any line is one.
 *
 * Parsers take a line without its newline (len bytes, which may hold a
 * NUL) and return 0, or -1 with *why set to a static reason. Nothing here
 * prints or exits; the barrier (struct cue_barrier) is a pure state
 * machine, the reader (struct cue_reader) owns no memory.
 */

#define CUE_LINE_MAX 256	/* bytes, newline included */
#define CUE_BOOT_MAX 39
/* How long profiling waits for the scrapers' acknowledgements at most. */
#define CUE_WAIT_NS 2000000000LL
#define CUE_SCRAPE "cue\n"
#define CUE_ACK "ack\n"

enum cue_phase {
	CUE_WARMUP = 1,
	CUE_PROFILING = 2,
	CUE_DONE = 3,		/* the barrier: both phases passed */
};

/* "warmup", "profiling"; "done" for CUE_DONE, "?" for anything else. */
const char *cue_phase_name(int phase);

/* A sender's cue of a phase: the moment it is ready on both its clocks. */
struct cue_mark {
	int phase;			/* CUE_WARMUP or CUE_PROFILING */
	char boot[CUE_BOOT_MAX + 1];
	int64_t mono_ns, wall_ns;	/* >= 0 */
};

/* m as its line, newline included, into out (NUL-terminated): its
 * length, or 0 when m holds what no line may (a bad phase, boot id or
 * number). */
size_t cue_mark_format(const struct cue_mark *m, char out[CUE_LINE_MAX]);
int cue_mark_parse(const char *line, size_t len, struct cue_mark *m, const char **why);

/* The start of a phase: wall_ns > 0; boot[0] == '\0' (mono_ns 0) when the
 * line has no monotonic part, else mono_ns > 0 on boot's clock. */
struct cue_go {
	int64_t wall_ns;
	char boot[CUE_BOOT_MAX + 1];
	int64_t mono_ns;
};

size_t cue_go_format(const struct cue_go *g, char out[CUE_LINE_MAX]);
int cue_go_parse(const char *line, size_t len, struct cue_go *g, const char **why);
/*
 * When g's phase starts on the monotonic clock of a process whose kernel
 * has boot id boot and whose clocks read mono0 and wall0 at one moment:
 * g's mono_ns when its boot id is boot (one kernel, one clock), else its
 * wall_ns through that anchor. -1 on overflow.
 */
int64_t cue_go_start(const struct cue_go *g, const char *boot, int64_t mono0, int64_t wall0);

/* This kernel's boot id (/proc/sys/kernel/random/boot_id) into out; "-"
 * when it cannot be read or is not a valid BOOT_ID. */
void cue_boot_id(char out[CUE_BOOT_MAX + 1]);

/*
 * Lines out of a FIFO. Bytes come in through cue_reader_fill (read(2) on
 * a descriptor) or cue_reader_push; cue_reader_next hands out the whole
 * lines, in order. A line longer than CUE_LINE_MAX is reported once and
 * skipped up to its newline; bytes past the buffer's room wait for the
 * next fill (push takes only what fits).
 */
struct cue_reader {
	char b[CUE_LINE_MAX];
	size_t start, n;	/* unread bytes: b[start..n) */
	int skip;		/* inside an over-long line, up to its newline */
};

void cue_reader_init(struct cue_reader *r);
/* Copies what fits of p[0..n) in; returns how many bytes it took. */
size_t cue_reader_push(struct cue_reader *r, const char *p, size_t n);
/* One read(2) of fd into the room left: its result (0: end of file;
 * -1 with errno, EAGAIN when a non-blocking fd has nothing). With no room
 * left, 0 bytes are asked for: call cue_reader_next first. */
long cue_reader_fill(struct cue_reader *r, int fd);
/*
 * The next whole line: 1, with *line NUL-terminated in r's buffer (valid
 * until the next call on r) and *len its length without the newline; 0
 * when none is complete yet; -1 for a line too long (dropped: the rest of
 * it is skipped as it comes).
 */
int cue_reader_next(struct cue_reader *r, const char **line, size_t *len);

/*
 * The FIFO at path opened read-write and non-blocking: a reader that
 * never sees end-of-file however often writers come and go, and a writer
 * whose writes never fail for want of a reader. -1 with errno.
 */
int cue_fifo_open(const char *path);
/*
 * count copies of the line s (len bytes, newline included, at most
 * CUE_LINE_MAX) written into the FIFO at path, opened write-only without
 * blocking: how many were written whole, or -1 with errno when it cannot
 * be opened (ENXIO: nobody has it open to read).
 */
long cue_send(const char *path, const char *s, size_t len, unsigned count);
/* The lines fd has now (non-blocking: read until it has no more), each
 * newline one: the scrapers' cues, their acknowledgements. */
size_t cue_count_lines(int fd);
/*
 * Lines read from fd (non-blocking) until want of them came or the
 * monotonic deadline (clock_mono_ns) passed, sleeping in poll(2): how
 * many came, or -1 with errno when poll fails (not EINTR). The
 * scrapers' acknowledgements; any line counts as one.
 */
long cue_acks_wait(int fd, size_t want, int64_t deadline_ns);

/*
 * The coordinator's barrier for nsenders senders: warmup, then profiling.
 * Each phase's lines are fed in as they come (cue_barrier_line); once
 * every sender has cued it, cue_barrier_go gives its go and moves on to
 * the next. The rules: the go has a monotonic part only when every line
 * of the phase was valid and named one boot id (not "-"): the first
 * line's, with the first line's offset between its clocks. The start is
 * the wall-clock time now + margin, or start_ns (when not 0) for the
 * first phase when that is later (else start_past is set: a moment
 * already past, the run starts now); never before the previous phase's
 * start.
 */
struct cue_barrier {
	size_t nsenders, got;	/* lines of the phase awaited so far */
	int phase;		/* awaited: CUE_WARMUP, CUE_PROFILING, CUE_DONE */
	int mono;		/* the lines so far allow a monotonic part */
	char boot[CUE_BOOT_MAX + 1];	/* the phase's first line's */
	int64_t off;		/* its MONO_NS - WALL_NS */
	int64_t margin_ns, start_ns, prev;
	int start_past;		/* set by cue_barrier_go: start_ns was past */
};

/* margin_ns is clamped to [0, 1 h]; start_ns <= 0: none. */
void cue_barrier_init(struct cue_barrier *b, size_t nsenders, int64_t margin_ns,
		      int64_t start_ns);
/*
 * One line (len bytes, no newline; NULL: one too long to keep) from a
 * sender. Whatever it holds it counts as one sender's cue of the phase
 * awaited, since that sender waits for its go (a malformed line takes the
 * monotonic part away). Returns 1 when this line completes the phase
 * (every sender has cued: call cue_barrier_go), 0 when more are awaited,
 * -1 after both phases (the line is ignored). warning gets a message, or
 * "" (a line refused, a line that names another phase than the one
 * awaited).
 */
int cue_barrier_line(struct cue_barrier *b, const char *line, size_t len, char *warning,
		     size_t wlen);
/* The go of the phase completed, at wall-clock time now_ns; b then awaits
 * the next phase. 0, or -1 when no phase is complete. */
int cue_barrier_go(struct cue_barrier *b, int64_t now_ns, struct cue_go *g);

#endif
