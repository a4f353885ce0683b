/* SPDX-License-Identifier: Apache-2.0 */
/* A strict, bounded parser of the Prometheus text exposition format. */
#include "prom/prom.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hmap.h"
#include "prom/promline.h"
#include "util.h"

const struct prom_limits prom_default_limits = {
	.max_body = 16 << 20,
	.max_line = 64 << 10,
	.max_series = 100000,
	.max_labels = 64,
};

/* Per-family state the public struct does not show. */
enum fam_flags {
	FAM_TYPED = 1 << 0,
	FAM_USED = 1 << 1,	/* a sample was read */
	FAM_WARNED = 1 << 2,	/* the unsupported-type warning is out */
};

struct index {
	struct hmap fams, series;
	unsigned char *famflags;
	size_t flagcap;
};

/* One parse in progress. */
struct ctx {
	struct prom *p;
	struct index *ix;
	const struct prom_limits *lim;
	size_t lineno;
	char *err;
	size_t errlen;
	int full_warned;
	struct buf key;
};

static const char *const type_names[] = {
	"untyped", "counter", "gauge", "histogram", "summary", "info",
	"stateset", "gaugehistogram",
};

const char *
prom_type_name(enum prom_type t)
{
	return (size_t)t < sizeof(type_names) / sizeof(type_names[0]) ?
		type_names[t] : "untyped";
}

void
prom_init(struct prom *p)
{
	memset(p, 0, sizeof(*p));
}

void
prom_release(struct prom *p)
{
	struct index *ix = p->index;

	for (size_t i = 0; i < p->nfam; i++) {
		free(p->fam[i].name);
		free(p->fam[i].help);
	}
	for (size_t i = 0; i < p->nser; i++) {
		struct prom_series *s = &p->ser[i];
		promline_labels_free(s->labels, s->nlabels);
		for (size_t j = 0; j < s->nbuckets; j++)
			free(s->buckets[j].le_text);
		free(s->buckets);
		free(s->key);
	}
	for (size_t i = 0; i < PROM_MAX_WARN; i++)
		free(p->warn[i]);
	free(p->fam);
	free(p->ser);
	if (ix) {
		hmap_release(&ix->fams);
		hmap_release(&ix->series);
		free(ix->famflags);
		free(ix);
	}
	prom_init(p);
}

FMT(2, 3) static void
warnf(struct ctx *c, const char *fmt, ...)
{
	struct prom *p = c->p;
	va_list ap;
	char msg[256];

	if (p->nwarn < PROM_MAX_WARN) {
		int n = c->lineno ? snprintf(msg, sizeof(msg), "line %zu: ", c->lineno) : 0;
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
		va_end(ap);
		p->warn[p->nwarn] = xstrdup(msg);
	}
	p->nwarn++;
}

FMT(2, 3) static int
fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!c->errlen)
		return -1;
	n = snprintf(c->err, c->errlen, "line %zu: ", c->lineno);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Two independent FNV-1a hashes: the map's key pair. */
static void
hash2(const char *s, size_t n, uint64_t *a, uint64_t *b)
{
	uint64_t x = 0xcbf29ce484222325ULL, y = 0x84222325cbf29ce4ULL;

	for (size_t i = 0; i < n; i++) {
		x = (x ^ (unsigned char)s[i]) * 0x100000001b3ULL;
		y = (y ^ (unsigned char)s[i]) * 0x1000193ULL + 0x9e3779b97f4a7c15ULL;
	}
	*a = x;
	*b = y;
}

/* The family named s[0..n), or SIZE_MAX. */
static size_t
fam_find(const struct ctx *c, const char *s, size_t n)
{
	uint64_t a, b, *v;

	hash2(s, n, &a, &b);
	v = hmap_find(&c->ix->fams, a, b);
	if (!v)
		return SIZE_MAX;
	const char *name = c->p->fam[*v].name;
	return strlen(name) == n && !memcmp(name, s, n) ? (size_t)*v : SIZE_MAX;
}

