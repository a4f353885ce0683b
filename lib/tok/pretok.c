/* SPDX-License-Identifier: Apache-2.0 */
/* Pre-tokenizers on Oniguruma regexes, splitting as HF tokenizers' PreTokenizedString does. */
#include "tok/pretok.h"

#include <oniguruma.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "tok/gptre.h"
#include "util.h"

#define MAX_STEPS 16

enum kind { K_SPLIT, K_BYTELEVEL, K_DIGITS, K_METASPACE };

struct pretok_re {
	OnigRegex re;
};

struct step {
	enum kind kind;
	enum pretok_behavior beh;
	int invert, prefix_space, individual, split;
	enum pretok_prepend scheme;
	struct pretok_re *re;	/* regex split, ByteLevel use_regex */
	int fast;		/* gptre kind of the regex, or 0 */
	char *lit;		/* literal split, Metaspace replacement */
	size_t litlen;
};

struct pretok {
	struct step step[MAX_STEPS];
	size_t n;
};

/* GPT-2's pattern, used by ByteLevel with use_regex. */
static const char gpt2_re[] =
	"'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+"
	"|\\s+(?!\\S)|\\s+";

static pthread_once_t onig_once = PTHREAD_ONCE_INIT;

static void
onig_setup(void)
{
	OnigEncoding enc = ONIG_ENCODING_UTF8;

	onig_initialize(&enc, 1);
}

struct pretok_re *
pretok_re_new(const char *pat, size_t n, char *err, size_t errlen)
{
	struct pretok_re *r = xcalloc(1, sizeof(*r));
	OnigErrorInfo ei;
	OnigUChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
	int rc;

	pthread_once(&onig_once, onig_setup);
	rc = onig_new(&r->re, (const OnigUChar *)pat, (const OnigUChar *)pat + n,
		      ONIG_OPTION_NONE, ONIG_ENCODING_UTF8, ONIG_SYNTAX_DEFAULT,
		      &ei);
	if (rc != ONIG_NORMAL) {
		onig_error_code_to_str(msg, rc, &ei);
		snprintf(err, errlen, "bad regex: %s", (char *)msg);
		free(r);
		return NULL;
	}
	return r;
}

void
pretok_re_free(struct pretok_re *r)
{
	if (!r)
		return;
	onig_free(r->re);
	free(r);
}

static int
search(const struct pretok_re *r, const char *s, size_t n, size_t from,
       OnigRegion *reg, size_t *b, size_t *e)
{
	const OnigUChar *u = (const OnigUChar *)s;
	int rc = onig_search(r->re, u, u + n, u + from, u + n, reg,
			     ONIG_OPTION_NONE);

	if (rc < 0)
		return 0;
	*b = (size_t)reg->beg[0];
	*e = (size_t)reg->end[0];
	return 1;
}

int
pretok_re_find(const struct pretok_re *r, const char *s, size_t n, size_t from,
	       size_t *b, size_t *e)
{
	OnigRegion reg;
	int rc;

	onig_region_init(&reg);
	rc = search(r, s, n, from, &reg, b, e);
	onig_region_free(&reg, 0);
	return rc;
}

struct pretok *
pretok_new(void)
{
	return xcalloc(1, sizeof(struct pretok));
}

void
pretok_free(struct pretok *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		pretok_re_free(p->step[i].re);
		free(p->step[i].lit);
	}
	free(p);
}

static struct step *
step_new(struct pretok *p, enum kind kind, char *err, size_t errlen)
{
	struct step *st;

	if (p->n == MAX_STEPS) {
		if (err)
			snprintf(err, errlen, "more than %d pre-tokenizer steps",
				 MAX_STEPS);
		return NULL;
	}
	st = &p->step[p->n];
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->beh = PRETOK_ISOLATED;
	return st;
}

int
pretok_add_split(struct pretok *p, const char *pat, size_t n, int is_regex,
		 enum pretok_behavior beh, int invert, char *err, size_t errlen)
{
	struct step *st = step_new(p, K_SPLIT, err, errlen);

	if (!st)
		return -1;
	if (is_regex && (st->fast = gptre_kind(pat, n))) {
		/* matched by lib/gptre */
	} else if (is_regex) {
		st->re = pretok_re_new(pat, n, err, errlen);
		if (!st->re)
			return -1;
	} else {
		st->lit = xstrndup(pat, n);
		st->litlen = n;
	}
	st->beh = beh;
	st->invert = invert;
	p->n++;
	return 0;
}

int
pretok_add_bytelevel(struct pretok *p, int add_prefix_space, int use_regex,
		     char *err, size_t errlen)
{
	struct step *st = step_new(p, K_BYTELEVEL, err, errlen);

	if (!st)
		return -1;
	if (use_regex) {
		st->re = pretok_re_new(gpt2_re, sizeof(gpt2_re) - 1, err, errlen);
		if (!st->re)
			return -1;
	}
	st->prefix_space = add_prefix_space;
	p->n++;
	return 0;
}

