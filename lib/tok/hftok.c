/* SPDX-License-Identifier: Apache-2.0 */
/* HuggingFace tokenizer.json loader: builds a struct tokpipe from the JSON description. */
#include "tok/hftok.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

struct ld {
	struct tokpipe *p;
	const char *name;
	char *err;
	size_t errlen;
	struct buf tmp;
};

static int FMT(2, 3)
fail(struct ld *l, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(l->err, l->errlen, "'%s': %s", l->name, msg);
	return -1;
}

static const char *
str_of(const struct json *v, const char *key, size_t *n)
{
	const struct json *s = json_get(v, key);

	return s && s->type == JSON_STRING ? json_str(s, n) : NULL;
}

static int
bool_of(const struct json *v, const char *key, int dflt)
{
	const struct json *b = json_get(v, key);

	if (!b || b->type == JSON_NULL)
		return dflt;
	return b->type == JSON_TRUE;
}

static int
int_of(const struct json *v, const char *key, int dflt)
{
	int64_t x;

	if (json_int64(json_get(v, key), &x) < 0 || x < 0 || x > 1 << 20)
		return dflt;
	return (int)x;
}

static const char *
type_of(const struct json *v)
{
	return json_str_or(json_get(v, "type"), "");
}

static int
unsupported(struct ld *l, const char *field, const char *type,
	    const char *supported)
{
	return fail(l, "%s type '%s' is not supported (supported: %s)", field,
		    type, supported);
}

/* Normalizers. */
static const char norm_supported[] =
	"NFC, NFD, NFKC, NFKD, Prepend, Replace, Strip, Sequence";

static int add_norm(struct ld *l, const struct json *v, int depth);

static int
norm_replace(struct ld *l, const struct json *v)
{
	const struct json *pat = json_get(v, "pattern");
	const char *s, *c;
	size_t n, cn;
	struct tokstep *st;
	int re = 0;

	c = str_of(v, "content", &cn);
	s = str_of(pat, "String", &n);
	if (!s && (s = str_of(pat, "Regex", &n)))
		re = 1;
	if (!s || !c)
		return fail(l, "normalizer Replace: expected pattern.String "
			    "or pattern.Regex and content");
	st = tokpipe_add_norm(l->p, re ? NORM_REPLACE_RE : NORM_REPLACE, s, n,
			      c, cn);
	if (!st)
		return fail(l, "normalizer: too many steps");
	if (re && !(st->re = pretok_re_new(s, n, l->err, l->errlen)))
		return fail(l, "normalizer Replace: bad regex");
	return 0;
}

static int
norm_simple(struct ld *l, const struct json *v, const char *t)
{
	static const char *const forms[] = { "NFC", "NFD", "NFKC", "NFKD" };
	const char *s;
	size_t i, n;
	struct tokstep *st = NULL;

	for (i = 0; i < 4; i++)
		if (!strcmp(t, forms[i]))
			st = tokpipe_add_norm(l->p, (int)i, NULL, 0, NULL, 0);
	if (!strcmp(t, "Prepend")) {
		if (!(s = str_of(v, "prepend", &n)))
			return fail(l, "normalizer Prepend: expected prepend");
		st = tokpipe_add_norm(l->p, NORM_PREPEND, s, n, NULL, 0);
	} else if (!strcmp(t, "Strip")) {
		st = tokpipe_add_norm(l->p, NORM_STRIP, NULL, 0, NULL, 0);
		if (st) {
			st->i = bool_of(v, "strip_left", 1);
			st->j = bool_of(v, "strip_right", 1);
		}
	} else if (i == 4 && !st) {
		return unsupported(l, "normalizer", t, norm_supported);
	}
	if (!st)
		return fail(l, "normalizer: too many steps");
	return 0;
}

static int
add_norm(struct ld *l, const struct json *v, int depth)
{
	const char *t = type_of(v);
	const struct json *c;

	if (!v || v->type == JSON_NULL)
		return 0;
	if (v->type != JSON_OBJECT || depth > 8)
		return fail(l, "normalizer: expected an object");
	if (!strcmp(t, "Sequence")) {
		c = json_get(v, "normalizers");
		if (!c || c->type != JSON_ARRAY)
			return fail(l, "normalizer Sequence: expected normalizers");
		for (c = c->child; c; c = c->next)
			if (add_norm(l, c, depth + 1) < 0)
				return -1;
		return 0;
	}
	if (!strcmp(t, "Replace"))
		return norm_replace(l, v);
	return norm_simple(l, v, t);
}

