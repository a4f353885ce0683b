/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/h1: framing, every split point, hostile responses. */
#include "http/h1.h"

#include <stdlib.h>
#include "test.h"

struct out {
	struct buf lines, body;
	int stop_body;
};

static int
on_line(void *ctx, const char *p, size_t n)
{
	struct out *o = ctx;
	buf_add(&o->lines, p, n);
	buf_addch(&o->lines, '|');
	return 0;
}

static int
on_body(void *ctx, const char *p, size_t n)
{
	struct out *o = ctx;
	if (o->stop_body)
		return -1;
	buf_add(&o->body, p, n);
	return 0;
}

/*
 * Parse s in pieces of `step` bytes after a first piece of `first` bytes;
 * the result as "rc status flags used lines body" (rc: 1 complete, 0 more
 * needed, -1 error with the reason in place of lines/body).
 */
static char *
run(const char *s, size_t n, size_t first, size_t step, int eof)
{
	struct h1 h;
	struct out o = { BUF_INIT(BUF_NOMAX), BUF_INIT(BUF_NOMAX), 0 };
	struct buf r = BUF_INIT(BUF_NOMAX);
	size_t off = 0;
	int rc = 0;

	h1_init(&h, 256, 1024, on_line, on_body, &o);
	while (off < n && !(h.flags & H1_DONE)) {
		size_t k = off == 0 && first ? first : step;
		if (k > n - off)
			k = n - off;
		long u = h1_feed(&h, s + off, k);
		if (u < 0) {
			rc = -1;
			break;
		}
		off += (size_t)u;
		if ((size_t)u < k)
			break;
	}
	if (rc == 0 && eof && !(h.flags & H1_DONE))
		rc = h1_eof(&h);
	if (rc == 0 && (h.flags & H1_DONE))
		rc = 1;
	if (rc < 0)
		buf_addf(&r, "-1 %s", h.err);
	else
		buf_addf(&r, "%d %d %x %zu %s%s", rc, h.status, h.flags, off,
			 buf_str(&o.lines), buf_str(&o.body));
	h1_release(&h);
	buf_release(&o.lines);
	buf_release(&o.body);
	return buf_detach(&r, NULL);
}

/* Every split point and byte-at-a-time give the same result as one feed. */
static int
splits_agree(const char *s, int eof)
{
	size_t n = strlen(s);
	char *whole = run(s, n, 0, n ? n : 1, eof);
	int ok = 1;

	for (size_t k = 1; k < n && ok; k++) {
		char *r = run(s, n, k, n, eof);
		ok = !strcmp(r, whole);
		if (!ok)
			printf("#   split %zu: '%s' vs '%s'\n", k, r, whole);
		free(r);
	}
	char *r = run(s, n, 0, 1, eof);
	ok = ok && !strcmp(r, whole);
	free(r);
	free(whole);
	return ok;
}

static void
check(const char *name, const char *in, int eof, const char *want)
{
	char *r = run(in, strlen(in), 0, strlen(in) ? strlen(in) : 1, eof);
	TEST_STR(name, r, want);
	free(r);
	TEST(name, splits_agree(in, eof));
}

static void
test_framing(void)
{
	check("content-length body",
	      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: a/b\r\n\r\nhello",
	      0, "1 200 19 62 HTTP/1.1 200 OK|Content-Length: 5|Content-Type: a/b||hello");
	check("chunked body with extension and trailer",
	      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	      "3;x=y\r\nabc\r\nA \r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n",
	      0, "1 200 1b 88 HTTP/1.1 200 OK|Transfer-Encoding: chunked||abc0123456789");
	check("until close, HTTP/1.0",
	      "HTTP/1.0 200 OK\r\n\r\nsome body", 1,
	      "1 200 1c 28 HTTP/1.0 200 OK||some body");
	check("HTTP/1.0 keep-alive with length",
	      "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", 0,
	      "1 200 19 62 HTTP/1.0 200 OK|Connection: keep-alive|Content-Length: 0||");
	check("Connection: close", "HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 1\r\n\r\nx",
	      0, "1 200 18 58 HTTP/1.1 200 OK|Connection: Close|Content-Length: 1||x");
	check("bare LF line ends and no reason",
	      "HTTP/1.1 204\nA: b\n\n", 0, "1 204 19 19 HTTP/1.1 204|A: b||");
	check("100 Continue skipped",
	      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
	      0, "1 200 19 65 HTTP/1.1 100 Continue||HTTP/1.1 200 OK|Content-Length: 2||ok");
	check("304 has no body", "HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n",
	      0, "1 304 19 48 HTTP/1.1 304 Not Modified|Content-Length: 9||");
	check("identical duplicate Content-Length",
	      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\ncontent-length: 1\r\n\r\nz", 0,
	      "1 200 19 58 HTTP/1.1 200 OK|Content-Length: 1|content-length: 1||z");
	check("chunked beats Content-Length, no reuse",
	      "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nq\r\n0\r\n\r\n",
	      0, "1 200 1a 78 HTTP/1.1 200 OK|Content-Length: 99|Transfer-Encoding: chunked||q");
}

/* A chunk-size line longer than a head line may be, in one feed or many:
 * the same verdict (it used to be cut at the head cap when split). */