void
pretok_add_digits(struct pretok *p, int individual)
{
	struct step *st = step_new(p, K_DIGITS, NULL, 0);

	if (!st)
		return;
	st->individual = individual;
	st->beh = individual ? PRETOK_ISOLATED : PRETOK_CONTIGUOUS;
	p->n++;
}

void
pretok_add_metaspace(struct pretok *p, const char *repl, size_t n,
		     enum pretok_prepend scheme, int split)
{
	struct step *st = step_new(p, K_METASPACE, NULL, 0);

	if (!st)
		return;
	st->lit = xstrndup(repl, n);
	st->litlen = n;
	st->scheme = scheme;
	st->split = split;
	st->beh = PRETOK_MERGED_NEXT;
	p->n++;
}

size_t
pretok_nsteps(const struct pretok *p)
{
	return p->n;
}

int
pretok_bytelevel_at(const struct pretok *p)
{
	int i, at = -1;

	for (i = 0; i < (int)p->n; i++)
		if (p->step[i].kind == K_BYTELEVEL)
			at = i;
	return at;
}

/* Splitting one piece: pieces arrive in order as (range, is_match) and are
 * combined per behavior (HF SplitDelimiterBehavior) before going on. */
struct run {
	const struct pretok *p;
	pretok_fn fn;
	void *ctx;
};

struct emitter {
	const struct run *r;
	size_t k;
	const char *s;
	int at_start;
	enum pretok_behavior beh;
	int has, pm, hm, rc;
	size_t ps, pe;
};

static int run_step(const struct run *r, size_t k, const char *s, size_t n,
		    int at_start);

static void
emit(struct emitter *em, size_t b, size_t e)
{
	if (e > b && !em->rc)
		em->rc = run_step(em->r, em->k + 1, em->s + b, e - b,
				  em->at_start && b == 0);
}

static void
hold(struct emitter *em, size_t b, size_t e, int m)
{
	em->has = 1;
	em->ps = b;
	em->pe = e;
	em->hm = m;
}

static void
piece(struct emitter *em, size_t b, size_t e, int m)
{
	switch (em->beh) {
	case PRETOK_REMOVED:
		if (!m)
			emit(em, b, e);
		break;
	case PRETOK_ISOLATED:
		emit(em, b, e);
		break;
	case PRETOK_MERGED_PREV:
		if (m && !em->pm && em->has) {
			em->pe = e;
			break;
		}
		if (em->has)
			emit(em, em->ps, em->pe);
		hold(em, b, e, m);
		break;
	case PRETOK_MERGED_NEXT:
		if (em->has && em->hm && !m) {
			emit(em, em->ps, e);
			em->has = 0;
			break;
		}
		if (em->has)
			emit(em, em->ps, em->pe);
		em->has = 0;
		if (m)
			hold(em, b, e, m);
		else
			emit(em, b, e);
		break;
	case PRETOK_CONTIGUOUS:
		if (em->has && m == em->pm) {
			em->pe = e;
			break;
		}
		if (em->has)
			emit(em, em->ps, em->pe);
		hold(em, b, e, m);
		break;
	}
	em->pm = m;
}

static int
finish(struct emitter *em)
{
	if (em->has)
		emit(em, em->ps, em->pe);
	return em->rc;
}

static size_t
clen(const char *s, size_t i, size_t n)
{
	unsigned char c = (unsigned char)s[i];
	size_t l = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;

	return l > n - i ? n - i : l;
}

/* A match or a gap, after invert. */
static void
found(struct emitter *em, const struct step *st, size_t *prev, size_t b,
      size_t e)
{
	if (*prev != b)
		piece(em, *prev, b, st->invert);
	piece(em, b, e, !st->invert);
	*prev = e;
}

/* onig's find_iter: no empty match right after the previous match. */
static void
split_regex(struct emitter *em, const struct step *st, const char *s, size_t n)
{
	size_t last = 0, lme = (size_t)-1, b, e, prev = 0;
	OnigRegion reg;

	onig_region_init(&reg);
	while (last <= n && search(st->re, s, n, last, &reg, &b, &e)) {
		if (b == e && lme == e) {
			last += last < n ? clen(s, last, n) : 1;
			continue;
		}
		last = lme = e;
		found(em, st, &prev, b, e);
		if (em->rc)
			break;
	}
	onig_region_free(&reg, 0);
	if (prev != n && !em->rc)
		piece(em, prev, n, st->invert);
}