/* Pre-tokenizers. */
static const char pre_supported[] =
	"Split, ByteLevel, Digits, Metaspace, Sequence";

static int
behavior(const char *s, enum pretok_behavior *b)
{
	static const char *const names[] = {
		"Removed", "Isolated", "MergedWithPrevious", "MergedWithNext",
		"Contiguous",
	};
	int i;

	for (i = 0; i < 5; i++)
		if (!strcmp(s, names[i])) {
			*b = (enum pretok_behavior)i;
			return 0;
		}
	return -1;
}

static int
pre_split(struct ld *l, const struct json *v)
{
	const struct json *pat = json_get(v, "pattern");
	enum pretok_behavior beh;
	const char *s, *bs = json_str_or(json_get(v, "behavior"), "");
	size_t n;
	int re = 0;

	s = str_of(pat, "String", &n);
	if (!s && (s = str_of(pat, "Regex", &n)))
		re = 1;
	if (!s)
		return fail(l, "pre_tokenizer Split: expected pattern.String "
			    "or pattern.Regex");
	if (behavior(bs, &beh) < 0)
		return fail(l, "pre_tokenizer Split: behavior '%s' is not "
			    "supported (supported: Removed, Isolated, "
			    "MergedWithPrevious, MergedWithNext, Contiguous)",
			    bs);
	if (pretok_add_split(l->p->pre, s, n, re, beh,
			     bool_of(v, "invert", 0), l->err, l->errlen) < 0)
		return fail(l, "pre_tokenizer Split: pattern: %s", l->err);
	return 0;
}

static int
prepend_scheme(const struct json *v, enum pretok_prepend *sc)
{
	const char *s = json_str_or(json_get(v, "prepend_scheme"), NULL);

	if (!s) {
		*sc = bool_of(v, "add_prefix_space", 1) ? PRETOK_ALWAYS
							: PRETOK_NEVER;
		return 0;
	}
	if (!strcmp(s, "always"))
		*sc = PRETOK_ALWAYS;
	else if (!strcmp(s, "first"))
		*sc = PRETOK_FIRST;
	else if (!strcmp(s, "never"))
		*sc = PRETOK_NEVER;
	else
		return -1;
	return 0;
}

static int
pre_metaspace(struct ld *l, const struct json *v)
{
	enum pretok_prepend sc;
	const char *r;
	size_t n;

	r = str_of(v, "replacement", &n);
	if (!r || !n)
		return fail(l, "pre_tokenizer Metaspace: expected replacement");
	if (prepend_scheme(v, &sc) < 0)
		return fail(l, "pre_tokenizer Metaspace: prepend_scheme must "
			    "be always, first or never");
	pretok_add_metaspace(l->p->pre, r, n, sc, bool_of(v, "split", 1));
	return 0;
}

static int
add_pre(struct ld *l, const struct json *v, int depth)
{
	const char *t = type_of(v);
	const struct json *c;

	if (v->type != JSON_OBJECT || depth > 8)
		return fail(l, "pre_tokenizer: expected an object");
	if (pretok_nsteps(l->p->pre) >= 15)
		return fail(l, "pre_tokenizer: too many steps");
	if (!strcmp(t, "Sequence")) {
		c = json_get(v, "pretokenizers");
		if (!c || c->type != JSON_ARRAY)
			return fail(l, "pre_tokenizer Sequence: expected "
				    "pretokenizers");
		for (c = c->child; c; c = c->next)
			if (add_pre(l, c, depth + 1) < 0)
				return -1;
		return 0;
	}
	if (!strcmp(t, "Split"))
		return pre_split(l, v);
	if (!strcmp(t, "Metaspace"))
		return pre_metaspace(l, v);
	if (!strcmp(t, "Digits")) {
		pretok_add_digits(l->p->pre, bool_of(v, "individual_digits", 0));
		return 0;
	}
	if (!strcmp(t, "ByteLevel")) {
		if (pretok_add_bytelevel(l->p->pre,
					 bool_of(v, "add_prefix_space", 1),
					 bool_of(v, "use_regex", 1), l->err,
					 l->errlen) < 0)
			return -1;
		return 0;
	}
	return unsupported(l, "pre_tokenizer", t, pre_supported);
}

