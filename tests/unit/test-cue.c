/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/cue: the lines round trip, hostile lines refused, the reader, the barrier's rules. */
#include "cue.h"
#include "test.h"
#include "util.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define BOOT "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"

static const char *why;

static int
mark(const char *s, struct cue_mark *m)
{
	why = NULL;
	return cue_mark_parse(s, strlen(s), m, &why);
}

static int
go(const char *s, struct cue_go *g)
{
	why = NULL;
	return cue_go_parse(s, strlen(s), g, &why);
}

static void
test_mark(void)
{
	struct cue_mark m = { CUE_PROFILING, BOOT, 123456789, 1700000000000000000 }, b;
	char line[CUE_LINE_MAX];
	size_t n = cue_mark_format(&m, line);

	TEST_STR("mark: formatted", line,
		 "profiling " BOOT " 123456789 1700000000000000000\n");
	TEST("mark: its length", n == strlen(line));
	line[n - 1] = '\0';
	TEST("mark: parsed back", !mark(line, &b) && b.phase == CUE_PROFILING &&
	     !strcmp(b.boot, BOOT) && b.mono_ns == m.mono_ns && b.wall_ns == m.wall_ns);
	TEST("mark: warmup", !mark("warmup - 0 9223372036854775807", &b) &&
	     b.phase == CUE_WARMUP && !strcmp(b.boot, "-") && b.wall_ns == INT64_MAX);
	m.phase = 7;
	TEST("mark: no line for a bad phase", !cue_mark_format(&m, line) && !line[0]);
	m.phase = CUE_WARMUP;
	m.mono_ns = -1;
	TEST("mark: no line for a negative time", !cue_mark_format(&m, line));
	m.mono_ns = 1;
	snprintf(m.boot, sizeof(m.boot), "%s", "a b");
	TEST("mark: no line for a boot id with a space", !cue_mark_format(&m, line));
}

static void
test_mark_hostile(void)
{
	struct cue_mark m;
	char big[400];

	TEST("mark: empty", mark("", &m) < 0 && why);
	TEST("mark: 3 words", mark("warmup x 1", &m) < 0 && !strcmp(why, "not 4 words"));
	TEST("mark: 5 words", mark("warmup x 1 2 3", &m) < 0 && !strcmp(why, "not 4 words"));
	TEST("mark: two spaces", mark("warmup  x 1 2", &m) < 0);
	TEST("mark: a trailing space", mark("warmup x 1 2 ", &m) < 0);
	TEST("mark: a leading space", mark(" warmup x 1 2", &m) < 0);
	TEST("mark: a tab is no separator", mark("warmup\tx 1 2", &m) < 0);
	TEST("mark: another phase", mark("cooldown x 1 2", &m) < 0 &&
	     strstr(why, "not a phase"));
	TEST("mark: a phase's prefix", mark("warm x 1 2", &m) < 0);
	TEST("mark: a sign", mark("warmup x -1 2", &m) < 0 && !strcmp(why, "not a number"));
	TEST("mark: a plus", mark("warmup x +1 2", &m) < 0);
	TEST("mark: hex", mark("warmup x 0x10 2", &m) < 0);
	TEST("mark: 2^63 overflows", mark("warmup x 9223372036854775808 2", &m) < 0 &&
	     !strcmp(why, "a number out of range"));
	TEST("mark: 20 digits", mark("warmup x 1 00000000000000000001", &m) < 0);
	TEST("mark: a leading zero", mark("warmup x 01 2", &m) < 0 && strstr(why, "leading zero"));
	TEST("mark: 0 itself", !mark("warmup x 0 0", &m) && !m.mono_ns);
	TEST("mark: a boot id too long",
	     mark("warmup 0123456789012345678901234567890123456789 1 2", &m) < 0 &&
	     !strcmp(why, "not a boot id"));
	TEST("mark: a control byte in the boot id", mark("warmup a\001b 1 2", &m) < 0);
	TEST("mark: a byte past ASCII", mark("warmup a\xc3\xa9 1 2", &m) < 0);
	TEST("mark: a NUL", cue_mark_parse("warmup x\0 1 2", 14, &m, &why) < 0 &&
	     !strcmp(why, "holds a NUL byte"));
	memset(big, '1', sizeof(big));
	memcpy(big, "warmup x 1 ", 11);
	TEST("mark: too long", cue_mark_parse(big, sizeof(big), &m, &why) < 0 &&
	     !strcmp(why, "too long"));
}