/* A gptre pattern: consecutive matches, no gaps. */
static void
split_fast(struct emitter *em, const struct step *st, const char *s, size_t n)
{
	size_t i = 0, e, prev = 0;

	if (st->beh == PRETOK_ISOLATED && em->k + 1 == em->r->p->n) {
		/* the last step isolating every match: straight to the callback */
		for (; i < n && !em->rc; i = e) {
			e = gptre_match(st->fast, s, n, i);
			if (e <= i)
				e = i + 1;
			em->rc = em->r->fn(em->r->ctx, s + i, e - i);
		}
		return;
	}
	while (i < n && !em->rc) {
		e = gptre_match(st->fast, s, n, i);
		if (e <= i)
			e = i + 1;
		found(em, st, &prev, i, e);
		i = e;
	}
}

static void
split_lit(struct emitter *em, const struct step *st, const char *s, size_t n)
{
	size_t i = 0, prev = 0;

	while (st->litlen && i + st->litlen <= n) {
		if (memcmp(s + i, st->lit, st->litlen)) {
			i++;
			continue;
		}
		found(em, st, &prev, i, i + st->litlen);
		i += st->litlen;
	}
	if (prev != n)
		piece(em, prev, n, st->invert);
}

static int
is_numeric(const char *s, size_t n)
{
	utf8proc_int32_t cp;
	utf8proc_category_t c;

	if (utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n,
			     &cp) < 0)
		return 0;
	c = utf8proc_category(cp);
	return c == UTF8PROC_CATEGORY_ND || c == UTF8PROC_CATEGORY_NL ||
	       c == UTF8PROC_CATEGORY_NO;
}

static void
split_digits(struct emitter *em, const char *s, size_t n)
{
	size_t i, l, prev = 0;

	for (i = 0; i < n; i += l) {
		l = clen(s, i, n);
		if (!is_numeric(s + i, l))
			continue;
		if (prev != i)
			piece(em, prev, i, 0);
		piece(em, i, i + l, 1);
		prev = i + l;
	}
	if (prev != n)
		piece(em, prev, n, 0);
}

static int
split_with(const struct run *r, size_t k, const char *s, size_t n,
	   int at_start)
{
	const struct step *st = &r->p->step[k];
	struct emitter em = { r, k, s, at_start, st->beh, 0, 0, 0, 0, 0, 0 };

	if (st->kind == K_DIGITS)
		split_digits(&em, s, n);
	else if (st->fast)
		split_fast(&em, st, s, n);
	else if (st->re)
		split_regex(&em, st, s, n);
	else
		split_lit(&em, st, s, n);
	return finish(&em);
}

static int
bytelevel(const struct run *r, size_t k, const char *s, size_t n,
	  int at_start)
{
	const struct step *st = &r->p->step[k];
	char *c = NULL;
	int rc;

	if (st->prefix_space && (n == 0 || s[0] != ' ')) {
		c = xmalloc(n + 1);
		c[0] = ' ';
		memcpy(c + 1, s, n);
		s = c;
		n++;
	}
	if (st->re)
		rc = split_with(r, k, s, n, at_start);
	else
		rc = run_step(r, k + 1, s, n, at_start);
	free(c);
	return rc;
}

static int
metaspace(const struct run *r, size_t k, const char *s, size_t n, int at_start)
{
	const struct step *st = &r->p->step[k];
	size_t i, j = 0, cap = (n + 1) * (st->litlen + 1);
	char *c = xmalloc(cap);
	int rc, pre;

	pre = st->scheme == PRETOK_ALWAYS ||
	      (st->scheme == PRETOK_FIRST && at_start);
	for (i = 0; i < n; i++) {
		if (s[i] != ' ') {
			c[j++] = s[i];
			continue;
		}
		memcpy(c + j, st->lit, st->litlen);
		j += st->litlen;
	}
	if (pre && !(j >= st->litlen && !memcmp(c, st->lit, st->litlen))) {
		memmove(c + st->litlen, c, j);
		memcpy(c, st->lit, st->litlen);
		j += st->litlen;
	}
	if (st->split)
		rc = split_with(r, k, c, j, at_start);
	else
		rc = run_step(r, k + 1, c, j, at_start);
	free(c);
	return rc;
}

static int
run_step(const struct run *r, size_t k, const char *s, size_t n, int at_start)
{
	if (n == 0)
		return 0;
	if (k == r->p->n)
		return r->fn(r->ctx, s, n);
	switch (r->p->step[k].kind) {
	case K_BYTELEVEL:
		return bytelevel(r, k, s, n, at_start);
	case K_METASPACE:
		return metaspace(r, k, s, n, at_start);
	default:
		return split_with(r, k, s, n, at_start);
	}
}

int
pretok_run(const struct pretok *p, const char *s, size_t n, int at_start,
	   pretok_fn fn, void *ctx)
{
	struct run r = { p, fn, ctx };

	return run_step(&r, 0, s, n, at_start);
}