/* The family named s[0..n), created untyped when new; SIZE_MAX when full. */
static size_t
fam_get(struct ctx *c, const char *s, size_t n)
{
	struct prom *p = c->p;
	struct index *ix = c->ix;
	uint64_t a, b, *v;
	int created;
	size_t i = fam_find(c, s, n);

	if (i != SIZE_MAX)
		return i;
	hash2(s, n, &a, &b);
	v = hmap_put(&ix->fams, a, b, &created);
	if (!v || !created)	/* full, or a hash collision */
		return SIZE_MAX;
	if (p->nfam == p->famcap) {
		p->famcap = p->famcap ? 2 * p->famcap : 16;
		p->fam = xreallocarray(p->fam, p->famcap, sizeof(*p->fam));
		ix->famflags = xrealloc(ix->famflags, p->famcap);
	}
	i = p->nfam++;
	*v = i;
	p->fam[i].name = xstrndup(s, n);
	p->fam[i].help = NULL;
	p->fam[i].type = PROM_UNTYPED;
	p->fam[i].dups = 0;
	ix->famflags[i] = 0;
	return i;
}

static int
label_cmp(const void *a, const void *b)
{
	return strcmp(((const struct prom_label *)a)->name,
		      ((const struct prom_label *)b)->name);
}

/* Remove label `name` from sm, returning its value (caller frees) or NULL. */
static char *
take_label(struct prom_sample *sm, const char *name)
{
	for (size_t i = 0; i < sm->nlabels; i++) {
		if (strcmp(sm->labels[i].name, name))
			continue;
		char *v = sm->labels[i].value;
		free(sm->labels[i].name);
		memmove(sm->labels + i, sm->labels + i + 1,
			(sm->nlabels - i - 1) * sizeof(*sm->labels));
		sm->nlabels--;
		return v;
	}
	return NULL;
}

/* The series of family f with sm's labels; created when new. NULL: full. */
static struct prom_series *
series_get(struct ctx *c, size_t f, struct prom_sample *sm)
{
	struct prom *p = c->p;
	uint64_t a, b, *v;
	int created;

	if (sm->nlabels > 1)
		qsort(sm->labels, sm->nlabels, sizeof(*sm->labels), label_cmp);
	buf_reset(&c->key);
	buf_addf(&c->key, "%zu", f);
	for (size_t i = 0; i < sm->nlabels; i++)
		buf_addf(&c->key, "\x1f%s\x1e%s", sm->labels[i].name,
			 sm->labels[i].value);
	hash2(c->key.s, c->key.len, &a, &b);
	v = hmap_find(&c->ix->series, a, b);
	if (v)
		return strcmp(p->ser[*v].key, c->key.s) ? NULL : &p->ser[*v];
	if (p->nser >= c->lim->max_series ||
	    !(v = hmap_put(&c->ix->series, a, b, &created))) {
		if (!c->full_warned++)
			warnf(c, "more than %zu series: the rest are dropped",
			      c->lim->max_series);
		return NULL;
	}
	if (p->nser == p->sercap) {
		p->sercap = p->sercap ? 2 * p->sercap : 64;
		p->ser = xreallocarray(p->ser, p->sercap, sizeof(*p->ser));
	}
	*v = p->nser;
	struct prom_series *s = &p->ser[p->nser++];
	memset(s, 0, sizeof(*s));
	s->family = f;
	s->labels = sm->labels;
	s->nlabels = sm->nlabels;
	s->key = xstrdup(c->key.s);
	sm->labels = NULL;	/* the series owns them now */
	sm->nlabels = sm->cap = 0;
	return s;
}

enum role { R_VALUE, R_BUCKET, R_SUM, R_COUNT, R_CREATED };

static int
has_suffix(const struct prom_sample *sm, const char *suf, size_t *stem)
{
	size_t n = strlen(suf);

	if (sm->nlen <= n || memcmp(sm->name + sm->nlen - n, suf, n))
		return 0;
	*stem = sm->nlen - n;
	return 1;
}