static void
test_long_chunk_line(void)
{
	static const char head[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
	char in[2048];
	size_t n = strlen(head);

	memcpy(in, head, n);
	memcpy(in + n, "1;", 2);
	memset(in + n + 2, 'e', 1000);
	snprintf(in + n + 1002, sizeof(in) - n - 1002, "\r\nx\r\n0\r\n\r\n");
	char *r = run(in, strlen(in), 0, strlen(in), 0);
	TEST("a 1000-byte chunk extension is read", strstr(r, "||x") != NULL);
	free(r);
	TEST("a 1000-byte chunk extension: every split agrees", splits_agree(in, 0));
	in[n + 900] = '\x05';	/* a control byte past the head line cap */
	r = run(in, strlen(in), 0, strlen(in), 0);
	TEST("a control byte late in a long chunk line is refused", strstr(r, "malformed chunk size") != NULL);
	free(r);
	TEST("... whatever the split", splits_agree(in, 0));
}

static void
test_hostile(void)
{
	check("malformed status line", "HTTP/1.1 2x0 OK\r\n\r\n", 0, "-1 malformed status line");
	check("HTTP/2 status line", "HTTP/2 200\r\n\r\n", 0, "-1 malformed status line");
	check("junk instead of a response", "hello world\r\n\r\n", 0, "-1 malformed status line");
	check("obs-fold", "HTTP/1.1 200 OK\r\nA: b\r\n c\r\n\r\n", 0, "-1 obsolete line folding");
	check("header without colon", "HTTP/1.1 200 OK\r\nAb\r\n\r\n", 0, "-1 malformed header line");
	check("space before colon", "HTTP/1.1 200 OK\r\nA : b\r\n\r\n", 0, "-1 malformed header line");
	check("bare CR in a header", "HTTP/1.1 200 OK\r\nA: b\rc\r\n\r\n", 0,
	      "-1 malformed header line");
	check("differing Content-Length",
	      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 0,
	      "-1 conflicting Content-Length");
	check("negative Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 0,
	      "-1 malformed Content-Length");
	check("empty Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n", 0,
	      "-1 malformed Content-Length");
	check("Content-Length overflow",
	      "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", 0,
	      "-1 Content-Length too large");
	check("unsupported transfer coding",
	      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 0,
	      "-1 unsupported transfer coding");
	check("bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 0,
	      "-1 malformed chunk size");
	check("negative chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", 0,
	      "-1 malformed chunk size");
	check("chunk size overflow",
	      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1ffffffffffffffff\r\n", 0,
	      "-1 chunk size too large");
	check("chunk data without CRLF",
	      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n", 0,
	      "-1 missing CRLF after chunk data");
	check("101 is not followed", "HTTP/1.1 101 Switching Protocols\r\n\r\n", 0,
	      "-1 unexpected 101 Switching Protocols");
}

static void
test_nul(void)
{
	static const char in[] = "HTTP/1.1 200 OK\r\nA: b\0c\r\n\r\n";
	char *r = run(in, sizeof(in) - 1, 0, sizeof(in) - 1, 0);
	TEST_STR("NUL in a header", r, "-1 malformed header line");
	free(r);
}

static void
test_caps_and_eof(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	buf_addstr(&b, "HTTP/1.1 200 OK\r\nX: ");
	for (int i = 0; i < 300; i++)
		buf_addch(&b, 'a');
	buf_addstr(&b, "\r\n\r\n");
	check("header line over the cap", b.s, 0, "-1 line too long");
	buf_reset(&b);
	buf_addstr(&b, "HTTP/1.1 200 OK\r\n");
	for (int i = 0; i < 100; i++)
		buf_addstr(&b, "X-Many: 12345678\r\n");
	check("head over the cap", b.s, 0, "-1 response head too large");
	buf_release(&b);
	check("empty reply", "", 1, "-1 empty reply from server");
	check("truncated head", "HTTP/1.1 200 OK\r\nContent-Le", 1,
	      "-1 connection closed in the response head");
	check("truncated body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 1,
	      "-1 transfer closed with bytes remaining to read");
	check("truncated chunks", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", 1,
	      "-1 transfer closed with outstanding read data remaining");
	check("truncated without eof asks for more", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
	      0, "0 200 9 42 HTTP/1.1 200 OK|Content-Length: 10||abc");
}

static void
test_pipelined_and_reset(void)
{
	const char *two = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 201 C\r\nContent-Length: 1\r\n\r\nb";
	struct out o = { BUF_INIT(BUF_NOMAX), BUF_INIT(BUF_NOMAX), 0 };
	struct h1 h;

	h1_init(&h, 256, 1024, on_line, on_body, &o);
	long u = h1_feed(&h, two, strlen(two));
	TEST("first response stops at its end", u == 39 && (h.flags & H1_DONE));
	TEST("feeding a done parser uses nothing", h1_feed(&h, two + u, 5) == 0);
	h1_reset(&h);
	TEST("not started after reset", !h1_started(&h));
	long v = h1_feed(&h, two + u, strlen(two) - (size_t)u);
	TEST("second response after reset", v == (long)(strlen(two) - (size_t)u) &&
	     h.status == 201 && (h.flags & H1_DONE));
	TEST_STR("bodies in order", buf_str(&o.body), "ab");
	h1_reset(&h);
	o.stop_body = 1;
	TEST("body callback stops the parser", h1_feed(&h, two, strlen(two)) == -1 &&
	     (h.flags & H1_ABORTED));
	TEST("stays failed", h1_feed(&h, "x", 1) == -1);
	h1_release(&h);
	buf_release(&o.lines);
	buf_release(&o.body);
}

int
main(void)
{
	test_long_chunk_line();
	test_framing();
	test_hostile();
	test_nul();
	test_caps_and_eof();
	test_pipelined_and_reset();
	return TEST_DONE();
}
