/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The custom GPU metrics CSV. What the original does, and where this
 * differs: it reads lines as Python's text files do (\n, \r\n or \r
 * ends one), strips each line and each of the first three comma-split
 * parts with Python's str.strip() (Unicode whitespace; here ASCII), takes
 * any field that starts with "DCGM_FI_" (here it must also be a valid
 * metric name, or no sample could carry it), lower-cases and title-cases
 * with Unicode rules (here ASCII letters only, other bytes kept), and a
 * file that is not UTF-8 loses every custom metric there (here only the
 * lines that are not UTF-8). A field named twice is taken once here (the
 * original lists the metric twice).
 */
#include "gpucsv.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static int
is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

static int
is_upper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static void
strip(const char **s, size_t *n)
{
	while (*n && is_space((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && is_space((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* A Prometheus metric name: [a-zA-Z_:][a-zA-Z0-9_:]*. */
static int
metric_name(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (!(is_lower(c) || is_upper(c) || c == '_' || c == ':' ||
		      (i && c >= '0' && c <= '9')))
			return 0;
	}
	return n > 0;
}

/* Well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
static int
utf8_ok(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], need, min, cp;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			need = 1, min = 0x80, cp = c & 0x1f;
		else if ((c & 0xf0) == 0xe0)
			need = 2, min = 0x800, cp = c & 0x0f;
		else if ((c & 0xf8) == 0xf0)
			need = 3, min = 0x10000, cp = c & 0x07;
		else
			return 0;
		if (n - i <= need)
			return 0;
		for (unsigned k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

static const struct {
	const char *in;		/* lower case */
	const char *tag;
} units[] = {
	{ "w", "W" }, { "%", "%" }, { "percent", "%" }, { "gb", "GB" },
	{ "mb", "MB" }, { "kb", "KB" }, { "mhz", "MHz" }, { "ghz", "GHz" },
	{ "c", "\xc2\xb0" "C" }, { "\xc2\xb0" "c", "\xc2\xb0" "C" },
	{ "celsius", "\xc2\xb0" "C" }, { "count", "count" }, { "us", "us" },
	{ "ms", "ms" }, { "s", "sec" }, { "mj", "MJ" }, { "j", "J" },
};

/*
 * The first "(in" + whitespace + a run of neither whitespace nor ')' +
 * ')', "in" in any case: the original's re.search(r"\(in\s+([^\s)]+)\)",
 * re.IGNORECASE). Its \s also takes Unicode spaces; here ASCII.
 */
const char *
gpucsv_unit(const char *help, size_t n)
{
	for (size_t i = 0; i + 3 < n; i++) {
		size_t j = i + 3, u;
		if (help[i] != '(' || (help[i + 1] | 0x20) != 'i' ||
		    (help[i + 2] | 0x20) != 'n' || !is_space((unsigned char)help[j]))
			continue;
		while (j < n && is_space((unsigned char)help[j]))
			j++;
		u = j;
		while (j < n && !is_space((unsigned char)help[j]) && help[j] != ')')
			j++;
		if (j == u || j >= n || help[j] != ')')
			continue;
		for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
			size_t ln = strlen(units[k].in), m;
			if (ln != j - u)
				continue;
			for (m = 0; m < ln; m++) {
				int c = (unsigned char)help[u + m];
				if ((is_upper(c) ? c | 0x20 : c) != (unsigned char)units[k].in[m])
					break;
			}
			if (m == ln)
				return units[k].tag;
		}
		return "count";
	}
	return "count";
}

/* The field less every "DCGM_FI_DEV_", in lower case. */
static char *
key_of(const char *f, size_t n)
{
	static const char pre[] = "DCGM_FI_DEV_";
	char *k = xmalloc(n + 1), *p = k;

	for (size_t i = 0; i < n;) {
		if (n - i >= sizeof(pre) - 1 && !memcmp(f + i, pre, sizeof(pre) - 1)) {
			i += sizeof(pre) - 1;
			continue;
		}
		*p++ = (char)(is_upper((unsigned char)f[i]) ? f[i] | 0x20 : f[i]);
		i++;
	}
	*p = '\0';
	return k;
}

static int
acronym(const char *w, size_t n)
{
	static const char *const a[] = { "gpu", "xid", "sm", "nvlink", "pci", "pcie",
		"cpu", "ram", "vram", "ecc" };

	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		size_t k;
		if (strlen(a[i]) != n)
			continue;
		for (k = 0; k < n; k++) {
			int c = (unsigned char)w[k];
			if ((is_upper(c) ? c | 0x20 : c) != a[i][k])
				break;
		}
		if (k == n)
			return 1;
	}
	return 0;
}

/* Words (split on whitespace) joined by one space: acronyms upper case,
 * others capitalized (first letter up, the rest down). */
static char *
title(const char *s, size_t n)
{
	char *t = xmalloc(n + 1), *p = t;
	size_t i = 0;

	while (i < n) {
		size_t w;
		while (i < n && is_space((unsigned char)s[i]))
			i++;
		if (i == n)
			break;
		w = i;
		while (i < n && !is_space((unsigned char)s[i]))
			i++;
		if (p != t)
			*p++ = ' ';
		int up = acronym(s + w, i - w);
		for (size_t k = w; k < i; k++) {
			int c = (unsigned char)s[k];
			if (up || k == w)
				c = is_lower(c) ? c - 32 : c;
			else
				c = is_upper(c) ? c | 0x20 : c;
			*p++ = (char)c;
		}
	}
	*p = '\0';
	return t;
}

/* One stripped, non-comment line: a metric, or NULL with *why. */
static int
line(struct gpucsv *c, const char *s, size_t n, const char **why)
{
	const char *part[3], *c1, *c2;
	size_t len[3];
	struct gpucsv_metric m;

	if (n > GPUCSV_MAX_LINE)
		return *why = "line too long", -1;
	if (!utf8_ok((const unsigned char *)s, n))
		return *why = "not UTF-8", -1;
	if (!(c1 = memchr(s, ',', n)) ||
	    !(c2 = memchr(c1 + 1, ',', n - (size_t)(c1 + 1 - s))))
		return *why = "expected 3 comma-separated values", -1;
	part[0] = s, len[0] = (size_t)(c1 - s);
	part[1] = c1 + 1, len[1] = (size_t)(c2 - c1 - 1);
	part[2] = c2 + 1, len[2] = n - (size_t)(c2 + 1 - s);
	for (int i = 0; i < 3; i++)
		strip(&part[i], &len[i]);
	if (len[0] < 8 || memcmp(part[0], "DCGM_FI_", 8))
		return *why = "the DCGM field should start with 'DCGM_FI_'", -1;
	if (!metric_name(part[0], len[0]))
		return *why = "the DCGM field is not a metric name", -1;
	if (!(len[1] == 5 && !memcmp(part[1], "gauge", 5)) &&
	    !(len[1] == 7 && !memcmp(part[1], "counter", 7)))
		return *why = "the metric type should be 'gauge' or 'counter'", -1;
	for (size_t i = 0; i < c->n; i++)
		if (strlen(c->m[i].dcgm) == len[0] && !memcmp(c->m[i].dcgm, part[0], len[0]))
			return *why = "the DCGM field is named twice", -1;
	if (c->n >= GPUCSV_MAX)
		return *why = "too many metrics", -1;
	m.key = key_of(part[0], len[0]);
	if (!*m.key) {
		free(m.key);
		return *why = "the DCGM field names no metric", -1;
	}
	m.dcgm = xstrndup(part[0], len[0]);
	m.counter = len[1] == 7;
	m.unit = gpucsv_unit(part[2], len[2]);
	const char *paren = memchr(part[2], '(', len[2]);
	size_t dn = paren ? (size_t)(paren - part[2]) : len[2];
	const char *d = part[2];
	strip(&d, &dn);
	if (dn) {
		m.display = title(d, dn);
	} else {
		char *k = xstrdup(m.key);
		for (char *q = k; *q; q++)
			if (*q == '_')
				*q = ' ';
		m.display = title(k, strlen(k));
		free(k);
	}
	c->m = xreallocarray(c->m, c->n + 1, sizeof(*c->m));
	c->m[c->n++] = m;
	return 0;
}

void
gpucsv_parse(struct gpucsv *c, const char *s, size_t n,
	     void (*warnf)(void *ctx, size_t lineno, const char *why), void *ctx)
{
	const char *end = s + n;
	size_t lineno = 0;

	memset(c, 0, sizeof(*c));
	while (s < end) {
		const char *l = s, *why = NULL;
		size_t ln = 0;
		/* universal newlines, as Python's text files: \n, \r\n, \r */
		while (s + ln < end && s[ln] != '\n' && s[ln] != '\r')
			ln++;
		s += ln;
		if (s < end && *s == '\r' && s + 1 < end && s[1] == '\n')
			s++;
		s++;
		lineno++;
		strip(&l, &ln);
		if (!ln || *l == '#')
			continue;
		if (line(c, l, ln, &why) < 0 && warnf)
			warnf(ctx, lineno, why);
	}
}

void
gpucsv_release(struct gpucsv *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->m[i].dcgm);
		free(c->m[i].key);
		free(c->m[i].display);
	}
	free(c->m);
	memset(c, 0, sizeof(*c));
}
