/* SPDX-License-Identifier: Apache-2.0 */
/* Fast path for a raw record's responses: SSE packets read from their escaped text. */
#include "metrics.h"
#include "fastscan.h"

#include <string.h>

#include "util.h"

/*
 * A raw record's "responses" array holds each SSE packet's JSON as an
 * escaped string. The general path (parse.c) builds the array's tree,
 * decodes each string and parses it again. Here fastresp_scan() checks the
 * array's common compact shape as json_parse_hook() passes it over, keeping
 * perf_ns and where each data value lies; fastresp_packet() (fastpacket.c)
 * then reads the common OpenAI chat and completions chunks straight from
 * the escaped text. Both decline (return 0) on anything else, before any side effect,
 * and the general path takes that record or packet: so the output is the
 * same byte for byte (tests/cli/t0641, tests/fuzz/fuzz-fastresp.c).
 * A stream's packets mostly differ from the one before only in their text
 * and in the numbers after it (a server's stamp, running usage counts):
 * such a packet is read from that one (the tail, below), and the rest go
 * on from where the last one had the same bytes (checkpoints). The server
 * stamps' pairing (health.c) reads the data values' spans kept here.
 */

#define ONES ((uint64_t)0x0101010101010101)
#define HIGHS ((uint64_t)0x8080808080808080)

/* The first byte at or after p that is below 0x20, '"' or '\\', or end
 * (eight bytes at a time: the marks past the first may be wrong). */
static inline const char *
plain_run(const char *p, const char *end)
{
	uint64_t x, m;

	while (end - p >= 8) {
		memcpy(&x, p, 8);
		m = ((x - ONES * 0x20) | ((x ^ (ONES * '"')) - ONES)
		     | ((x ^ (ONES * '\\')) - ONES)) & ~x & HIGHS;
		if (m) {
			for (;; p++)
				if ((unsigned char)*p < 0x20 || *p == '"' || *p == '\\')
					return p;
		}
		p += 8;
	}
	while (p < end && (unsigned char)*p >= 0x20 && *p != '"' && *p != '\\')
		p++;
	return p;
}

/* p at '"': the byte after the closing quote of a string json_parse()
 * takes, or NULL; *esc says whether it has escapes. */
static const char *
ostr_end(const char *p, const char *end, int *esc)
{
	*esc = 0;
	for (p++; (p = plain_run(p, end)) < end; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '"')
			return p + 1;
		if (c < 0x20)
			return NULL;
		if (c != '\\')
			continue;
		*esc = 1;
		if (++p >= end)
			return NULL;
		switch (*p) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			break;
		case 'u':
			if (end - p < 5 || !ishex(p[1]) || !ishex(p[2]) || !ishex(p[3])
			    || !ishex(p[4]))
				return NULL;
			p += 4;
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

/* A plain non-negative integer json_int64() reads (at most 18 digits). */
static const char *
scan_int(const char *p, const char *end, int64_t *v)
{
	const char *s = p;

	*v = 0;
	while (p < end && *p >= '0' && *p <= '9' && p - s < 18)
		*v = *v * 10 + (*p++ - '0');
	if (p == s || (*s == '0' && p - s > 1))
		return NULL;
	if (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E'))
		return NULL;
	return p;
}

/* A key without escapes; p after the ':'. */
static const char *
scan_key(const char *p, const char *end, const char **k, size_t *kn)
{
	const char *q;

	/* keys are short: byte by byte to the closing quote; an escape or a
	 * control declines, as ostr_end() would (a key may have no escapes) */
	if (p >= end || *p != '"')
		return NULL;
	for (q = p + 1; q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20; q++)
		;
	if (q >= end || *q != '"')
		return NULL;
	*k = p + 1;
	*kn = (size_t)(q - *k);
	q++;
	if (q >= end || *q != ':')
		return NULL;
	return q + 1;
}

#define KEY(k, kn, lit) ((kn) == sizeof(lit) - 1 && !memcmp((k), (lit), sizeof(lit) - 1))

static void
skip_sp(struct sc *c)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
}

/* An inner string; c->p after the opening quote. Escapes are checked;
 * keys (key != 0) may have none. Its end and escapes all start with an
 * outer backslash; a bare '"' or control ends or spoils the outer one. */
static int
istr(struct sc *c, int key)
{
	for (;;) {
		const char *bs = plain_run(c->p, c->end);
		int w, ch;

		if (bs >= c->end || *bs != '\\')
			return -1;
		c->p = bs;
		if ((ch = peek(c, &w)) < 0)
			return -1;
		c->p += w;
		if (ch == '"')
			return 0;
		if (ch != '\\')
			continue;
		if (key || (ch = peek(c, &w)) < 0)
			return -1;
		c->p += w;
		if (ch == 'u') {
			if (c->end - c->p < 4 || !ishex(c->p[0]) || !ishex(c->p[1])
			    || !ishex(c->p[2]) || !ishex(c->p[3]))
				return -1;
			c->p += 4;
		} else if (!strchr("\"\\/bfnrt", ch)) {
			return -1;
		}
	}
}

static int
match(struct sc *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n))
		return -1;
	c->p += n;
	return 0;
}