static void
test_go(void)
{
	struct cue_go g = { 1700000000000000000, BOOT, 42 }, b;
	char line[CUE_LINE_MAX];
	size_t n = cue_go_format(&g, line);

	TEST_STR("go: formatted", line, "go 1700000000000000000 " BOOT " 42\n");
	line[n - 1] = '\0';
	TEST("go: parsed back", !go(line, &b) && b.wall_ns == g.wall_ns &&
	     !strcmp(b.boot, BOOT) && b.mono_ns == 42);
	g.boot[0] = '\0';
	cue_go_format(&g, line);
	TEST_STR("go: wall only", line, "go 1700000000000000000\n");
	TEST("go: wall only parsed", !go("go 5", &b) && b.wall_ns == 5 && !b.boot[0] &&
	     !b.mono_ns);
	TEST("go: 3 words", go("go 5 " BOOT, &b) < 0);
	TEST("go: 5 words", go("go 5 x 1 2", &b) < 0);
	TEST("go: not go", go("Go 5", &b) < 0 && go("gone 5", &b) < 0);
	TEST("go: a time of 0", go("go 0", &b) < 0 && !strcmp(why, "a time of 0"));
	TEST("go: mono 0", go("go 5 x 0", &b) < 0);
	TEST("go: overflow", go("go 99999999999999999999", &b) < 0);
	TEST("go: negative", go("go -5", &b) < 0);
	TEST("go: words only", go("go", &b) < 0 && go("go ", &b) < 0);
	g.wall_ns = 0;
	TEST("go: no line for wall 0", !cue_go_format(&g, line));
}

static void
test_go_start(void)
{
	struct cue_go g = { 2000, BOOT, 77 };

	TEST("start: our boot: its monotonic time", cue_go_start(&g, BOOT, 100, 1000) == 77);
	TEST("start: another boot: through the wall clock",
	     cue_go_start(&g, "other", 100, 1000) == 1100);
	snprintf(g.boot, sizeof(g.boot), "%s", "-");
	TEST("start: boot '-' is no kernel's", cue_go_start(&g, "-", 100, 1000) == 1100);
	g.boot[0] = '\0';
	TEST("start: no monotonic part", cue_go_start(&g, BOOT, 100, 1000) == 1100);
	g.wall_ns = INT64_MAX;
	TEST("start: overflow", cue_go_start(&g, BOOT, INT64_MAX, 1) == -1);
}

/* Every line the reader gives for input s pushed in chunks of k bytes,
 * joined by '|' ("!" for a line too long). */
static void
lines_of(const char *s, size_t k, char *out, size_t outlen)
{
	struct cue_reader r;
	size_t n = strlen(s), at = 0, len;
	const char *line;
	int got;

	cue_reader_init(&r);
	out[0] = '\0';
	while (at < n) {
		at += cue_reader_push(&r, s + at, n - at < k ? n - at : k);
		while ((got = cue_reader_next(&r, &line, &len)))
			snprintf(out + strlen(out), outlen - strlen(out), "%s|",
				 got < 0 ? "!" : line);
	}
}

