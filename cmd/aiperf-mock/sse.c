/* SPDX-License-Identifier: Apache-2.0 */
/* Timed release: SSE chunks written on schedule, and fixed bodies sent when due. */
#include "mock.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

#define ADD(b, lit) buf_add((b), (lit), sizeof(lit) - 1)
#define W(s) { s, sizeof(s) - 1 }

/* Common English words that are one token each in GPT and Llama style
 * vocabularies, so a real tokenizer counts about one token per chunk. */
static const struct {
	const char *s;
	size_t n;
} words[] = {
	W(" the"), W(" of"), W(" and"), W(" to"), W(" in"), W(" is"),
	W(" that"), W(" for"), W(" it"), W(" as"), W(" was"), W(" with"),
	W(" be"), W(" by"), W(" on"), W(" not"), W(" he"), W(" this"),
	W(" are"), W(" or"), W(" his"), W(" from"), W(" at"), W(" which"),
	W(" but"), W(" have"), W(" an"), W(" had"), W(" they"), W(" you"),
	W(" were"), W(" their"), W(" one"), W(" all"), W(" we"), W(" can"),
	W(" her"), W(" has"), W(" there"), W(" been"), W(" if"), W(" more"),
	W(" when"), W(" will"), W(" would"), W(" who"), W(" so"), W(" no"),
	W(" she"), W(" other"), W(" its"), W(" may"), W(" these"), W(" what"),
	W(" them"), W(" than"), W(" some"), W(" him"), W(" time"), W(" into"),
	W(" only"), W(" do"), W(" first"), W(" any"), W(" my"), W(" new"),
	W(" now"), W(" such"), W(" like"), W(" our"), W(" over"), W(" man"),
	W(" me"), W(" even"), W(" most"), W(" made"), W(" after"), W(" also"),
	W(" did"), W(" many"), W(" before"), W(" must"), W(" through"),
	W(" years"), W(" where"), W(" much"), W(" your"), W(" way"), W(" well"),
	W(" down"), W(" should"), W(" because"), W(" each"), W(" just"),
	W(" those"), W(" people"), W(" how"), W(" too"), W(" little"),
	W(" state"), W(" good"), W(" very"), W(" make"), W(" world"),
	W(" still"), W(" own"), W(" see"), W(" men"), W(" work"), W(" long"),
	W(" get"), W(" here"), W(" between"), W(" both"), W(" life"),
	W(" being"), W(" under"), W(" never"), W(" day"), W(" same"),
	W(" another"), W(" know"), W(" while"), W(" last"), W(" might"),
	W(" us"), W(" great"), W(" old"), W(" year"),
};

#define NWORDS (sizeof(words) / sizeof(words[0]))

const char *
gen_word(unsigned i, size_t *len)
{
	*len = words[i % NWORDS].n;
	return words[i % NWORDS].s;
}

size_t
fmt_i64(char *p, int64_t v)
{
	char tmp[24];
	size_t n = 0, i;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	i = 0;
	if (v < 0)
		p[i++] = '-';
	while (n)
		p[i++] = tmp[--n];
	return i;
}

static enum fault
fault_of(const struct conn *c)
{
	return (c->flags & CONN_FAULT) ? c->srv->opt->fault : FAULT_NONE;
}

/* --fault big-body and bad-utf8: what the first token's text gets. */
void
gen_fault_text(struct buf *b, const struct resp *r, enum fault f)
{
	if (f == FAULT_BAD_UTF8)
		ADD(b, " \xc3\x28\xff\xfe");	/* a bad sequence, then bytes never valid */
	if (f != FAULT_BIG_BODY)
		return;
	buf_grow(b, r->big + 1);
	memset(b->s + b->len, 'x', r->big);
	b->len += r->big;
	b->s[b->len] = '\0';
}

static void
add_stamp(struct buf *b, int64_t stamp)
{
	char num[24];

	ADD(b, "\"aiperf_send_ns\":");
	buf_add(b, num, fmt_i64(num, stamp));
	ADD(b, "}\n\n");
}