/* Which family a sample name belongs to, and in which role. */
static size_t
resolve(struct ctx *c, const struct prom_sample *sm, enum role *role)
{
	static const struct { const char *suf; enum role r; unsigned types; } sx[] = {
		{ "_bucket", R_BUCKET, 1u << PROM_HISTOGRAM | 1u << PROM_GAUGEHISTOGRAM },
		{ "_sum", R_SUM, 1u << PROM_HISTOGRAM | 1u << PROM_SUMMARY },
		{ "_count", R_COUNT, 1u << PROM_HISTOGRAM | 1u << PROM_SUMMARY },
		{ "_gsum", R_SUM, 1u << PROM_GAUGEHISTOGRAM },
		{ "_gcount", R_COUNT, 1u << PROM_GAUGEHISTOGRAM },
		{ "_total", R_VALUE, 1u << PROM_COUNTER },
		{ "_created", R_CREATED, 1u << PROM_COUNTER | 1u << PROM_HISTOGRAM | 1u << PROM_SUMMARY },
		{ "_info", R_VALUE, 1u << PROM_INFO },
	};
	size_t f = fam_find(c, sm->name, sm->nlen), stem;

	*role = R_VALUE;
	if (f != SIZE_MAX && (c->ix->famflags[f] & FAM_TYPED))
		return f;
	for (size_t i = 0; i < sizeof(sx) / sizeof(sx[0]); i++) {
		if (!has_suffix(sm, sx[i].suf, &stem))
			continue;
		size_t g = fam_find(c, sm->name, stem);
		if (g != SIZE_MAX && (sx[i].types >> c->p->fam[g].type & 1)) {
			*role = sx[i].r;
			return g;
		}
	}
	return f != SIZE_MAX ? f : fam_get(c, sm->name, sm->nlen);
}

/* Duplicates are found once the buckets are sorted (finish_histograms):
 * a check here would be quadratic in a hostile histogram's buckets. */
static void
add_bucket(struct prom_series *s, char *le_text, double le, double count)
{
	if (s->nbuckets == s->bcap) {
		s->bcap = s->bcap ? 2 * s->bcap : 16;
		s->buckets = xreallocarray(s->buckets, s->bcap, sizeof(*s->buckets));
	}
	s->buckets[s->nbuckets++] = (struct prom_bucket){ le, le_text, count };
}

/* Store sm as role r of family f's series. */
static void
store(struct ctx *c, size_t f, enum role r, struct prom_sample *sm)
{
	const char *fname = c->p->fam[f].name;
	char *le_text = NULL;
	double le = 0;

	if (r == R_BUCKET) {
		le_text = take_label(sm, "le");
		const char *q = le_text;
		if (!le_text || promline_number(&q, q + strlen(q), &le) < 0 || *q ||
		    isnan(le)) {
			warnf(c, "bucket of '%s' without a numeric le label: dropped", fname);
			free(le_text);
			return;
		}
	}
	struct prom_series *s = series_get(c, f, sm);
	if (!s) {
		free(le_text);
		return;
	}
	unsigned bit = r == R_SUM ? PROM_HAVE_SUM : r == R_COUNT ? PROM_HAVE_COUNT :
		       r == R_VALUE ? PROM_HAVE_VALUE : 0;
	if (s->have & bit) {
		c->p->fam[f].dups++;	/* one warning a family: finish_dups() */
		return;
	}
	s->have |= bit;
	if (sm->has_ts) {
		s->have |= PROM_HAVE_TS;
		s->ts = sm->ts;
	}
	if (r == R_BUCKET)
		add_bucket(s, le_text, le, sm->value);
	else if (r == R_SUM)
		s->sum = sm->value;
	else if (r == R_COUNT)
		s->count = sm->value;
	else
		s->value = sm->value;
}

static int
parse_sample(struct ctx *c, const char *s, const char *end)
{
	struct prom_sample sm;
	enum role r;
	char why[200];

	if (promline_sample(s, end, &sm, c->lim->max_labels, c->lim->max_line,
			    why, sizeof(why)) < 0) {
		promline_sample_release(&sm);
		return fail(c, "%s", why);
	}
	size_t f = resolve(c, &sm, &r);
	if (f == SIZE_MAX) {
		if (!c->full_warned++)
			warnf(c, "too many metric families: the rest are dropped");
		promline_sample_release(&sm);
		return 0;
	}
	unsigned char *fl = &c->ix->famflags[f];
	enum prom_type t = c->p->fam[f].type;
	*fl |= FAM_USED;
	if (t == PROM_SUMMARY || t == PROM_GAUGEHISTOGRAM) {
		if (!(*fl & FAM_WARNED))
			warnf(c, "%s '%s' is not supported: dropped", prom_type_name(t),
			      c->p->fam[f].name);
		*fl |= FAM_WARNED;
	} else if (t == PROM_HISTOGRAM && r == R_VALUE) {
		warnf(c, "sample '%.*s' does not fit histogram '%s': dropped",
		      (int)sm.nlen, sm.name, c->p->fam[f].name);
	} else if (r != R_CREATED) {
		/* OpenMetrics creation times (_created) are not samples */
		store(c, f, r, &sm);
	}
	promline_sample_release(&sm);
	return 0;
}