static void
test_reader(void)
{
	char big[1201], out[1400];

	lines_of("a\nbb\n\nccc", 1, out, sizeof(out));
	TEST_STR("reader: bytewise", out, "a|bb||");
	lines_of("a\nbb\n\nccc\n", 100, out, sizeof(out));
	TEST_STR("reader: one push", out, "a|bb||ccc|");
	memset(big, 'x', sizeof(big) - 1);
	memcpy(big, "go 1\n", 5);
	memcpy(big + sizeof(big) - 7, "\ngo 2\n", 7);
	for (size_t k = 1; k < 600; k += 97) {
		lines_of(big, k, out, sizeof(out));
		TEST_STR("reader: a long line reported once, then skipped", out, "go 1|!|go 2|");
	}
	memset(big, 'x', CUE_LINE_MAX - 1);
	memcpy(big + CUE_LINE_MAX - 1, "\nok\n", 5);
	lines_of(big, 300, out, sizeof(out));
	TEST("reader: a line of CUE_LINE_MAX bytes with its newline fits",
	     strlen(out) == CUE_LINE_MAX + 3 && !strcmp(out + CUE_LINE_MAX, "ok|"));
	memset(big, 'x', CUE_LINE_MAX);
	memcpy(big + CUE_LINE_MAX, "\nok\n", 5);
	lines_of(big, 300, out, sizeof(out));
	TEST_STR("reader: one byte more does not", out, "!|ok|");
}

/* The barrier's line from m, fed in; its return. */
static int
feed(struct cue_barrier *b, int ph, const char *boot, int64_t mono, int64_t wall,
     char *w)
{
	struct cue_mark m = { .phase = ph, .mono_ns = mono, .wall_ns = wall };
	char line[CUE_LINE_MAX];
	size_t n;

	snprintf(m.boot, sizeof(m.boot), "%s", boot);
	n = cue_mark_format(&m, line);
	return cue_barrier_line(b, line, n - 1, w, 128);
}

static void
test_barrier(void)
{
	struct cue_barrier b;
	struct cue_go g;
	char w[128];

	cue_barrier_init(&b, 2, 5000000, 0);
	TEST("barrier: no go before every sender", cue_barrier_go(&b, 1, &g) < 0);
	TEST("barrier: first sender", feed(&b, CUE_WARMUP, BOOT, 100, 1000, w) == 0 && !w[0]);
	TEST("barrier: second completes", feed(&b, CUE_WARMUP, BOOT, 300, 1100, w) == 1);
	TEST("barrier: a line before the go is ignored",
	     feed(&b, CUE_PROFILING, BOOT, 1, 1, w) < 0 && w[0]);
	TEST("barrier: the go", !cue_barrier_go(&b, 10000000, &g));
	TEST("barrier: now + margin", g.wall_ns == 15000000 && !b.start_past);
	TEST("barrier: the first line's offset", !strcmp(g.boot, BOOT) &&
	     g.mono_ns == 15000000 - 900);
	TEST("barrier: then profiling", b.phase == CUE_PROFILING && b.got == 0);
	feed(&b, CUE_PROFILING, BOOT, 100, 1000, w);
	feed(&b, CUE_PROFILING, "another-boot", 100, 1000, w);
	cue_barrier_go(&b, 20000000, &g);
	TEST("barrier: boot ids differ: no monotonic part", !g.boot[0] && !g.mono_ns &&
	     g.wall_ns == 25000000);
	TEST("barrier: done", b.phase == CUE_DONE);
	TEST("barrier: a line after both phases is ignored",
	     feed(&b, CUE_WARMUP, BOOT, 1, 1, w) < 0 && strstr(w, "last phase"));
}

