/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/httpreq: request heads, keep-alive rules, chunked bodies, hostile input. */
#include <stdio.h>
#include <string.h>

#include "http/httpreq.h"
#include "test.h"

static int
parse(struct httpreq *r, const char *s)
{
	return httpreq_parse_head(r, s, strlen(s), 4096);
}

static int
dechunk(const char *s, struct buf *out, size_t *used)
{
	buf_reset(out);
	return httpreq_dechunk(s, strlen(s), out, used);
}

static void
test_heads(void)
{
	struct httpreq r;
	const char *get = "GET /v1/models?x=1 HTTP/1.1\r\nHost: a\r\n\r\nNEXT";

	TEST("simple GET complete", parse(&r, get) == 1);
	TEST("method", httpreq_is(r.method, r.method_len, "get"));
	TEST("path stops at query", r.path_len == 10 && !memcmp(r.target, "/v1/models", 10));
	TEST("target keeps query", r.target_len == 14);
	TEST("head_len excludes what follows", r.head_len == strlen(get) - 4);
	TEST("1.1 keeps alive", r.flags & HTTPREQ_KEEPALIVE);
	TEST("no length", r.content_length == -1);
	TEST("partial head needs more", parse(&r, "GET / HTTP/1.1\r\nHost: a\r\n") == 0);
	TEST("empty needs more", parse(&r, "") == 0);
	TEST("bare LF lines accepted",
	     parse(&r, "POST /x HTTP/1.1\nContent-Length: 3\n\nabc") == 1 &&
	     r.content_length == 3 && r.head_len == 36);
	TEST("leading CRLF skipped", parse(&r, "\r\nGET / HTTP/1.1\r\n\r\n") == 1);
	TEST("1.0 closes", parse(&r, "GET / HTTP/1.0\r\n\r\n") == 1 &&
	     !(r.flags & HTTPREQ_KEEPALIVE) && r.minor == 0);
	TEST("1.0 keep-alive",
	     parse(&r, "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") == 1 &&
	     (r.flags & HTTPREQ_KEEPALIVE));
	TEST("connection close in a list",
	     parse(&r, "GET / HTTP/1.1\r\nConnection: foo, close \r\n\r\n") == 1 &&
	     !(r.flags & HTTPREQ_KEEPALIVE));
	TEST("chunked", parse(&r, "POST / HTTP/1.1\r\ntransfer-encoding: Chunked\r\n\r\n") == 1 &&
	     (r.flags & HTTPREQ_CHUNKED));
	TEST("expect", parse(&r, "POST / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n") == 1 &&
	     (r.flags & HTTPREQ_EXPECT));
	TEST("same length twice is fine",
	     parse(&r, "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n") == 1);
}

static void
test_hostile(void)
{
	struct httpreq r;
	char big[5000];

	TEST("no version", parse(&r, "GET /\r\n\r\n") == -1 && r.status == 400);
	TEST("HTTP/2.0 is 505", parse(&r, "GET / HTTP/2.0\r\n\r\n") == -1 && r.status == 505);
	TEST("lowercase http", parse(&r, "GET / http/1.1\r\n\r\n") == -1);
	TEST("double space", parse(&r, "GET  / HTTP/1.1\r\n\r\n") == -1);
	TEST("space before colon", parse(&r, "GET / HTTP/1.1\r\nHost : a\r\n\r\n") == -1);
	TEST("obs-fold rejected", parse(&r, "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n") == -1);
	TEST("control char in value", parse(&r, "GET / HTTP/1.1\r\nA: b\x01\r\n\r\n") == -1);
	TEST("conflicting lengths",
	     parse(&r, "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n") == -1);
	TEST("signed length", parse(&r, "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == -1);
	TEST("huge length", parse(&r, "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n") == -1);
	TEST("length and chunked",
	     parse(&r, "POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n") == -1);
	TEST("gzip coding is 501",
	     parse(&r, "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == -1 && r.status == 501);
	TEST("unknown expectation is 417",
	     parse(&r, "POST / HTTP/1.1\r\nExpect: x\r\n\r\n") == -1 && r.status == 417);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "GET /", 5);
	TEST("endless head is 431", parse(&r, big) == -1 && r.status == 431);
	TEST("NUL in method", httpreq_parse_head(&r, "G\0T / HTTP/1.1\r\n\r\n", 18, 4096) == -1);
}

static void
test_chunked(void)
{
	struct buf out = BUF_INIT(16);
	size_t used = 0;

	TEST("two chunks", dechunk("3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\nX", &out, &used) == 1 &&
	     out.len == 5 && !memcmp(out.s, "abcde", 5) && used == 26);
	TEST("trailers skipped", dechunk("1\r\na\r\n0\r\nT: v\r\n\r\n", &out, &used) == 1 &&
	     out.len == 1 && used == 17);
	TEST("bare LF", dechunk("1\na\n0\n\n", &out, &used) == 1 && out.len == 1);
	TEST("hex upper", dechunk("A\r\n0123456789\r\n0\r\n\r\n", &out, &used) == 1 && out.len == 10);
	TEST("needs more: size line", dechunk("3", &out, &used) == 0 && out.len == 0);
	TEST("needs more: data", dechunk("3\r\nab", &out, &used) == 0 && out.len == 0);
	TEST("needs more: final", dechunk("1\r\na\r\n0\r\n", &out, &used) == 0 && out.len == 0);
	TEST("bad size", dechunk("x\r\n", &out, &used) == -1);
	TEST("missing CRLF after data", dechunk("1\r\nab\r\n", &out, &used) == -1);
	TEST("over the cap", dechunk("11\r\n01234567890123456\r\n0\r\n\r\n", &out, &used) == -1);
	TEST("huge size", dechunk("ffffffffffffffffff\r\n", &out, &used) == -1);
	buf_release(&out);
}

int
main(void)
{
	test_heads();
	test_hostile();
	test_chunked();
	return TEST_DONE();
}
