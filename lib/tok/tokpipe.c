/* SPDX-License-Identifier: Apache-2.0 */
/* The tokenizer pipeline run: added-token split, normalize, pre-tokenize, BPE, as HF tokenizers does. */
#include "tok/tokpipe.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "util.h"

#define NBUCKET (65536 + 256)

void
tokpipe_init(struct tokpipe *p)
{
	memset(p, 0, sizeof(*p));
	p->bos = p->eos = -1;
}

static void
step_release(struct tokstep *st)
{
	free(st->a);
	free(st->b);
	pretok_re_free(st->re);
}

void
tokpipe_release(struct tokpipe *p)
{
	size_t i;

	bpe_free(p->bpe);
	bpe_free(p->odd);
	pretok_free(p->pre);
	for (i = 0; i < p->nnorm; i++)
		step_release(&p->norm[i]);
	for (i = 0; i < p->ndec; i++)
		step_release(&p->dec[i]);
	for (i = 0; i < p->nadded; i++)
		free(p->added[i].s);
	free(p->added);
	free(p->bucket);
	free(p->chain);
	free(p->byid);
	tokpipe_init(p);
}

int
tokpipe_add_token(struct tokpipe *p, const char *s, size_t n, int32_t id,
		  int flags)
{
	struct added *a;

	if (n == 0 || id < 0 || id >= (1 << 24))
		return -1;
	if (!(p->nadded & (p->nadded + 1)) || p->nadded == 0)
		p->added = xreallocarray(p->added, 2 * p->nadded + 1,
					 sizeof(*p->added));
	a = &p->added[p->nadded++];
	a->s = xstrndup(s, n);
	a->n = n;
	a->id = id;
	a->flags = flags;
	return 0;
}

static struct tokstep *
add_step(struct tokstep *v, size_t *n, int kind, const char *a, size_t alen,
	 const char *b, size_t blen)
{
	struct tokstep *st;

	if (*n == TOKPIPE_MAX_STEPS)
		return NULL;
	st = &v[(*n)++];
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->a = a ? xstrndup(a, alen) : NULL;
	st->alen = alen;
	st->b = b ? xstrndup(b, blen) : NULL;
	st->blen = blen;
	return st;
}

struct tokstep *
tokpipe_add_norm(struct tokpipe *p, int kind, const char *a, size_t alen,
		 const char *b, size_t blen)
{
	return add_step(p->norm, &p->nnorm, kind, a, alen, b, blen);
}

struct tokstep *
tokpipe_add_dec(struct tokpipe *p, int kind, const char *a, size_t alen,
		const char *b, size_t blen)
{
	return add_step(p->dec, &p->ndec, kind, a, alen, b, blen);
}

static size_t
bucket_of(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	return n >= 2 ? (size_t)u[0] << 8 | u[1] : (size_t)65536 + u[0];
}