static void
test_barrier_hostile(void)
{
	struct cue_barrier b;
	struct cue_go g;
	char w[128];

	cue_barrier_init(&b, 3, 0, 0);
	feed(&b, CUE_WARMUP, BOOT, 100, 1000, w);
	TEST("barrier: a malformed line counts, refused",
	     cue_barrier_line(&b, "warmup " BOOT " 1e9 5", 49, w, sizeof(w)) == 0 &&
	     strstr(w, "refused") && strstr(w, "not a number"));
	TEST("barrier: a too long line counts", cue_barrier_line(&b, NULL, 0, w, sizeof(w)) == 1 &&
	     strstr(w, "too long"));
	cue_barrier_go(&b, 50, &g);
	TEST("barrier: ... and takes the monotonic part away", !g.boot[0] && g.wall_ns == 50);
	feed(&b, CUE_WARMUP, BOOT, 1, 1, w);
	TEST_STR("barrier: a line of the wrong phase: a warning", w,
		 "'warmup' while waiting for profiling");
	TEST("barrier: control bytes are not shown",
	     cue_barrier_line(&b, "\033[2J\001", 5, w, sizeof(w)) == 0 && strstr(w, "'?[2J?'"));
	feed(&b, CUE_PROFILING, "-", 1, 1, w);
	cue_barrier_go(&b, 40, &g);
	TEST("barrier: never before the previous phase", g.wall_ns == 50);
	cue_barrier_init(&b, 1, 0, 0);
	feed(&b, CUE_WARMUP, "-", 1, 1, w);
	cue_barrier_go(&b, 50, &g);
	TEST("barrier: boot '-': no monotonic part", !g.boot[0]);
	cue_barrier_init(&b, 1, INT64_MAX, 0);
	TEST("barrier: the margin clamped to 1 h", b.margin_ns == 3600000000000LL);
	feed(&b, CUE_WARMUP, BOOT, INT64_MAX, 0, w);
	cue_barrier_go(&b, INT64_MAX - 5, &g);
	TEST("barrier: overflow: the latest time, no monotonic part",
	     g.wall_ns == INT64_MAX && !g.boot[0]);
}

static void
test_barrier_start(void)
{
	struct cue_barrier b;
	struct cue_go g;
	char w[128];

	cue_barrier_init(&b, 1, 1000, 900000);
	feed(&b, CUE_WARMUP, BOOT, 5, 0, w);
	cue_barrier_go(&b, 1000, &g);
	TEST("start_ns: later: the first phase then", g.wall_ns == 900000 && !b.start_past &&
	     g.mono_ns == 900005);
	feed(&b, CUE_PROFILING, BOOT, 5, 0, w);
	cue_barrier_go(&b, 2000, &g);
	TEST("start_ns: the second phase never before it", g.wall_ns == 900000 &&
	     !b.start_past);
	cue_barrier_init(&b, 1, 1000, 900000);
	feed(&b, CUE_WARMUP, BOOT, 5, 0, w);
	cue_barrier_go(&b, 2000000, &g);
	TEST("start_ns: past: now + margin, a warning", g.wall_ns == 2001000 && b.start_past);
	feed(&b, CUE_PROFILING, BOOT, 5, 0, w);
	cue_barrier_go(&b, 3000000, &g);
	TEST("start_ns: only the first phase's", !b.start_past && g.wall_ns == 3001000);
}

static void
test_fifo(void)
{
	char dir[] = "/tmp/test-cue.XXXXXX", path[64], b[64];
	int fd;
	long n;

	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/f", dir);
	mkfifo(path, 0600);
	errno = 0;
	TEST("send: nobody reads: ENXIO", cue_send(path, CUE_SCRAPE, 4, 1) < 0 &&
	     errno == ENXIO);
	fd = cue_fifo_open(path);
	TEST("fifo: opened read-write", fd >= 0);
	TEST("send: three acks", cue_send(path, CUE_ACK, 4, 3) == 3);
	TEST("acks: counted", cue_acks_wait(fd, 3, 0) == 3);
	TEST("acks: none more, the deadline passed", cue_acks_wait(fd, 1, 0) == 0);
	TEST("send: a line too long refused", cue_send(path, b, CUE_LINE_MAX + 1, 1) < 0);
	n = read(fd, b, sizeof(b));
	TEST("fifo: never EOF, nothing left", n < 0 && errno == EAGAIN);
	close(fd);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	char id[CUE_BOOT_MAX + 1];

	test_mark();
	test_mark_hostile();
	test_go();
	test_go_start();
	test_reader();
	test_barrier();
	test_barrier_hostile();
	test_barrier_start();
	test_fifo();
	cue_boot_id(id);
	TEST("boot id: one, or '-'", id[0] && strlen(id) <= CUE_BOOT_MAX);
	TEST_STR("phase names", cue_phase_name(CUE_PROFILING), "profiling");
	TEST_STR("phase names: unknown", cue_phase_name(0), "?");
	return TEST_DONE();
}