static int
isdig(const struct sc *c)
{
	return c->p < c->end && *c->p >= '0' && *c->p <= '9';
}

/* A number as json.c's parse_number() takes it. */
static int
inum(struct sc *c)
{
	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (!isdig(c))
		return -1;
	if (*c->p == '0')
		c->p++;
	else
		while (isdig(c))
			c->p++;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (!isdig(c))
			return -1;
		while (isdig(c))
			c->p++;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (!isdig(c))
			return -1;
		while (isdig(c))
			c->p++;
	}
	return 0;
}

/* What a value is: the packet, its "choices", choices[0], the delta or
 * message in it, or nothing kept. */
enum { LV_TOP, LV_CHOICES, LV_C0, LV_DELTA, LV_MESSAGE, LV_NONE };

static int ivalue(struct sc *c, struct fpick *pk, int level, struct ival *out);

static void checkpoint(struct sc *c, const struct fpick *pk, const struct ival *top);

/* After an object's member: 1 at ',' (a checkpoint where the scan may
 * go on from), 0 at '}', else -1. */
static int
member_end(struct sc *c, const struct fpick *pk, int level, const struct ival *out)
{
	int w;

	skip_sp(c);
	switch (peek(c, &w)) {
	case ',':
		c->p += w;
		if (c->m && (level == LV_TOP || (level == LV_C0 && c->depth == 3)))
			checkpoint(c, pk, level == LV_TOP ? out : c->top);
		return 1;
	case '}':
		c->p += w;
		return 0;
	default:
		return -1;
	}
}

/* An object's members from the next key on; level says which to keep. */
static int
imembers(struct sc *c, struct fpick *pk, int level, struct ival *out)
{
	int w, rc;

	for (;;) {
		const char *k;
		size_t kn;
		struct ival *dst = NULL;
		int sub = LV_NONE, d = level - LV_DELTA;

		skip_sp(c);
		if (peek(c, &w) != '"')
			return -1;
		c->p += w;
		k = c->p;
		if (istr(c, 1) < 0)
			return -1;
		kn = (size_t)(c->p - 2 - k);
		skip_sp(c);
		if (peek(c, &w) != ':')
			return -1;
		c->p += w;
		out->members++;
		if (level == LV_TOP) {
			if (KEY(k, kn, "object"))
				dst = &pk->object;
			else if (KEY(k, kn, "choices"))
				dst = &pk->choices, sub = LV_CHOICES;
			else if (KEY(k, kn, "usage"))
				dst = &pk->usage;
		} else if (level == LV_C0) {
			if (KEY(k, kn, "text"))
				dst = &pk->c0text;
			else if (KEY(k, kn, "delta"))
				dst = &pk->c0delta, sub = LV_DELTA;
			else if (KEY(k, kn, "message"))
				dst = &pk->c0message, sub = LV_MESSAGE;
		} else if (level == LV_DELTA || level == LV_MESSAGE) {
			if (KEY(k, kn, "content"))
				dst = &pk->content[d];
			else if (KEY(k, kn, "reasoning_content"))
				dst = &pk->rcontent[d];
			else if (KEY(k, kn, "reasoning"))
				dst = &pk->reasoning[d];
			else if (KEY(k, kn, "tool_calls"))
				pk->tools[d] = 1;
		}
		if (dst) {
			/* the last of a repeated key wins, as json_get() finds it */
			if (sub == LV_DELTA || sub == LV_MESSAGE) {
				pk->content[sub - LV_DELTA] = (struct ival){ 0 };
				pk->rcontent[sub - LV_DELTA] = (struct ival){ 0 };
				pk->reasoning[sub - LV_DELTA] = (struct ival){ 0 };
				pk->tools[sub - LV_DELTA] = 0;
			} else if (sub == LV_CHOICES) {
				pk->c0text = pk->c0delta = pk->c0message = (struct ival){ 0 };
				pk->content[0] = pk->content[1] = (struct ival){ 0 };
				pk->rcontent[0] = pk->rcontent[1] = (struct ival){ 0 };
				pk->reasoning[0] = pk->reasoning[1] = (struct ival){ 0 };
				pk->tools[0] = pk->tools[1] = 0;
			}
			*dst = (struct ival){ 0 };
		}
		if (ivalue(c, pk, sub, dst ? dst : &(struct ival){ 0 }) < 0)
			return -1;
		if ((rc = member_end(c, pk, level, out)) <= 0)
			return rc;
	}
}