static void
add_token(struct buf *b, const struct resp *r, long i, int64_t stamp,
	  enum fault f)
{
	size_t wl;
	const char *w = resp_token(r, i, &wl);
	int last = i + 1 == r->n_reason + r->n_content;

	if (r->fmt != FMT_OPENAI) {
		fmt_token(b, r, i, stamp, f);
		return;
	}
	buf_add(b, r->head, r->head_len);
	if (r->chat) {
		ADD(b, "{\"index\":0,\"delta\":{");
		if (i == 0)
			ADD(b, "\"role\":\"assistant\",");
		if (i < r->n_reason)
			ADD(b, "\"reasoning_content\":\"");
		else
			ADD(b, "\"content\":\"");
		buf_add(b, w, wl);
		if (i == 0)
			gen_fault_text(b, r, f);
		ADD(b, "\"},\"finish_reason\":");
	} else {
		ADD(b, "{\"index\":0,\"text\":\"");
		buf_add(b, w, wl);
		if (i == 0)
			gen_fault_text(b, r, f);
		ADD(b, "\",\"logprobs\":null,\"finish_reason\":");
	}
	if (last) {
		buf_addch(b, '"');
		buf_addstr(b, r->finish);
		buf_addch(b, '"');
	} else {
		ADD(b, "null");
	}
	ADD(b, "}],");
	add_stamp(b, stamp);
}

static void
add_tail(struct buf *b, const struct server *s, const struct resp *r, int64_t stamp)
{
	long total = r->n_reason + r->n_content;

	if (r->fmt != FMT_OPENAI) {
		fmt_tail(b, s, r, stamp);
		return;
	}
	if (r->include_usage) {
		buf_add(b, r->head, r->head_len);
		ADD(b, "],");
		gen_usage(b, r->prompt_tokens, total, r->n_reason, r->chat);
		buf_addch(b, ',');
		add_stamp(b, stamp);
	}
	ADD(b, "data: [DONE]\n\n");
}

/* Frame scratch[10..] as one HTTP chunk (the size goes in the first 10
 * bytes, zero-padded, which RFC 9112 allows) and send it. */
static void
send_chunk(struct conn *c, struct buf *b, int last)
{
	char hex[16];
	size_t n = b->len - 10;

	if (c->flags & CONN_HTTP10) {
		conn_send(c, b->s + 10, n);	/* no framing: the body ends at close */
		return;
	}
	snprintf(hex, sizeof(hex), "%08zx", n);
	if (fault_of(c) == FAULT_BAD_CHUNK)
		memcpy(hex, "nothex!!", 8);
	memcpy(b->s, hex, 8);
	ADD(b, "\r\n");
	if (last)
		ADD(b, "0\r\n\r\n");
	conn_send(c, b->s, b->len);
}

static void
next_due(struct resp *r, int64_t itl, int64_t jitter)
{
	int64_t due = r->base + r->next * itl + gen_jitter(&r->rng, jitter);

	if (due > r->due)
		r->due = due;
}

static void
note_lag(struct counters *k, int64_t lag)
{
	k->chunks++;
	if (lag > k->max_lag_ns)
		k->max_lag_ns = lag;
	if (lag > 1000000)
		k->late_chunks++;
}

/* The stream stops after --fail-after chunks, as --fault says. */
static void
cut_short(struct conn *c)
{
	switch (fault_of(c)) {
	case FAULT_RESET: conn_reset(c); break;
	case FAULT_STALL_BODY: break;	/* nothing more, ever */
	case FAULT_SSE_ERROR: http_done(c); break;	/* the stream ended well */
	default: conn_close(c); break;
	}
}

