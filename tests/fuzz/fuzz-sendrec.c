/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-send's request record parser (xfer_parse): a parsed record's fields match the line. */
#include <stddef.h>
#include <stdint.h>

#include "json/jw.h"
#include "util.h"
#include "vjob.h"
#include "xfer.h"
#include "fuzztool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The string at key, or dflt when absent: what xfer_parse must have kept. */
static void
check_str(const struct json *r, const char *key, const char *dflt,
	  const char *got)
{
	size_t n;
	const char *s = json_str(json_get(r, key), &n);

	if (!s && !dflt)
		return;
	if (!got || (s ? strlen(got) != n || memcmp(got, s, n) :
		     strcmp(got, dflt)))
		abort();
}

static void
check_int(const struct json *r, const char *key, int64_t dflt, int64_t got)
{
	const struct json *v = json_get(r, key);
	int64_t want = dflt;

	if (v && v->type != JSON_NULL && json_int64(v, &want) < 0)
		abort();
	if (got != want || (got < 0 && got != dflt))
		abort();
}

/* The body is the payload, compact; a history mark sits inside its
 * messages array. A video_generation record keeps it beside its form,
 * which is multipart and ends with the closing boundary. */
static void
check_body(const struct xfer *x, const struct json *r)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	size_t blen = x->body_len;
	const char *body = x->vj ? vjob_json(x, &blen) : x->body;

	if (x->vj && (x->body_len < 6 || memcmp(x->body, "--", 2) ||
		      memcmp(x->body + x->body_len - 4, "--\r\n", 4)))
		abort();
	jw_init(&w, &b, 0);
	jw_value(&w, json_get(r, "payload"));
	if (b.len != blen || memcmp(b.s, body, b.len) || strlen(body) != blen)
		abort();
	buf_release(&b);
	if (x->hist_at != (size_t)-1 &&
	    (x->hist_at > x->body_len || !x->hist_at ||
	     x->body[x->hist_at - 1] != '[' || !x->own))
		abort();
}

static void
check(const struct xfer *x, const char *line, size_t n)
{
	struct json_doc *doc = json_doc_new();
	const struct json *r = json_parse(doc, line, n, NULL, 0);

	if (!r)
		abort();
	check_str(r, "id", NULL, x->id);
	check_str(r, "x_correlation_id", x->id, x->corr);
	check_str(r, "conversation_id", NULL, x->conv);
	check_str(r, "endpoint_type", "chat", x->etype);
	check_str(r, "phase", "profiling", x->phase);
	if (!x->path || x->warmup != !strcmp(x->phase, "warmup"))
		abort();
	check_int(r, "session_num", 0, x->session_num);
	check_int(r, "turn_index", 0, x->turn_index);
	check_int(r, "num_turns", 1, x->num_turns);
	check_int(r, "max_tokens", -1, x->max_tokens);
	check_int(r, "at_ns", -1, x->at_ns);
	check_int(r, "delay_ns", -1, x->delay_ns);
	check_int(r, "cancel_after_ns", -1, x->cancel_after_ns);
	check_body(x, r);
	json_doc_free(doc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct options o = { .max_response = 1 << 20 };
	static struct sender s = { .o = &o };
	const char *line = (const char *)data;
	char why[256] = "";
	struct xfer *x;

	if (!s.doc)
		s.doc = json_doc_new();
	if (!(x = xfer_parse(&s, line, size, why, sizeof(why)))) {
		if (!why[0])
			abort();	/* a rejection says why */
		return 0;
	}
	check(x, line, size);
	/* its raw record (media elided, issue #17) is one JSON object */
	{
		struct buf b = BUF_INIT(BUF_NOMAX);
		struct json_doc *d = json_doc_new();

		x->err = XE_NOTSENT;
		xfer_record(x, &b);
		if (!b.len || b.s[b.len - 1] != '\n' ||
		    !json_parse(d, b.s, b.len - 1, NULL, 0))
			abort();
		json_doc_free(d);
		buf_release(&b);
	}
	xfer_free(x);
	return 0;
}