static int
load_pre(struct ld *l, const struct json *v)
{
	int at;

	if (!v || v->type == JSON_NULL)
		return 0;
	l->p->pre = pretok_new();
	if (add_pre(l, v, 0) < 0)
		return -1;
	at = pretok_bytelevel_at(l->p->pre);
	if (at >= 0 && at != (int)pretok_nsteps(l->p->pre) - 1)
		return fail(l, "pre_tokenizer: ByteLevel must be the last "
			    "step (supported: ByteLevel last)");
	l->p->byte_level = at >= 0;
	return 0;
}

/* Decoders. */
static const char dec_supported[] =
	"ByteLevel, Metaspace, Replace, ByteFallback, Fuse, Strip, Sequence";

static int
dec_one(struct ld *l, const struct json *v, const char *t)
{
	struct tokstep *st = NULL;
	enum pretok_prepend sc;
	const char *a, *b;
	size_t an, bn;

	if (!strcmp(t, "ByteLevel")) {
		st = tokpipe_add_dec(l->p, DEC_BYTELEVEL, NULL, 0, NULL, 0);
	} else if (!strcmp(t, "ByteFallback")) {
		st = tokpipe_add_dec(l->p, DEC_BYTEFALLBACK, NULL, 0, NULL, 0);
	} else if (!strcmp(t, "Fuse")) {
		st = tokpipe_add_dec(l->p, DEC_FUSE, NULL, 0, NULL, 0);
	} else if (!strcmp(t, "Metaspace")) {
		a = str_of(v, "replacement", &an);
		if (!a || prepend_scheme(v, &sc) < 0)
			return fail(l, "decoder Metaspace: expected "
				    "replacement and prepend_scheme");
		st = tokpipe_add_dec(l->p, DEC_METASPACE, a, an, " ", 1);
		if (st)
			st->i = sc != PRETOK_NEVER;
	} else if (!strcmp(t, "Replace")) {
		a = str_of(json_get(v, "pattern"), "String", &an);
		b = str_of(v, "content", &bn);
		if (!a || !b)
			return fail(l, "decoder Replace: expected pattern.String "
				    "and content");
		st = tokpipe_add_dec(l->p, DEC_REPLACE, a, an, b, bn);
	} else if (!strcmp(t, "Strip")) {
		a = str_of(v, "content", &an);
		if (!a)
			return fail(l, "decoder Strip: expected content");
		st = tokpipe_add_dec(l->p, DEC_STRIP, a, an, NULL, 0);
		if (st) {
			st->i = int_of(v, "start", 0);
			st->j = int_of(v, "stop", 0);
		}
	} else {
		return unsupported(l, "decoder", t, dec_supported);
	}
	return st ? 0 : fail(l, "decoder: too many steps");
}

static int
add_dec(struct ld *l, const struct json *v, int depth)
{
	const char *t = type_of(v);
	const struct json *c;

	if (v->type != JSON_OBJECT || depth > 8)
		return fail(l, "decoder: expected an object");
	if (strcmp(t, "Sequence"))
		return dec_one(l, v, t);
	c = json_get(v, "decoders");
	if (!c || c->type != JSON_ARRAY)
		return fail(l, "decoder Sequence: expected decoders");
	for (c = c->child; c; c = c->next)
		if (add_dec(l, c, depth + 1) < 0)
			return -1;
	return 0;
}

/* Model. The vocabulary is kept in the model's symbol space: raw bytes
 * for byte-level models. */
static const char *
model_key(struct ld *l, const char *s, size_t n, size_t *kn)
{
	if (!l->p->byte_level) {
		*kn = n;
		return s;
	}
	buf_reset(&l->tmp);
	if (tokpipe_bl_decode(s, n, &l->tmp) < 0)
		return NULL;
	*kn = l->tmp.len;
	return buf_str(&l->tmp);
}