/* An object's members; level says which members to keep. */
static int
iobject(struct sc *c, struct fpick *pk, int level, struct ival *out)
{
	int w;

	skip_sp(c);
	if (peek(c, &w) == '}') {
		c->p += w;
		return 0;
	}
	return imembers(c, pk, level, out);
}

/* After an array's item: 1 at ',', 0 at ']', else -1. */
static int
item_end(struct sc *c)
{
	int w;

	skip_sp(c);
	switch (peek(c, &w)) {
	case ',':
		c->p += w;
		return 1;
	case ']':
		c->p += w;
		return 0;
	default:
		return -1;
	}
}

/* An array's items; at LV_CHOICES the first item is choices[0]. */
static int
iarray(struct sc *c, struct fpick *pk, int level)
{
	int w, rc, first = 1;

	skip_sp(c);
	if (peek(c, &w) == ']') {
		c->p += w;
		return 0;
	}
	for (;;) {
		struct ival dummy = { 0 };

		if (ivalue(c, pk, first && level == LV_CHOICES ? LV_C0 : LV_NONE, &dummy) < 0)
			return -1;
		first = 0;
		if ((rc = item_end(c)) <= 0)
			return rc;
	}
}

static int
ivalue(struct sc *c, struct fpick *pk, int level, struct ival *out)
{
	int w, ch, rc;

	skip_sp(c);
	ch = peek(c, &w);
	out->s = c->p;
	switch (ch) {
	case '{':
		if (++c->depth > 64)
			return -1;
		c->p += w;
		out->type = 'o';
		rc = iobject(c, pk, level == LV_CHOICES ? LV_NONE : level, out);
		c->depth--;
		break;
	case '[':
		if (++c->depth > 64)
			return -1;
		c->p += w;
		out->type = 'a';
		rc = iarray(c, pk, level == LV_CHOICES ? LV_CHOICES : LV_NONE);
		c->depth--;
		break;
	case '"':
		c->p += w;
		out->s = c->p;
		out->type = '"';
		rc = istr(c, 0);
		out->e = c->p - 2;
		return rc;
	case 't':
		out->type = 'x';
		return match(c, "true");
	case 'f':
		out->type = 'x';
		return match(c, "false");
	case 'n':
		out->type = 'x';
		return match(c, "null");
	default:
		out->type = 'x';
		return inum(c);
	}
	out->e = c->p;
	return rc;
}

static void
push_span(struct rec *r, const char *s, size_t n, size_t pick)
{
	if (r->nfs == r->fscap) {
		r->fscap = r->fscap ? r->fscap * 2 : 64;
		r->fs = xreallocarray(r->fs, r->fscap, sizeof(*r->fs));
	}
	r->fs[r->nfs].s = s;
	r->fs[r->nfs].pick = pick;
	r->fs[r->nfs++].n = n;
}

/*
 * The chunks of a stream mostly start alike ({"id":"...","object":
 * "chat.completion.chunk","created":...,"model":"...","choices":[{"index":
 * 0,...): the scan of a packet notes where each member of the top level and
 * of choices[0] starts (after its ',') with what it has kept so far, and
 * the next packet of the record that has the same bytes up to such a place
 * goes on from there. The scan is a function of the bytes before that
 * place alone (it has looked at none past it, and the outer string goes on
 * past it in both), so what it keeps is the same.
 */
#define NCK 12
/* The numbers after a chunk's text that may differ from the last chunk's
 * (a server's stamp, running usage counts): the first few. */
#define NTNUM 6