static int
parse_type(const char *s, const char *end, enum prom_type *t)
{
	static const struct { const char *name; enum prom_type t; } map[] = {
		{ "counter", PROM_COUNTER }, { "gauge", PROM_GAUGE },
		{ "histogram", PROM_HISTOGRAM }, { "summary", PROM_SUMMARY },
		{ "untyped", PROM_UNTYPED }, { "unknown", PROM_UNTYPED },
		{ "info", PROM_INFO }, { "stateset", PROM_STATESET },
		{ "gaugehistogram", PROM_GAUGEHISTOGRAM },
	};
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if ((size_t)(end - s) == strlen(map[i].name) &&
		    !memcmp(s, map[i].name, (size_t)(end - s))) {
			*t = map[i].t;
			return 0;
		}
	}
	return -1;
}

/* HELP text: \\ and \n are escapes, any other backslash stays. */
static char *
help_text(const char *s, const char *end)
{
	char *out = xmalloc((size_t)(end - s) + 1), *o = out;

	for (; s < end; s++) {
		if (*s == '\\' && s + 1 < end && (s[1] == '\\' || s[1] == 'n')) {
			*o++ = s[1] == 'n' ? '\n' : '\\';
			s++;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

static int
parse_meta(struct ctx *c, int is_type, const char *s, const char *end)
{
	size_t n = promline_name(s, end);
	enum prom_type t = PROM_UNTYPED;

	if (!n || (s + n < end && s[n] != ' ' && s[n] != '\t'))
		return fail(c, "bad metric name after # %s", is_type ? "TYPE" : "HELP");
	const char *rest = promline_blank(s + n, end);
	if (is_type && parse_type(promline_blank(rest, end), end, &t) < 0)
		return fail(c, "unknown type '%.*s'", (int)(end - rest), rest);
	if (!is_type && !promline_utf8(rest, (size_t)(end - rest)))
		return fail(c, "HELP text is not UTF-8");
	size_t f = fam_get(c, s, n);
	if (f == SIZE_MAX) {
		if (!c->full_warned++)
			warnf(c, "too many metric families: the rest are dropped");
		return 0;
	}
	struct prom_family *fam = &c->p->fam[f];
	unsigned char *fl = &c->ix->famflags[f];
	if (!is_type) {
		if (fam->help)
			warnf(c, "second HELP for '%s' ignored", fam->name);
		else
			fam->help = help_text(rest, end);
	} else if (*fl & (FAM_TYPED | FAM_USED)) {
		warnf(c, "TYPE for '%s' after its %s ignored", fam->name,
		      *fl & FAM_TYPED ? "first TYPE" : "samples");
	} else {
		fam->type = t;
		*fl |= FAM_TYPED;
	}
	return 0;
}

/* A line starting with '#': HELP, TYPE, EOF, or a comment. 1 at # EOF. */
static int
parse_comment(struct ctx *c, const char *s, const char *end)
{
	const char *w = promline_blank(s + 1, end), *q = w;

	while (q < end && *q != ' ' && *q != '\t')
		q++;
	size_t n = (size_t)(q - w);
	if (n == 3 && !memcmp(w, "EOF", 3) && promline_blank(q, end) == end)
		return 1;
	if (w == s + 1 || q == end || n != 4 ||
	    (memcmp(w, "HELP", 4) && memcmp(w, "TYPE", 4)))
		return 0;	/* a plain comment */
	return parse_meta(c, w[0] == 'T', promline_blank(q, end), end);
}

static int
parse_line(struct ctx *c, const char *s, const char *end)
{
	if (end > s && end[-1] == '\r')
		end--;
	if (memchr(s, '\0', (size_t)(end - s)))
		return fail(c, "NUL byte");
	s = promline_blank(s, end);
	if (s == end)
		return 0;
	if (*s == '#')
		return parse_comment(c, s, end);
	return parse_sample(c, s, end);
}

/* By le; equal ones by their text, then count, so the order is total. */
static int
bucket_cmp(const void *a, const void *b)
{
	const struct prom_bucket *x = a, *y = b;
	int t;

	if (x->le != y->le)
		return x->le < y->le ? -1 : 1;
	t = strcmp(x->le_text, y->le_text);
	if (t)
		return t;
	return x->count < y->count ? -1 : x->count > y->count;
}

/* Sort the buckets and drop repeated bounds (counted as duplicates). */
static void
sort_buckets(struct ctx *c, struct prom_series *s)
{
	size_t n = 0;

	if (s->nbuckets > 1)
		qsort(s->buckets, s->nbuckets, sizeof(*s->buckets), bucket_cmp);
	for (size_t j = 0; j < s->nbuckets; j++) {
		if (n && s->buckets[j].le == s->buckets[n - 1].le) {
			c->p->fam[s->family].dups++;
			free(s->buckets[j].le_text);
			continue;
		}
		s->buckets[n++] = s->buckets[j];
	}
	s->nbuckets = n;
}

/* Sort each histogram's buckets; warn about what a reader cannot use. */
static void
finish_histograms(struct ctx *c)
{
	struct prom *p = c->p;

	c->lineno = 0;
	for (size_t i = 0; i < p->nser; i++) {
		struct prom_series *s = &p->ser[i];
		const char *name = p->fam[s->family].name;
		if (p->fam[s->family].type != PROM_HISTOGRAM)
			continue;
		sort_buckets(c, s);
		if (!s->nbuckets || !isinf(s->buckets[s->nbuckets - 1].le))
			warnf(c, "histogram '%s' has no +Inf bucket", name);
		for (size_t j = 1; j < s->nbuckets; j++) {
			if (s->buckets[j].count < s->buckets[j - 1].count) {
				warnf(c, "histogram '%s' has decreasing bucket counts", name);
				break;
			}
		}
	}
}

/* One warning for each family with duplicate samples, however many. */
static void
finish_dups(struct ctx *c)
{
	const struct prom *p = c->p;

	c->lineno = 0;
	for (size_t i = 0; i < p->nfam; i++)
		if (p->fam[i].dups)
			warnf(c, "%zu duplicate sample%s of '%s' dropped: the first of each "
			      "series kept", p->fam[i].dups, p->fam[i].dups == 1 ? "" : "s",
			      p->fam[i].name);
}

static int
parse_lines(struct ctx *c, const char *text, size_t len)
{
	const char *s = text, *end = text + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;
		c->lineno++;
		if ((size_t)(le - s) > c->lim->max_line)
			return fail(c, "line longer than %zu bytes", c->lim->max_line);
		int rc = parse_line(c, s, le);
		if (rc < 0)
			return -1;
		s = nl ? nl + 1 : end;
		if (rc == 1) {
			if (promline_blank(s, end) != end && !(end - s == 1 && *s == '\n'))
				warnf(c, "text after # EOF ignored");
			break;
		}
	}
	return 0;
}

int
prom_parse(struct prom *p, const char *text, size_t len,
	   const struct prom_limits *lim, char *err, size_t errlen)
{
	struct ctx c = { .p = p, .lim = lim ? lim : &prom_default_limits,
			 .err = err, .errlen = errlen };
	int rc;

	if (errlen)
		err[0] = '\0';
	if (len > c.lim->max_body)
		return util_seterr(err, errlen, "exposition of %zu bytes is larger "
				   "than the limit of %zu", len, c.lim->max_body);
	c.ix = p->index = xcalloc(1, sizeof(*c.ix));
	hmap_init(&c.ix->fams, c.lim->max_series + 1024);
	hmap_init(&c.ix->series, c.lim->max_series);
	buf_init(&c.key, BUF_NOMAX);
	rc = parse_lines(&c, text, len);
	if (!rc) {
		finish_histograms(&c);
		finish_dups(&c);
	}
	buf_release(&c.key);
	return rc;
}