static int
load_vocab(struct ld *l, const struct json *vocab)
{
	const struct json *e;
	const char *k;
	int64_t id;
	size_t kn;

	if (!vocab || vocab->type != JSON_OBJECT)
		return fail(l, "model.vocab: expected an object");
	for (e = vocab->child; e; e = e->next) {
		if (json_int64(e, &id) < 0 || id < 0 || id >= 1 << 24)
			return fail(l, "model.vocab: bad id for '%.*s'",
				    (int)(e->keylen > 64 ? 64 : e->keylen),
				    e->key);
		k = model_key(l, e->key, e->keylen, &kn);
		if (!k && !l->p->odd)
			l->p->odd = bpe_new(BPE_CHARS);
		if (bpe_add(l->p->bpe, k ? k : e->key, k ? kn : e->keylen,
			    (int32_t)id, k != NULL) < 0 ||
		    (!k && bpe_add(l->p->odd, e->key, e->keylen, (int32_t)id,
				   1) < 0))
			return fail(l, "model.vocab: duplicate id %lld",
				    (long long)id);
	}
	return 0;
}

static int32_t
vocab_id(struct ld *l, const char *s, size_t n)
{
	size_t kn;
	const char *k = model_key(l, s, n, &kn);

	if (k)
		return bpe_lookup(l->p->bpe, k, kn);
	return l->p->odd ? bpe_lookup(l->p->odd, s, n) : -1;
}

static int
merge_parts(const struct json *m, const char **a, size_t *an, const char **b,
	    size_t *bn)
{
	const char *s, *sp;
	size_t n;

	if (m->type == JSON_ARRAY && m->len == 2 &&
	    json_is_str(m->child) && json_is_str(m->child->next)) {
		*a = json_str(m->child, an);
		*b = json_str(m->child->next, bn);
		return 0;
	}
	if (!(s = json_str(m, &n)) || !(sp = memchr(s, ' ', n)) ||
	    memchr(sp + 1, ' ', (size_t)(s + n - sp - 1)))
		return -1;
	*a = s;
	*an = (size_t)(sp - s);
	*b = sp + 1;
	*bn = (size_t)(s + n - sp - 1);
	return 0;
}

static int
load_merges(struct ld *l, const struct json *merges)
{
	const struct json *m;
	const char *a, *b;
	size_t an, bn, i = 0;
	int32_t x, y, z;
	char *ab;

	if (!merges || merges->type != JSON_ARRAY)
		return fail(l, "model.merges: expected an array");
	for (m = merges->child; m; m = m->next, i++) {
		if (merge_parts(m, &a, &an, &b, &bn) < 0)
			return fail(l, "model.merges[%zu]: expected \"a b\" or "
				    "[\"a\", \"b\"]", i);
		ab = xmalloc(an + bn + 1);
		memcpy(ab, a, an);
		memcpy(ab + an, b, bn);
		x = vocab_id(l, a, an);
		y = vocab_id(l, b, bn);
		z = vocab_id(l, ab, an + bn);
		free(ab);
		if (x < 0 || y < 0 || z < 0)
			return fail(l, "model.merges[%zu]: token not in the "
				    "vocabulary", i);
		bpe_add_merge(l->p->bpe, x, y, (int32_t)i, z);
	}
	return 0;
}

static int
check_model(struct ld *l, const struct json *m)
{
	const char *t = json_str_or(json_get(m, "type"), "BPE");
	const struct json *d = json_get(m, "dropout");
	size_t n = 0;
	double x;

	if (!m || m->type != JSON_OBJECT)
		return fail(l, "model: expected an object");
	if (strcmp(t, "BPE"))
		return unsupported(l, "model", t, "BPE");
	if (d && d->type != JSON_NULL && (json_double(d, &x) < 0 || x != 0.0))
		return fail(l, "model.dropout: only null is supported");
	if ((str_of(m, "continuing_subword_prefix", &n) && n) ||
	    (str_of(m, "end_of_word_suffix", &n) && n))
		return fail(l, "model: continuing_subword_prefix and "
			    "end_of_word_suffix are not supported (supported: "
			    "null or \"\")");
	return 0;
}

static int
load_model(struct ld *l, const struct json *m)
{
	const char *unk;
	size_t n;
	int32_t uid = -1;

	if (check_model(l, m) < 0)
		return -1;
	l->p->bpe = bpe_new(l->p->byte_level ? BPE_BYTES : BPE_CHARS);
	if (load_vocab(l, json_get(m, "vocab")) < 0 ||
	    load_merges(l, json_get(m, "merges")) < 0)
		return -1;
	if ((unk = str_of(m, "unk_token", &n)) && (uid = vocab_id(l, unk, n)) < 0)
		return fail(l, "model.unk_token '%s' is not in the vocabulary",
			    unk);
	bpe_set_unk(l->p->bpe, uid, bool_of(m, "fuse_unk", 0),
		    bool_of(m, "byte_fallback", 0));
	bpe_set_ignore_merges(l->p->bpe, bool_of(m, "ignore_merges", 0));
	bpe_seal(l->p->bpe);
	l->p->cut_meta = !l->p->byte_level &&
			 bpe_prefix_only(l->p->bpe, "\xe2\x96\x81", 3);
	return 0;
}