/* Write every token that is due, then the tail after the last one. */
static void
emit(struct conn *c, int64_t now)
{
	struct server *s = c->srv;
	struct resp *r = c->r;
	struct buf *b = &s->scratch;
	long total = r->n_reason + r->n_content;
	int64_t stamp = clock_mono_ns();
	int cut = 0;

	buf_reset(b);
	ADD(b, "00000000\r\n");
	if (!r->started) {
		fmt_sse_start(b, s, r);
		r->started = 1;
	}
	while (r->next < total && r->due <= now && !cut) {
		add_token(b, r, r->next, stamp, fault_of(c));
		note_lag(&s->c, stamp - r->due);
		r->next++;
		cut = r->fail_after >= 0 && r->next >= r->fail_after &&
		      r->next < total;
		next_due(r, r->itl, s->opt->jitter_ns);
	}
	if (!r->first_ns && r->next > 0)
		r->first_ns = stamp;
	if (cut && fault_of(c) == FAULT_SSE_ERROR)
		ADD(b, "event: error\ndata: {\"error\":{\"message\":\"mock fault: sse-error\","
		    "\"type\":\"server_error\",\"code\":500}}\n\n");
	if (r->next == total)
		add_tail(b, s, r, stamp);
	send_chunk(c, b, r->next == total || (cut && fault_of(c) == FAULT_SSE_ERROR));
	if (c->flags & CONN_DEAD)
		return;
	if (cut)
		cut_short(c);
	else if (r->next == total)
		http_done(c);
	else
		conn_arm(c, r->due);
}

static void
send_headers(struct conn *c)
{
	struct server *s = c->srv;

	if (c->flags & CONN_HTTP10)
		c->flags |= CONN_CLOSE_AFTER;
	buf_reset(&s->scratch);
	http_head_on(c, &s->scratch, 200, "text/event-stream; charset=utf-8",
		     (c->flags & CONN_HTTP10) ? HTTP_TO_CLOSE : HTTP_CHUNKED);
	c->r->headers_sent = 1;
	s->c.responses[2]++;
	conn_send(c, s->scratch.s, s->scratch.len);	/* may close c */
}

static void
send_fixed(struct conn *c)
{
	struct server *s = c->srv;
	struct resp *r = c->r;
	char tail[48] = "}";
	size_t tl = 1;

	enum fault f = fault_of(c);
	int half = f == FAULT_RESET || f == FAULT_STALL_BODY;

	if (r->abort && !half) {
		conn_close(c);
		return;
	}
	r->first_ns = clock_mono_ns();
	if (r->whole) {
		tl = 0;
	} else if (r->stamp) {
		memcpy(tail, ",\"aiperf_send_ns\":", 18);
		tl = 18 + fmt_i64(tail + 18, clock_mono_ns());
		tail[tl++] = '}';
	}
	buf_reset(&s->scratch);
	http_head_on(c, &s->scratch, r->status, "application/json",
		     (long long)(r->body_len + tl));
	buf_add(&s->scratch, r->body, r->body_len);
	buf_add(&s->scratch, tail, tl);
	s->c.responses[r->status / 100 % 6]++;
	if (half) {	/* half the body, then a reset or nothing more */
		conn_send(c, s->scratch.s, s->scratch.len - (r->body_len + tl) / 2);
		if (!(c->flags & CONN_DEAD) && f == FAULT_RESET)
			conn_reset(c);
		return;
	}
	conn_send(c, s->scratch.s, s->scratch.len);	/* may close c, free r */
	if (!(c->flags & CONN_DEAD))
		http_done(c);
}

void
gen_timer(struct conn *c, int64_t now)
{
	struct resp *r = c->r;

	if (!r)
		return;
	if (r->kind == RESP_FIXED) {
		send_fixed(c);
		return;
	}
	if (!r->headers_sent) {
		send_headers(c);
		if (c->flags & CONN_DEAD)
			return;
		if (r->fail_after == 0 && r->n_reason + r->n_content > 0) {
			cut_short(c);
			return;
		}
		if (r->due > now) {
			conn_arm(c, r->due);
			return;
		}
	}
	emit(c, now);
}
