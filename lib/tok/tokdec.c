/* SPDX-License-Identifier: Apache-2.0 */
/* Decoding: token strings of ids through the decoder chain, as HF tokenizers does. */
#include "tok/tokdec.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "util.h"

/* Token lists for the decoder chain: strings in one buffer. */
struct tl {
	struct buf b;
	size_t *off, *len;
	size_t n, cap;
};

static void
tl_push(struct tl *t, const char *s, size_t n)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->off = xreallocarray(t->off, t->cap, sizeof(*t->off));
		t->len = xreallocarray(t->len, t->cap, sizeof(*t->len));
	}
	t->off[t->n] = t->b.len;
	t->len[t->n] = n;
	buf_add(&t->b, s, n);
	t->n++;
}

/* Start a new token whose bytes the caller appends to t->b. */
static void
tl_open(struct tl *t)
{
	tl_push(t, "", 0);
}

static void
tl_close(struct tl *t)
{
	t->len[t->n - 1] = t->b.len - t->off[t->n - 1];
}

static const char *
tl_s(const struct tl *t, size_t i)
{
	return buf_str(&t->b) + t->off[i];
}

static void
tl_release(struct tl *t)
{
	buf_release(&t->b);
	free(t->off);
	free(t->len);
	memset(t, 0, sizeof(*t));
}

static int32_t bl_map[256];
static pthread_once_t bl_once = PTHREAD_ONCE_INIT;

static void
bl_init(void)
{
	int32_t c;

	for (c = 0; c < 324; c++)
		if (tokpipe_bl_byte(c) >= 0)
			bl_map[tokpipe_bl_byte(c)] = c;
}

/* Raw bytes to byte-level text (GPT-2 bytes_to_unicode). */
static void
bl_encode(const char *s, size_t n, struct buf *out)
{
	utf8proc_uint8_t u[4];
	size_t i;

	pthread_once(&bl_once, bl_init);
	for (i = 0; i < n; i++)
		buf_add(out, u, (size_t)utf8proc_encode_char(
					bl_map[(unsigned char)s[i]], u));
}

static void
dec_bytelevel(const struct tl *in, struct tl *out)
{
	struct buf raw = BUF_INIT(BUF_NOMAX);
	size_t i;

	for (i = 0; i < in->n; i++)
		if (tokpipe_bl_decode(tl_s(in, i), in->len[i], &raw) < 0)
			buf_add(&raw, tl_s(in, i), in->len[i]);
	tl_open(out);
	tokpipe_utf8_lossy(buf_str(&raw), raw.len, &out->b);
	tl_close(out);
	buf_release(&raw);
}

/* Replace every a with b; Metaspace: drop a in the first token. */
static void
dec_replace(const struct tokstep *st, const struct tl *in, struct tl *out,
	    int metaspace)
{
	size_t i, k, n;
	const char *s;

	for (i = 0; i < in->n; i++) {
		s = tl_s(in, i);
		n = in->len[i];
		tl_open(out);
		for (k = 0; k < n;) {
			if (st->alen && k + st->alen <= n &&
			    !memcmp(s + k, st->a, st->alen)) {
				if (!(metaspace && i == 0 && st->i))
					buf_add(&out->b, st->b, st->blen);
				k += st->alen;
			} else {
				buf_addch(&out->b, s[k++]);
			}
		}
		tl_close(out);
	}
}

static int
fallback_byte(const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF0123456789abcdef";
	const char *h, *l;

	if (n != 6 || memcmp(s, "<0x", 3) || s[5] != '>' || !s[3] || !s[4])
		return -1;
	h = strchr(hex, s[3]);
	l = strchr(hex, s[4]);
	if (!h || !l)
		return -1;
	return ((int)(h - hex) % 16) * 16 + (int)(l - hex) % 16;
}

static void
flush_bytes(struct buf *bytes, struct tl *out)
{
	size_t i;

	if (!bytes->len)
		return;
	if (tokpipe_utf8_valid(bytes->s, bytes->len)) {
		tl_push(out, bytes->s, bytes->len);
	} else {
		for (i = 0; i < bytes->len; i++)
			tl_push(out, "\xef\xbf\xbd", 3);
	}
	buf_reset(bytes);
}

