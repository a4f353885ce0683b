/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/sse: delimiters, chunk splits, line rules, the continuation quirk, hostile input. */
#include "http/sse.h"
#include "test.h"

/* Each message is rendered as name=value|name|... lines into out. */
static int
collect(void *ctx, const struct sse_msg *m)
{
	struct buf *out = ctx;
	for (size_t i = 0; i < m->n; i++) {
		if (i)
			buf_addch(out, '|');
		buf_add(out, m->f[i].name, m->f[i].nlen);
		if (m->f[i].value) {
			buf_addch(out, '=');
			buf_add(out, m->f[i].value, m->f[i].vlen);
		}
	}
	buf_addch(out, '\n');
	return 0;
}

static struct buf got = BUF_INIT(1 << 20);

/* Parse input fed in pieces of `step` bytes (0 = whole). */
static const char *
run(const char *in, size_t step)
{
	struct sse s;
	size_t n = strlen(in);

	buf_reset(&got);
	sse_init(&s, 1 << 16, collect, &got);
	if (!step)
		step = n ? n : 1;
	for (size_t i = 0; i < n; i += step)
		sse_feed(&s, in + i, i + step > n ? n - i : step);
	sse_finish(&s);
	sse_release(&s);
	return buf_str(&got);
}

static int
split_invariant(const char *in)
{
	char *whole = xstrdup(run(in, 0));
	int ok = 1;
	for (size_t step = 1; step <= 5; step++)
		ok &= !strcmp(whole, run(in, step));
	free(whole);
	return ok;
}

static int
stop_cb(void *ctx, const struct sse_msg *m)
{
	(void)ctx;
	return sse_msg_is_error(m) ? -1 : 0;
}

static int
data_cb(void *ctx, const struct sse_msg *m)
{
	sse_msg_data(m, ctx);
	return 0;
}

/* data_cb that stops at an error message, as aiperf-send's does. */
static int
stop_data_cb(void *ctx, const struct sse_msg *m)
{
	return sse_msg_is_error(m) ? -1 : data_cb(ctx, m);
}

static const char *
joined(const char *in)
{
	struct sse s;
	buf_reset(&got);
	sse_init(&s, 1 << 16, data_cb, &got);
	sse_feed(&s, in, strlen(in));
	sse_finish(&s);
	sse_release(&s);
	return buf_str(&got);
}

int
main(void)
{
	TEST_STR("sse: one data message", run("data: {\"a\":1}\n\n", 0),
		 "data={\"a\":1}\n");
	TEST_STR("sse: two messages", run("data: a\n\ndata: b\n\n", 0),
		 "data=a\ndata=b\n");
	TEST_STR("sse: crlf delimiter", run("data: a\r\n\r\ndata: b\r\n\r\n", 0),
		 "data=a\ndata=b\n");
	TEST_STR("sse: trailing message at eof", run("data: a\n\ndata: [DONE]", 0),
		 "data=a\ndata=[DONE]\n");
	TEST_STR("sse: empty messages dropped", run("\n\n\n\n  \n\ndata: x\n\n", 0),
		 "data=x\n");
	TEST_STR("sse: whitespace trimmed around colon", run("data:\t x \t\n\n", 0),
		 "data=x\n");
	TEST_STR("sse: comment", run(": keep-alive\n\n", 0), "comment=keep-alive\n");
	TEST_STR("sse: no colon is a field without value", run("retry\n\n", 0),
		 "retry\n");
	TEST_STR("sse: value with colons", run("data: a:b:c\n\n", 0),
		 "data=a:b:c\n");
	TEST_STR("sse: event and data", run("event: error\ndata: x\n\n", 0),
		 "event=error|data=x\n");
	TEST_STR("sse: continuation quirk",
		 run("data: {\"a\":\n\"b\"}\n\n", 0), "data={\"a\":\\n\"b\"}\n");
	TEST_STR("sse: continuation stops at data:",
		 run("data: {\"a\":\ndata: 1}\n\n", 0), "data={\"a\":|data=1}\n");
	TEST_STR("sse: continuation stops once closed",
		 run("data: {\nx\n}\ny: 2\n\n", 0), "data={\\nx\\n}|y=2\n");
	TEST_STR("sse: continuation whole line glued",
		 run("data: {\nid: 5\n\n", 0), "data={\\nid: 5\n");
	TEST_STR("sse: invalid utf-8 replaced",
		 run("data: a\xff\xc3(b\n\n", 0), "data=a\xEF\xBF\xBD\xEF\xBF\xBD(b\n");
	TEST_STR("sse: truncated 3-byte seq is one U+FFFD",
		 run("data: \xe2\x82x\n\n", 0), "data=\xEF\xBF\xBDx\n");
	TEST_STR("sse: valid 4-byte utf-8 kept",
		 run("data: \xf0\x9f\x98\x80\n\n", 0), "data=\xf0\x9f\x98\x80\n");
	TEST_STR("sse: surrogate encoding rejected",
		 run("data: \xed\xa0\x80\n\n", 0),
		 "data=\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\n");
	TEST_STR("sse: mixed delimiters earliest wins",
		 run("data: a\r\n\r\ndata: b\n\n", 0), "data=a\ndata=b\n");
	TEST_STR("sse: bare cr line breaks", run("event: x\rdata: y\n\n", 0),
		 "event=x|data=y\n");
	TEST("sse: split invariant simple", split_invariant("data: a\n\ndata: b\n\n"));
	TEST("sse: split invariant crlf", split_invariant("data: a\r\n\r\ndata: b\r\n\r\n: c\r\n\r\n"));
	TEST("sse: split invariant utf-8", split_invariant("data: \xe2\x82\xac\xf0\x9f\x98\x80\n\ndata: \xff\n\n"));
	TEST("sse: split invariant mixed", split_invariant("a\r\n\r\nb\n\nc\r\n\nd\n\r\n\r\n"));
	TEST_STR("sse: data joined with newline", joined("data: a\ndata: b\n\n"), "a\nb");
	TEST_STR("sse: data of two messages", joined("data: a\n\ndata: b\n\n"), "ab");

	struct sse s;
	sse_init(&s, 8, collect, &got);
	TEST("sse: over cap is ENOBUFS", sse_feed(&s, "data: 123456789", 15) < 0 && errno == ENOBUFS);
	TEST("sse: usable after cap error", sse_feed(&s, "d: 1\n\n", 6) == 0);
	sse_release(&s);

	sse_init(&s, 1 << 10, stop_cb, NULL);
	TEST("sse: callback stops feed", sse_feed(&s, "data: a\n\nevent: ERROR\n: boom\n\ndata: c\n\n", 39) < 0);
	sse_release(&s);

	/* messages parsed in the fed bytes: what follows a stop is kept */
	buf_reset(&got);
	sse_init(&s, 1 << 10, stop_data_cb, &got);
	TEST("sse: the bytes after a stop are kept",
	     sse_feed(&s, "data: a\n\nevent: error\n\ndata: c\n\ndata: d", 39) < 0 &&
	     sse_feed(&s, "\n\n", 2) == 0 && !strcmp(buf_str(&got), "acd"));
	sse_release(&s);

	struct buf one = BUF_INIT(64);
	TEST("sse: utf8 cap", sse_utf8_append(&one, "\xff", 1, NULL) == 0 && one.len == 3);
	buf_release(&one);
	buf_release(&got);
	return TEST_DONE();
}