static int
by_len(const void *a, const void *b)
{
	const struct added *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int
by_id(const void *a, const void *b)
{
	const struct added *const *x = a, *const *y = b;

	return (*x)->id < (*y)->id ? -1 : (*x)->id > (*y)->id;
}

static void
add_start(struct tokpipe *p, const struct added *a)
{
	int pass = !!(a->flags & ADDED_NORMALIZED);
	unsigned char c = (unsigned char)a->s[0];

	if (p->starts[pass][c])
		return;
	p->starts[pass][c] = 1;
	if (!p->nstarts[pass]++)
		p->start1[pass] = c;
}

/* Chains hold the tokens of one bucket longest first, so the first match
 * at a position is the leftmost-longest one (aho-corasick LeftmostLongest). */
void
tokpipe_seal(struct tokpipe *p)
{
	size_t i, k;

	if (p->nadded)
		qsort(p->added, p->nadded, sizeof(*p->added), by_len);
	p->bucket = xmalloc(NBUCKET * sizeof(*p->bucket));
	memset(p->bucket, 0xff, NBUCKET * sizeof(*p->bucket));
	p->chain = xmalloc((p->nadded + 1) * sizeof(*p->chain));
	p->byid = xmalloc((p->nadded + 1) * sizeof(*p->byid));
	for (i = 0; i < p->nadded; i++)
		p->byid[i] = &p->added[i];
	qsort(p->byid, p->nadded, sizeof(*p->byid), by_id);
	for (i = 0; i < p->nadded; i++) {
		k = bucket_of(p->added[i].s, p->added[i].n);
		add_start(p, &p->added[i]);
		p->chain[i] = p->bucket[k];
		p->bucket[k] = (int32_t)i;
	}
}

const struct added *
tokpipe_find_token(const struct tokpipe *p, const char *s, size_t n)
{
	int32_t i;

	if (n == 0)
		return NULL;
	if (!p->bucket) {
		for (i = 0; i < (int32_t)p->nadded; i++)
			if (p->added[i].n == n && !memcmp(p->added[i].s, s, n))
				return &p->added[i];
		return NULL;
	}
	for (i = p->bucket[bucket_of(s, n)]; i >= 0; i = p->chain[i])
		if (p->added[i].n == n && !memcmp(p->added[i].s, s, n))
			return &p->added[i];
	return NULL;
}

const struct added *
tokpipe_token_by_id(const struct tokpipe *p, int32_t id)
{
	size_t lo = 0, hi = p->nadded, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->byid[mid]->id == id)
			return p->byid[mid];
		if (p->byid[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 with *bad set to
 * the length of its maximal invalid subpart (WHATWG decoder). */
static size_t
utf8_seq(const unsigned char *s, size_t n, size_t *bad)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t need, k;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3;
	else
		return *bad = 1, 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	for (k = 1; k <= need; k++) {
		if (k >= n || s[k] < lo || s[k] > hi)
			return *bad = k, 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

int
tokpipe_utf8_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, l, bad;
	uint64_t w;

	while (i < n) {
		if (i + 8 <= n) {
			memcpy(&w, u + i, 8);
			if (!(w & 0x8080808080808080ULL)) {
				i += 8;
				continue;
			}
		}
		l = utf8_seq(u + i, n - i, &bad);
		if (!l)
			return 0;
		i += l;
	}
	return 1;
}

void
tokpipe_utf8_lossy(const char *s, size_t n, struct buf *out)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, l, bad;

	while (i < n) {
		l = utf8_seq(u + i, n - i, &bad);
		if (l) {
			buf_add(out, s + i, l);
			i += l;
		} else {
			buf_add(out, "\xef\xbf\xbd", 3);
			i += bad;
		}
	}
}

/* Rust char::is_whitespace (Unicode White_Space). */
static int
is_space_cp(int32_t c)
{
	return (c >= 9 && c <= 13) || c == 32 || c == 0x85 || c == 0xa0 ||
	       c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
	       c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

static int32_t
cp_at(const char *s, size_t n, size_t *len)
{
	utf8proc_int32_t cp = -1;
	utf8proc_ssize_t l = utf8proc_iterate((const utf8proc_uint8_t *)s,
					      (utf8proc_ssize_t)n, &cp);

	*len = l > 0 ? (size_t)l : 1;
	return cp;
}

/* Start of the character that ends at s[n). */
static size_t
cp_back(const char *s, size_t n)
{
	while (n > 0 && ((unsigned char)s[n - 1] & 0xc0) == 0x80)
		n--;
	return n > 0 ? n - 1 : 0;
}

/* Rust is_alphanumeric or '_' (HF added-token single_word). */
static int
is_word_cp(int32_t c)
{
	utf8proc_category_t k = utf8proc_category(c);

	return c == '_' || (k >= UTF8PROC_CATEGORY_LU &&
			    k <= UTF8PROC_CATEGORY_LO) ||
	       (k >= UTF8PROC_CATEGORY_ND && k <= UTF8PROC_CATEGORY_NO);
}

static int
all_ascii(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

static void
form_chunk(int kind, const char *s, size_t n, struct buf *out)
{
	static const int opt[] = {
		[NORM_NFC] = UTF8PROC_COMPOSE,
		[NORM_NFD] = UTF8PROC_DECOMPOSE,
		[NORM_NFKC] = UTF8PROC_COMPOSE | UTF8PROC_COMPAT,
		[NORM_NFKD] = UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT,
	};
	utf8proc_uint8_t *d = NULL;
	utf8proc_ssize_t l;

	if (all_ascii(s, n)) {
		buf_add(out, s, n);
		return;
	}
	l = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &d,
			 (utf8proc_option_t)(UTF8PROC_STABLE | opt[kind]));
	if (l < 0)
		buf_add(out, s, n);
	else
		buf_add(out, d, (size_t)l);
	free(d);
}

#define FORM_CHUNK 65536

/* NFC/NFD/NFKC/NFKD in chunks cut before an ASCII character: it has
 * combining class 0 and is never the second of a composition, so nothing
 * reorders or composes across the cut. Bounds memory on huge texts. */
static void
unicode_form(const struct tokstep *st, const char *s, size_t n,
	     struct buf *out)
{
	size_t at = 0, cut;

	while (at < n) {
		cut = n - at > FORM_CHUNK ? at + FORM_CHUNK : n;
		while (cut < n && (unsigned char)s[cut] >= 0x80)
			cut++;
		form_chunk(st->kind, s + at, cut - at, out);
		at = cut;
	}
}

static void
replace(const struct tokstep *st, const char *s, size_t n, struct buf *out)
{
	size_t i = 0, b, e;

	if (st->re) {
		while (i <= n && pretok_re_find(st->re, s, n, i, &b, &e)) {
			buf_add(out, s + i, b - i);
			buf_add(out, st->b, st->blen);
			if (e == b) {
				if (b < n)
					buf_add(out, s + b, 1);
				e = b + 1;
			}
			i = e;
		}
		if (i < n)
			buf_add(out, s + i, n - i);
		return;
	}
	while (i < n) {
		if (st->alen && i + st->alen <= n &&
		    !memcmp(s + i, st->a, st->alen)) {
			buf_add(out, st->b, st->blen);
			i += st->alen;
		} else {
			buf_addch(out, s[i++]);
		}
	}
}

static void
strip(const struct tokstep *st, const char *s, size_t n, struct buf *out)
{
	size_t b = 0, e = n, l;

	while (st->i && b < e && is_space_cp(cp_at(s + b, e - b, &l)))
		b += l;
	while (st->j && e > b) {
		size_t k = cp_back(s, e);
		if (!is_space_cp(cp_at(s + k, e - k, &l)))
			break;
		e = k;
	}
	buf_add(out, s + b, e - b);
}

static void
norm_step(const struct tokstep *st, const char *s, size_t n, struct buf *out)
{
	switch (st->kind) {
	case NORM_PREPEND:
		if (n)
			buf_add(out, st->a, st->alen);
		buf_add(out, s, n);
		break;
	case NORM_REPLACE:
	case NORM_REPLACE_RE:
		replace(st, s, n, out);
		break;
	case NORM_STRIP:
		strip(st, s, n, out);
		break;
	default:
		unicode_form(st, s, n, out);
	}
}

/* Apply every normalizer; the result is in b[0] or b[1], returned. */
static struct buf *
normalize(const struct tokpipe *p, const char *s, size_t n, struct buf *b)
{
	size_t i;
	int cur = 1;

	for (i = 0; i < p->nnorm; i++) {
		buf_reset(&b[!cur]);
		norm_step(&p->norm[i], s, n, &b[!cur]);
		cur = !cur;
		s = buf_str(&b[cur]);
		n = b[cur].len;
	}
	return &b[cur];
}

struct enc {
	const struct tokpipe *p;
	int32_t **ids;
	size_t *nids, *cap;
	size_t count;
	struct buf nb[2];
};

static void
put_ids(struct enc *e, const int32_t *v, size_t n)
{
	e->count += n;
	if (!e->ids || n == 0)
		return;
	if (*e->nids + n > *e->cap) {
		size_t c = *e->cap ? *e->cap : 64;
		while (c < *e->nids + n)
			c *= 2;
		*e->ids = xreallocarray(*e->ids, c, sizeof(**e->ids));
		*e->cap = c;
	}
	memcpy(*e->ids + *e->nids, v, n * sizeof(*v));
	*e->nids += n;
}

static void
word(struct enc *e, const char *s, size_t n)
{
	size_t k;
	const int32_t *v = bpe_word(e->p->bpe, s, n, &k);

	if (!e->ids) {	/* counting only */
		e->count += k;
		return;
	}
	put_ids(e, v, k);
}

#define META "\xe2\x96\x81"

static int
on_word(void *ctx, const char *s, size_t n)
{
	struct enc *e = ctx;
	size_t i, start = 0;

	if (!e->p->cut_meta) {
		word(e, s, n);
		return 0;
	}
	for (i = 3; i + 3 <= n; i++) {
		if (memcmp(s + i, META, 3) || !memcmp(s + i - 3, META, 3))
			continue;
		word(e, s + start, i - start);
		start = i;
	}
	word(e, s + start, n - start);
	return 0;
}

static void
pretokenize(struct enc *e, const char *s, size_t n, int at_start)
{
	if (n == 0)
		return;
	if (e->p->pre)
		pretok_run(e->p->pre, s, n, at_start, on_word, e);
	else
		on_word(e, s, n);
}

/* The longest added token of this pass that starts at s[i], or NULL. */
static const struct added *
match_at(const struct tokpipe *p, const char *s, size_t n, size_t i,
	 int normalized)
{
	const struct added *a;
	int32_t k;

	if (n - i >= 2) {
		for (k = p->bucket[bucket_of(s + i, n - i)]; k >= 0;
		     k = p->chain[k]) {
			a = &p->added[k];
			if (!!(a->flags & ADDED_NORMALIZED) == normalized &&
			    a->n <= n - i && !memcmp(a->s, s + i, a->n))
				return a;
		}
	}
	for (k = p->bucket[65536 + (unsigned char)s[i]]; k >= 0;
	     k = p->chain[k]) {
		a = &p->added[k];
		if (!!(a->flags & ADDED_NORMALIZED) == normalized)
			return a;
	}
	return NULL;
}

/* The next index from i where an added token of the pass may start, or n. */
static size_t
next_start(const struct tokpipe *p, int pass, const char *s, size_t n, size_t i)
{
	const char *q;

	if (p->nstarts[pass] == 1) {
		q = i < n ? memchr(s + i, p->start1[pass], n - i) : NULL;
		return q ? (size_t)(q - s) : n;
	}
	while (i < n && !p->starts[pass][(unsigned char)s[i]])
		i++;
	return i;
}

/* HF AddedVocabulary::find_matches flags: single_word, lstrip, rstrip. */
static int
accept(const struct added *a, const char *s, size_t n, size_t *b, size_t *e,
       size_t done)
{
	size_t l, k;

	if (a->flags & ADDED_SINGLE_WORD) {
		if ((*b > 0 && is_word_cp(cp_at(s + cp_back(s, *b),
						 *b - cp_back(s, *b), &l))) ||
		    (*e < n && is_word_cp(cp_at(s + *e, n - *e, &l))))
			return 0;
	}
	if (a->flags & ADDED_LSTRIP) {
		k = *b;
		while (k > 0 && is_space_cp(cp_at(s + cp_back(s, k),
						  k - cp_back(s, k), &l)))
			k = cp_back(s, k);
		*b = k > done ? k : done;
	}
	if (a->flags & ADDED_RSTRIP) {
		while (*e < n && is_space_cp(cp_at(s + *e, n - *e, &l)))
			*e += l;
	}
	return 1;
}

typedef void (*gap_fn)(struct enc *e, const char *s, size_t n, int at_start);

static void
split_added(struct enc *e, const char *s, size_t n, int normalized,
	    int at_start, gap_fn gap)
{
	const struct tokpipe *p = e->p;
	size_t i = 0, done = 0, b, end;
	const struct added *a;

	if (!p->match_added || !p->nadded || !p->nstarts[normalized]) {
		gap(e, s, n, at_start);
		return;
	}
	while (i < n) {
		if (!p->starts[normalized][(unsigned char)s[i]]) {
			i = next_start(p, normalized, s, n, i + 1);
			continue;
		}
		a = match_at(p, s, n, i, normalized);
		if (!a) {
			i++;
			continue;
		}
		b = i;
		end = i + a->n;
		i = end;
		if (!accept(a, s, n, &b, &end, done))
			continue;
		if (done < b)
			gap(e, s + done, b - done, at_start && done == 0);
		put_ids(e, &a->id, 1);
		done = end;
		if (i < done)
			i = done;
	}
	if (done < n)
		gap(e, s + done, n - done, at_start && done == 0);
}

static void
normalized_gap(struct enc *e, const char *s, size_t n, int at_start)
{
	struct buf *b;

	if (!e->p->nnorm) {
		split_added(e, s, n, 1, at_start, pretokenize);
		return;
	}
	b = normalize(e->p, s, n, e->nb);
	split_added(e, buf_str(b), b->len, 1, at_start, pretokenize);
}

size_t
tokpipe_encode(const struct tokpipe *p, const char *s, size_t n,
	       int32_t **ids, size_t *nids, size_t *cap)
{
	struct enc e = { p, ids, nids, cap, 0, { BUF_INIT(BUF_NOMAX),
						 BUF_INIT(BUF_NOMAX) } };
	struct buf fix = BUF_INIT(BUF_NOMAX);

	if (!tokpipe_utf8_valid(s, n)) {
		tokpipe_utf8_lossy(s, n, &fix);
		s = fix.s;
		n = fix.len;
	}
	if (p->match_added && p->nadded)
		split_added(&e, s, n, 0, 1, normalized_gap);
	else if (p->nnorm)
		normalized_gap(&e, s, n, 1);
	else
		pretokenize(&e, s, n, 1);
	buf_release(&e.nb[0]);
	buf_release(&e.nb[1]);
	buf_release(&fix);
	return e.count;
}

/* GPT-2 bytes_to_unicode: printable bytes map to themselves, the others
 * to U+0100 on in byte order. Returns the byte of code point c, or -1. */
int
tokpipe_bl_byte(int32_t c)
{
	/* the bytes that map to U+0100.. in order: 0..32, 127..160, 173 */
	if ((c >= 33 && c <= 126) || (c >= 161 && c <= 172) ||
	    (c >= 174 && c <= 255))
		return c;
	if (c < 256 || c > 323)
		return -1;
	c -= 256;
	if (c <= 32)
		return c;
	if (c <= 32 + 34)
		return c - 33 + 127;
	return 173;
}

/* Decode byte-level text s: each character back to its byte. Returns 0,
 * or -1 (out untouched beyond len0) when a character is not in the map. */
int
tokpipe_bl_decode(const char *s, size_t n, struct buf *out)
{
	size_t i, l, len0 = out->len;
	int32_t c;
	int b;

	for (i = 0; i < n; i += l) {
		c = cp_at(s + i, n - i, &l);
		b = tokpipe_bl_byte(c);
		if (b < 0) {
			out->len = len0;
			if (out->s)
				out->s[len0] = '\0';
			return -1;
		}
		buf_addch(out, b);
	}
	return 0;
}