static void
dec_bytefallback(const struct tl *in, struct tl *out)
{
	struct buf bytes = BUF_INIT(BUF_NOMAX);
	size_t i;
	int b;

	for (i = 0; i < in->n; i++) {
		b = fallback_byte(tl_s(in, i), in->len[i]);
		if (b >= 0) {
			buf_addch(&bytes, b);
			continue;
		}
		flush_bytes(&bytes, out);
		tl_push(out, tl_s(in, i), in->len[i]);
	}
	flush_bytes(&bytes, out);
	buf_release(&bytes);
}

static void
dec_strip(const struct tokstep *st, const struct tl *in, struct tl *out)
{
	size_t i, b, e, l;
	int k;

	for (i = 0; i < in->n; i++) {
		const char *s = tl_s(in, i);
		b = 0;
		e = in->len[i];
		for (k = 0; k < st->i && b < e && e - b >= st->alen &&
		     !memcmp(s + b, st->a, st->alen); k++)
			b += st->alen;
		for (k = 0; k < st->j && e - b >= st->alen &&
		     !memcmp(s + e - st->alen, st->a, st->alen); k++)
			e -= st->alen;
		l = e - b;
		tl_push(out, s + b, l);
	}
}

static void
dec_step(const struct tokstep *st, const struct tl *in, struct tl *out)
{
	size_t i;

	switch (st->kind) {
	case DEC_BYTELEVEL:
		dec_bytelevel(in, out);
		break;
	case DEC_METASPACE:
	case DEC_REPLACE:
		dec_replace(st, in, out, st->kind == DEC_METASPACE);
		break;
	case DEC_BYTEFALLBACK:
		dec_bytefallback(in, out);
		break;
	case DEC_FUSE:
		tl_open(out);
		for (i = 0; i < in->n; i++)
			buf_add(&out->b, tl_s(in, i), in->len[i]);
		tl_close(out);
		break;
	case DEC_STRIP:
		dec_strip(st, in, out);
		break;
	}
}

static void
id_tokens(const struct tokpipe *p, const int32_t *ids, size_t n,
	  int skip_special, struct tl *t)
{
	const struct added *a;
	const char *s;
	size_t i, l;

	for (i = 0; i < n; i++) {
		a = tokpipe_token_by_id(p, ids[i]);
		if (a) {
			if (!(skip_special && (a->flags & ADDED_SPECIAL)))
				tl_push(t, a->s, a->n);
			continue;
		}
		s = bpe_name(p->bpe, ids[i], &l);
		if (!s)
			continue;
		if (!p->byte_level || (p->odd && bpe_name(p->odd, ids[i], &l))) {
			tl_push(t, s, l);
			continue;
		}
		tl_open(t);
		bl_encode(s, l, &t->b);
		tl_close(t);
	}
}

int
tokdec_decode(const struct tokpipe *p, const int32_t *ids, size_t n,
	       int skip_special, struct buf *out)
{
	struct tl t[2];
	size_t i;
	int cur = 0, rc = 0;

	memset(t, 0, sizeof(t));
	buf_init(&t[0].b, BUF_NOMAX);
	buf_init(&t[1].b, BUF_NOMAX);
	id_tokens(p, ids, n, skip_special, &t[0]);
	for (i = 0; i < p->ndec; i++) {
		tl_release(&t[!cur]);
		buf_init(&t[!cur].b, BUF_NOMAX);
		dec_step(&p->dec[i], &t[cur], &t[!cur]);
		cur = !cur;
	}
	for (i = 0; i < t[cur].n && !rc; i++) {
		if (i > 0 && !p->has_decoder)
			rc = buf_addch(out, ' ');
		if (!rc)
			rc = buf_add(out, tl_s(&t[cur], i), t[cur].len[i]);
	}
	tl_release(&t[0]);
	tl_release(&t[1]);
	return rc < 0 ? -1 : 0;
}