/* The id HF's AddedVocabulary::add_tokens gives content: the model's own
 * id, else one past the added ids so far (at least the vocabulary size);
 * the id written in the file is only checked there, with a warning. */
static int32_t
added_id(struct ld *l, const char *s, size_t n, int32_t *max)
{
	int32_t id = vocab_id(l, s, n), size;

	if (id < 0) {
		size = (int32_t)bpe_count(l->p->bpe);
		id = *max < 0 ? size : *max >= size || size == 0 ? *max + 1 : size;
	}
	if (id > *max)
		*max = id;
	return id;
}

static int
added_flags(const struct json *a)
{
	return (bool_of(a, "special", 0) ? ADDED_SPECIAL : 0) |
	       (bool_of(a, "normalized", 0) ? ADDED_NORMALIZED : 0) |
	       (bool_of(a, "lstrip", 0) ? ADDED_LSTRIP : 0) |
	       (bool_of(a, "rstrip", 0) ? ADDED_RSTRIP : 0) |
	       (bool_of(a, "single_word", 0) ? ADDED_SINGLE_WORD : 0);
}

static int
add_one(struct ld *l, const struct json *a, size_t i, struct bpe *seen,
	int32_t *max)
{
	const char *s;
	size_t n;
	int32_t k;

	if (!(s = str_of(a, "content", &n)))
		return fail(l, "added_tokens[%zu]: expected content", i);
	if (!n)
		return 0;
	if ((k = bpe_lookup(seen, s, n)) >= 0) {
		if (l->p->added[k].id > *max)
			*max = l->p->added[k].id;
		return 0;
	}
	if (bpe_add(seen, s, n, (int32_t)l->p->nadded, 1) < 0 ||
	    tokpipe_add_token(l->p, s, n, added_id(l, s, n, max),
			      added_flags(a)) < 0)
		return fail(l, "added_tokens[%zu]: bad id", i);
	return 0;
}

/* A content seen twice keeps its first entry. */
static int
load_added(struct ld *l, const struct json *v)
{
	const struct json *a;
	struct bpe *seen;
	int32_t max = -1;
	size_t i = 0;
	int rc = 0;

	if (!v || v->type == JSON_NULL)
		return 0;
	if (v->type != JSON_ARRAY)
		return fail(l, "added_tokens: expected an array");
	seen = bpe_new(BPE_CHARS);
	for (a = v->child; a && rc == 0; a = a->next, i++)
		rc = add_one(l, a, i, seen, &max);
	bpe_free(seen);
	return rc;
}

int
hftok_parse(struct tokpipe *p, const char *json, size_t n, const char *name,
	    char *err, size_t errlen)
{
	struct ld l = { p, name, err, errlen, BUF_INIT(BUF_NOMAX) };
	struct json_doc *d = json_doc_new();
	const struct json *root, *dec;
	char jerr[128];
	int rc = -1;

	root = json_parse(d, json, n, jerr, sizeof(jerr));
	if (!root) {
		fail(&l, "not valid JSON: %s", jerr);
		goto out;
	}
	if (root->type != JSON_OBJECT || !json_get(root, "model")) {
		fail(&l, "not a tokenizer.json (no \"model\" object)");
		goto out;
	}
	p->match_added = 1;
	dec = json_get(root, "decoder");
	if (add_norm(&l, json_get(root, "normalizer"), 0) < 0 ||
	    load_pre(&l, json_get(root, "pre_tokenizer")) < 0 ||
	    load_model(&l, json_get(root, "model")) < 0 ||
	    load_added(&l, json_get(root, "added_tokens")) < 0 ||
	    (dec && dec->type != JSON_NULL && add_dec(&l, dec, 0) < 0))
		goto out;
	p->has_decoder = dec && dec->type != JSON_NULL;
	tokpipe_seal(p);
	rc = 0;
out:
	json_doc_free(d);
	buf_release(&l.tmp);
	return rc;
}
