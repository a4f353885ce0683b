/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/buf and lib/lines: caps, consumption, bounded lines, zstd input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "lines.h"
#include "test.h"

/* ASan reports an allocation it cannot make instead of returning NULL
 * unless told: the buf_trygrow() tests need the NULL. */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/* buf_trygrow(), buf_tryadd(): a failure leaves the buffer as it was. */
static void
test_try(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX), c = BUF_INIT(4);

	TEST("tryadd", buf_tryadd(&b, "abc", 3) == 0 && b.len == 3);
	errno = 0;
	TEST("trygrow past memory is ENOMEM", buf_trygrow(&b, BUF_NOMAX - 8) == -1 &&
	     errno == ENOMEM);
	TEST_STR("trygrow failure keeps the contents", buf_str(&b), "abc");
	TEST("tryadd after a failure", buf_tryadd(&b, "d", 1) == 0 && b.len == 4 &&
	     !strcmp(b.s, "abcd"));
	TEST("trygrow past the cap is ENOBUFS", buf_tryadd(&c, "12345", 5) == -1 &&
	     errno == ENOBUFS && c.len == 0);
	TEST("grow past the cap is ENOBUFS", buf_grow(&c, 5) == -1 && errno == ENOBUFS);
	TEST("trygrow of nothing on an empty buffer", buf_trygrow(&c, 0) == 0 &&
	     !strcmp(buf_str(&c), ""));
	buf_release(&b);
	buf_release(&c);
}

static char *
tmpfile_with(const char *data, size_t n)
{
	static char path[] = "/tmp/aiperf-test-XXXXXX";
	char *p = xstrdup(path);
	int fd = mkstemp(p);

	if (write(fd, data, n) != (ssize_t)n)
		abort();
	close(fd);
	return p;
}

int
main(void)
{
	struct buf b = BUF_INIT(8);
	struct lines l;
	const char *s;
	size_t n;

	TEST("add within cap", buf_addstr(&b, "12345678") == 0 && b.len == 8);
	TEST("add past cap fails", buf_addch(&b, 'x') == -1 && b.len == 8);
	TEST_STR("contents intact", buf_str(&b), "12345678");
	buf_consume(&b, 3);
	TEST_STR("consume", buf_str(&b), "45678");
	TEST("addf", buf_addf(&b, "%d", 12) == 0 && b.len == 7);
	buf_release(&b);
	TEST_STR("empty buf string", buf_str(&b), "");
	test_try();

	char *p = tmpfile_with("a\r\nlong-line-here\n\nlast", 23);
	TEST("open", lines_open(&l, p, 8) == 0);
	TEST("line 1 keeps CR", lines_next(&l, &s, &n) == 1 && n == 2 && s[1] == '\r');
	TEST("long line is ENOBUFS", lines_next(&l, &s, &n) == -1 && errno == ENOBUFS && l.lineno == 2);
	TEST("empty line", lines_next(&l, &s, &n) == 1 && n == 0);
	TEST("last line without newline", lines_next(&l, &s, &n) == 1 && n == 4 && l.lineno == 4);
	TEST("eof", lines_next(&l, &s, &n) == 0);
	lines_close(&l);
	unlink(p);
	free(p);

	/* zstd frame of "x\ny\n" made with ZSTD_compress. */
	char src[] = "x\ny\n", z[64];
	size_t zn = ZSTD_compress(z, sizeof(z), src, 4, 1);
	p = tmpfile_with(z, zn);
	lines_open(&l, p, 1024);
	TEST("zstd line 1", lines_next(&l, &s, &n) == 1 && n == 1 && s[0] == 'x');
	TEST("zstd line 2", lines_next(&l, &s, &n) == 1 && s[0] == 'y');
	TEST("zstd eof", lines_next(&l, &s, &n) == 0);
	lines_close(&l);
	unlink(p);
	free(p);

	p = tmpfile_with(z, zn - 3);
	lines_open(&l, p, 1024);
	int r;
	while ((r = lines_next(&l, &s, &n)) == 1)
		;
	TEST("truncated zstd is EILSEQ", r == -1 && errno == EILSEQ);
	lines_close(&l);
	unlink(p);
	free(p);
	return TEST_DONE();
}