struct fmemo {
	const char *last;	/* the last packet scanned (its '{'), or NULL */
	int n;
	size_t resumed;		/* packets read from a checkpoint (tests) */
	int depth;		/* the last one's depth (tests) */
	struct {
		const char *base;	/* the packet it was noted in */
		size_t off, members;	/* its place; top-level members before it */
		int depth;		/* 1: a top-level member; 3: choices[0]'s */
		struct fpick pk;	/* what was kept, pointing into base */
	} ck[NCK];
	/* The last packet read in full or from a checkpoint, when one string
	 * of it is the text a chunk carries (tail_var()): a packet with the
	 * same bytes before that string and after it, but for the numbers
	 * after it, is the same but for the string and those numbers, and is
	 * read from this (tail_hit()). */
	struct {
		const char *base;	/* its '{', or NULL */
		size_t s, e, end;	/* the string's first byte, its closing \",
					 * the outer closing quote: offsets */
		int nnum;		/* the numbers after the string (NTNUM at
					 * most); -1: not looked for yet */
		size_t num[NTNUM][2];	/* each one's first byte and the byte after */
		struct fpick pk;	/* what it kept, pointing into base */
	} tail;
	size_t tailed;		/* packets read from the tail (tests) */
};

static void
checkpoint(struct sc *c, const struct fpick *pk, const struct ival *top)
{
	struct fmemo *m = c->m;

	if (m->n == NCK || !top)
		return;
	m->ck[m->n].base = c->base;
	m->ck[m->n].off = (size_t)(c->p - c->base);
	m->ck[m->n].members = top->members;
	m->ck[m->n].depth = c->depth;
	m->ck[m->n++].pk = *pk;
}

/* Every value an fpick keeps: what moves when it is read for another
 * packet (resume(), tail_hit()). */
#define FPICK_IVALS 12

static void
fpick_ivals(struct fpick *pk, struct ival *v[FPICK_IVALS])
{
	struct ival *all[FPICK_IVALS] = {
		&pk->object, &pk->choices, &pk->usage, &pk->c0text, &pk->c0delta,
		&pk->c0message, &pk->content[0], &pk->content[1], &pk->rcontent[0],
		&pk->rcontent[1], &pk->reasoning[0], &pk->reasoning[1],
	};

	memcpy(v, all, sizeof(all));
}

static void
rebase(struct ival *v, const char *from, const char *to)
{
	/* e is NULL while the value is being read (a checkpoint inside it) */
	if (v->type) {
		v->s = to + (v->s - from);
		if (v->e)
			v->e = to + (v->e - from);
	}
}

/* The last checkpoint whose bytes p has (with more after them), or -1. */
static int
resume_at(const struct fmemo *m, const char *p, const char *end)
{
	size_t same = 0, lim;
	int i;

	if (!m->last || !m->n)
		return -1;
	lim = m->ck[m->n - 1].off;
	if ((size_t)(end - p) <= lim)
		lim = (size_t)(end - p) - 1;
	while (same + 8 <= lim && !memcmp(p + same, m->last + same, 8))
		same += 8;
	while (same < lim && p[same] == m->last[same])
		same++;
	for (i = m->n - 1; i >= 0 && m->ck[i].off > same; i--)
		;
	return i;
}

/* The scan of a packet from checkpoint i: the rest of choices[0] and of
 * "choices" (depth 3), then the rest of the top level. */
static int
resume(struct sc *c, struct fmemo *m, int i, struct fpick *pk, struct ival *top)
{
	const char *from = m->ck[i].base;
	struct ival *v[FPICK_IVALS];
	int rc = 1;

	*pk = m->ck[i].pk;
	fpick_ivals(pk, v);
	for (int k = 0; k < FPICK_IVALS; k++)
		rebase(v[k], from, c->base);
	m->resumed++;
	m->depth = m->ck[i].depth;
	top->type = 'o';
	top->s = c->base;
	top->members = m->ck[i].members;
	c->p = c->base + m->ck[i].off;
	c->depth = m->ck[i].depth;
	if (c->depth == 3) {
		struct ival c0 = { 0 };

		if (imembers(c, pk, LV_C0, &c0) < 0)
			return -1;
		c->depth--;
		/* the items after choices[0] */
		while ((rc = item_end(c)) > 0) {
			struct ival dummy = { 0 };

			if (ivalue(c, pk, LV_NONE, &dummy) < 0)
				return -1;
		}
		if (rc < 0)
			return -1;
		c->depth--;
		pk->choices.e = c->p;
		if ((rc = member_end(c, pk, LV_TOP, top)) < 0)
			return -1;
	}
	if (rc > 0 && imembers(c, pk, LV_TOP, top) < 0)
		return -1;
	c->depth--;
	top->e = c->p;
	return 0;
}

