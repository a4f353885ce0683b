/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/dataset/csv: bounded records, and each one written back (quoted as needed) reads the same. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "buf.h"
#include "dataset/csv.h"
#include "rand/pystr.h"
#include "util.h"

#define MAX 256
#define MAX_FIELDS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Record f[0..n) as CSV text, after a BOM (the reader drops one): every
 * field quoted that needs it, and a lone blank field too. */
static void
write_record(struct buf *b, char **f, size_t n)
{
	buf_reset(b);
	buf_addstr(b, "\xEF\xBB\xBF");
	for (size_t k = 0; k < n; k++) {
		int q = strpbrk(f[k], ",\"\r\n") ||
			(n == 1 && pystr_isblank(f[k], strlen(f[k])));

		if (k)
			buf_addch(b, ',');
		if (q)
			buf_addch(b, '"');
		for (const char *s = f[k]; *s; s++) {
			if (q && *s == '"')
				buf_addch(b, '"');
			buf_addch(b, *s);
		}
		if (q)
			buf_addch(b, '"');
	}
}

/* Feed s[0..n) split at '\n'; fn gets each record; returns how many. */
static size_t
feed(struct csv *c, const char *s, size_t n, void (*fn)(struct csv *, void *),
     void *ctx)
{
	size_t at = 0, lineno = 0, got = 0;

	while (at < n) {
		const char *nl = memchr(s + at, '\n', n - at);
		size_t k = nl ? (size_t)(nl - (s + at)) : n - at;
		int rc = csv_feed(c, s + at, k, ++lineno);

		if (rc < 0 && errno != ENOBUFS && errno != E2BIG && errno != EINVAL)
			abort();
		if (rc == 1) {
			size_t bytes = 0;

			if (!c->nf || c->nf > MAX_FIELDS || c->lineno > lineno)
				abort();
			for (size_t f = 0; f < c->nf; f++)
				bytes += strlen(c->f[f]) + 1;
			if (bytes > MAX)
				abort();
			got++;
			if (fn)
				fn(c, ctx);
		}
		at += k + (nl != NULL);
	}
	if (csv_end(c) < 0 && errno != EILSEQ)
		abort();
	return got;
}

struct want {
	char **f;
	size_t n;
};

static void
same(struct csv *c, void *ctx)
{
	struct want *w = ctx;

	if (c->nf != w->n)
		abort();
	for (size_t k = 0; k < c->nf; k++)
		if (strcmp(c->f[k], w->f[k]))
			abort();
}

static void
round_trip(struct csv *c, void *ctx)
{
	struct buf *b = ctx;
	struct want w = { c->f, c->nf };
	struct csv again;

	write_record(b, c->f, c->nf);
	csv_init(&again, MAX, MAX_FIELDS);
	if (feed(&again, b->s, b->len, same, &w) != 1)
		abort();
	csv_release(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csv c;
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (size > 65536)
		return 0;
	csv_init(&c, MAX, MAX_FIELDS);
	feed(&c, (const char *)data, size, round_trip, &b);
	csv_release(&c);
	buf_release(&b);
	return 0;
}