/* The one string of pk that is a chunk's text (choices[0]'s text, or
 * its delta's content or reasoning), or NULL when there is none or more
 * than one. */
static const struct ival *
tail_var(const struct fpick *pk)
{
	const struct ival *v[] = { &pk->c0text, &pk->content[0], &pk->rcontent[0],
				   &pk->reasoning[0] }, *one = NULL;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (v[i]->type != '"')
			continue;
		if (one)
			return NULL;
		one = v[i];
	}
	return one;
}

/* A pointer of the tail's packet moved to the packet at base whose string
 * ends at ne and whose numbers after it are nn[] bytes long: before the
 * string (and the string's start) by the packets' distance, from its end
 * on by the strings' difference too and by the numbers' before it (a
 * number's end moves with it); end says p is where a value ends (an
 * empty string starts and ends at one place). */
static inline const char *
tail_ptr(const struct fmemo *m, const char *p, const char *base, size_t ne,
	 const size_t *nn, int nnum, int end)
{
	size_t off, to;

	if (!p)
		return NULL;
	off = (size_t)(p - m->tail.base);
	if (off < m->tail.s || (off == m->tail.s && !end))
		return base + off;
	if (off < m->tail.e)
		return base + off;	/* inside the string: nothing points there */
	to = ne + (off - m->tail.e);
	for (int k = 0; k < nnum && m->tail.num[k][1] <= off; k++)
		to = to + nn[k] - (m->tail.num[k][1] - m->tail.num[k][0]);
	return base + to;
}

static inline void
tail_rebase(const struct fmemo *m, struct ival *v, const char *base, size_t ne,
	    const size_t *nn, int nnum)
{
	if (v->type) {
		v->s = tail_ptr(m, v->s, base, ne, nn, nnum, 0);
		v->e = tail_ptr(m, v->e, base, ne, nn, nnum, 1);
	}
}

/* The numbers after the tail's string, outside inner strings, into
 * m->tail.num (the first NTNUM). */
static void
tail_numbers(struct fmemo *m)
{
	const char *base = m->tail.base;
	struct sc c = { base + m->tail.e, base + m->tail.end, 0, NULL, base, NULL };
	int w, ch, in = 0;

	m->tail.nnum = 0;
	c.p += 2;	/* the string's closing \" */
	while (m->tail.nnum < NTNUM && (ch = peek(&c, &w)) >= 0) {
		if ((ch == '-' || (ch >= '0' && ch <= '9')) && !in) {
			const char *at = c.p;

			if (inum(&c) < 0)
				return;	/* not so: the packet was read */
			m->tail.num[m->tail.nnum][0] = (size_t)(at - base);
			m->tail.num[m->tail.nnum++][1] = (size_t)(c.p - base);
			continue;
		}
		c.p += w;
		if (ch == '"')
			in = !in;
		else if (ch == '\\' && in && peek(&c, &w) >= 0)
			c.p += w;	/* the escaped character, a quote too */
	}
}

/* Whether the len bytes of the tail's packet at offset o are those of the
 * packet at base at offset n (before end). */
static int
tail_same(const struct fmemo *m, size_t o, const char *base, size_t n, const char *end,
	  size_t len)
{
	return (size_t)(end - base) - n >= len && !memcmp(base + n, m->tail.base + o, len);
}

/*
 * The packet at base read from the tail: the bytes up to the string's
 * first byte and from its closing \" to the outer closing quote are the
 * tail's, but for the tail's numbers after the string, each of which may
 * be any number inum() takes; the string between is one istr() takes.
 * The scan is a function of the bytes, and neither a string nor a number
 * holds structure: what it keeps is the tail's but for where the string
 * and the numbers end. The byte after the outer quote, or NULL (nothing
 * kept).
 */
static const char *
tail_hit(struct fmemo *m, const char *base, const char *end, struct fpick *pk)
{
	const char *tb = m->tail.base;
	size_t s = m->tail.s, o = m->tail.e, len, n, ne, nn[NTNUM];
	struct sc c = { base + s, end, 0, NULL, base, NULL };
	int nnum = 0;	/* the numbers read (none when the rest is the same) */
	struct ival *v[FPICK_IVALS];

	if (!tb || (size_t)(end - base) <= s || memcmp(base, tb, s) || istr(&c, 0) < 0)
		return NULL;
	n = ne = (size_t)(c.p - 2 - base);
	len = m->tail.end + 1 - o;
	if (!tail_same(m, o, base, n, end, len)) {
		/* not the same after the string: the same but for numbers? */
		if (m->tail.nnum < 0)
			tail_numbers(m);
		if (!m->tail.nnum)
			return NULL;
		for (nnum = 0; nnum < m->tail.nnum; nnum++) {
			len = m->tail.num[nnum][0] - o;
			if (!tail_same(m, o, base, n, end, len))
				return NULL;
			n += len;
			c.p = base + n;
			if (inum(&c) < 0)
				return NULL;
			nn[nnum] = (size_t)(c.p - base) - n;
			n += nn[nnum];
			o = m->tail.num[nnum][1];
		}
		len = m->tail.end + 1 - o;
		if (!tail_same(m, o, base, n, end, len))
			return NULL;
	}
	*pk = m->tail.pk;
	fpick_ivals(pk, v);
	for (int k = 0; k < FPICK_IVALS; k++)
		tail_rebase(m, v[k], base, ne, nn, nnum);
	m->tailed++;
	return base + n + len;
}

/* Note the packet just read (its outer closing quote at q) as the tail. */
static void
tail_note(struct fmemo *m, const char *base, const char *q, const struct fpick *pk)
{
	const struct ival *v = tail_var(pk);

	m->tail.base = NULL;
	if (!v)
		return;
	m->tail.base = base;
	m->tail.s = (size_t)(v->s - base);
	m->tail.e = (size_t)(v->e - base);
	m->tail.end = (size_t)(q - base);
	m->tail.pk = *pk;
	m->tail.nnum = -1;	/* found when first needed (tail_hit()) */
}

/*
 * A value string read as a packet's JSON while passing over it (with the
 * outer string's checks): the byte after its closing quote, with its
 * fpick's index + 1 in *pick; or NULL, having kept nothing.
 */
/* After a member or an item of the outer text: 1 past a ',', 0 past
 * close, -1 at anything else (item_end() for the packets' scanner). */
static int
next_item(const char **p, const char *end, int close)
{
	if (*p < end && **p == ',') {
		++*p;
		return 1;
	}
	if (*p < end && **p == close) {
		++*p;
		return 0;
	}
	return -1;
}

static const char *
pick_value(struct rec *r, const char *p, const char *end, size_t *pick)
{
	struct sc c = { p + 1, end, 0, NULL, p + 1, NULL };
	struct ival top = { 0 };
	struct fpick *pk;
	struct fmemo *m;
	int i = -1;

	if (end - p < 3 || p[1] != '{')
		return NULL;
	if (r->nfp == r->fpcap) {
		r->fpcap = r->fpcap ? r->fpcap * 2 : 64;
		r->fp = xreallocarray(r->fp, r->fpcap, sizeof(*r->fp));
	}
	pk = &r->fp[r->nfp];
	if (!r->fm && util_fastpath())
		r->fm = xcalloc(1, sizeof(*r->fm));
	if ((m = r->fm) != NULL && util_fastpath()) {
		const char *q = tail_hit(m, c.base, end, pk);

		if (q) {
			*pick = ++r->nfp;
			return q;
		}
		c.m = m;
		i = resume_at(m, c.base, end);
		m->n = i + 1;
		m->last = c.base;
	}
	c.top = &top;
	if (i >= 0) {
		if (resume(&c, m, i, pk, &top) < 0)
			return NULL;
	} else {
		memset(pk, 0, sizeof(*pk));
		if (ivalue(&c, pk, LV_TOP, &top) < 0)
			return NULL;
	}
	skip_sp(&c);
	if (c.p >= end || *c.p != '"')
		return NULL;
	if (c.m)
		tail_note(m, c.base, c.p, pk);
	*pick = ++r->nfp;
	return c.p + 1;
}

/* One packet {"name": "data", "value": "..."}, either order. */
static const char *
scan_packet(struct rec *r, struct fresp *f, const char *p, const char *end)
{
	const char *name = NULL, *val = NULL, *k, *q;
	size_t namen = 0, valn = 0, kn, pick = 0;
	int esc, more;

	static const char common[] = "\"name\":\"data\",\"value\":";
	int lead;

	if (p >= end || *p++ != '{')
		return NULL;
	if (p < end && *p == '}')
		return p + 1;
	/* the common packet's start read at once: what the loop makes of it */
	lead = (size_t)(end - p) > sizeof(common) - 1 && !memcmp(p, common, sizeof(common) - 1);
	if (lead) {
		name = p + 8;
		namen = 4;
		p += sizeof(common) - 1;
	}
	do {
		if (lead) {
			k = "value";
			kn = 5;
			lead = 0;
		} else if (!(p = scan_key(p, end, &k, &kn))) {
			return NULL;
		}
		if (p >= end || *p != '"')
			return NULL;
		esc = 1;
		if (KEY(k, kn, "value") && !val && (q = pick_value(r, p, end, &pick)) != NULL)
			;
		else if (pick = 0, !(q = ostr_end(p, end, &esc)))
			return NULL;
		if (KEY(k, kn, "name") && !name && !esc) {
			name = p + 1;
			namen = (size_t)(q - p) - 2;
		} else if (KEY(k, kn, "value") && !val) {
			val = p;
			valn = (size_t)(q - p);
		} else {
			return NULL;
		}
		p = q;
	} while ((more = next_item(&p, end, '}')) > 0);
	if (more < 0)
		return NULL;
	if (name && KEY(name, namen, "data") && val && valn > 2) {
		push_span(r, val, valn, pick);
		f->ndata++;
	}
	return p;
}

static const char *
scan_packets(struct rec *r, struct fresp *f, const char *p, const char *end)
{
	int more;

	f->first = r->nfs;
	if (p >= end || *p++ != '[')
		return NULL;
	if (p < end && *p == ']')
		return p + 1;
	do {
		if (!(p = scan_packet(r, f, p, end)))
			return NULL;
	} while ((more = next_item(&p, end, ']')) > 0);
	return more < 0 ? NULL : p;
}

/* One response {"perf_ns": N, "packets": [...]} or with "text" (and
 * "content_type"), members in any order, each once. */
static const char *
scan_resp(struct rec *r, const char *p, const char *end)
{
	struct fresp *f;
	unsigned seen = 0, bit;
	const char *k, *q;
	size_t kn;
	int esc, more;

	if (p >= end || *p++ != '{')
		return NULL;
	if (r->nfr == r->frcap) {
		r->frcap = r->frcap ? r->frcap * 2 : 64;
		r->fr = xreallocarray(r->fr, r->frcap, sizeof(*r->fr));
	}
	f = &r->fr[r->nfr];
	memset(f, 0, sizeof(*f));
	do {
		if (!(p = scan_key(p, end, &k, &kn)))
			return NULL;
		if (KEY(k, kn, "perf_ns")) {
			bit = 1;
			p = scan_int(p, end, &f->perf_ns);
		} else if (KEY(k, kn, "packets")) {
			bit = 2;
			p = scan_packets(r, f, p, end);
		} else if (KEY(k, kn, "text") || KEY(k, kn, "content_type")) {
			bit = k[0] == 't' ? 4 : 8;
			if (p >= end || *p != '"' || !(q = ostr_end(p, end, &esc)))
				return NULL;
			if (bit == 4) {
				f->s = p;
				f->n = (size_t)(q - p);
			}
			p = q;
		} else {
			return NULL;
		}
		if (!p || (seen & bit))
			return NULL;
		seen |= bit;
	} while ((more = next_item(&p, end, '}')) > 0);
	if (more < 0 || !(seen & 1))
		return NULL;
	f->packets = (seen & 2) != 0;
	r->nfr++;
	return p;
}

size_t
fastresp_scan(void *ctx, const char *s, size_t n)
{
	struct rec *r = ctx;
	const char *p = s, *end = s + n;
	int more;

	r->fr_on = 0;
	r->nfr = r->nfs = r->nfp = 0;
	/* checkpoints point into the last line's buffer */
	if (r->fm)
		r->fm->last = r->fm->tail.base = NULL, r->fm->n = 0;
	if (p >= end || *p++ != '[')
		return 0;
	if (p < end && *p == ']')
		return r->fr_on = 1, 2;
	do {
		if (!(p = scan_resp(r, p, end)))
			return r->nfr = r->nfs = 0, 0;
	} while ((more = next_item(&p, end, ']')) > 0);
	if (more < 0)
		return r->nfr = r->nfs = 0, 0;
	r->fr_on = 1;
	return (size_t)(p - s);
}
