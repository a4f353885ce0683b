/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/prom: what parses renders back to an exposition that parses to the same rendering. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "prom/prom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
render_labels(struct buf *b, const struct prom_series *s, const char *le)
{
	buf_addch(b, '{');
	for (size_t i = 0; i < s->nlabels; i++) {
		buf_addf(b, "%s=\"", s->labels[i].name);
		for (const char *v = s->labels[i].value; *v; v++) {
			if (*v == '\\' || *v == '"')
				buf_addch(b, '\\');
			if (*v == '\n')
				buf_addstr(b, "\\n");
			else
				buf_addch(b, *v);
		}
		buf_addstr(b, "\",");
	}
	if (le)
		buf_addf(b, "le=\"%s\"", le);
	buf_addch(b, '}');
}

static void
render_series(struct buf *b, const struct prom *p, const struct prom_series *s)
{
	const char *name = prom_series_name(p, s);

	for (size_t j = 0; j < s->nbuckets; j++) {
		buf_addf(b, "%s_bucket", name);
		render_labels(b, s, s->buckets[j].le_text);
		buf_addf(b, " %.17g\n", s->buckets[j].count);
	}
	if (s->have & PROM_HAVE_SUM) {
		buf_addf(b, "%s_sum", name);
		render_labels(b, s, NULL);
		buf_addf(b, " %.17g\n", s->sum);
	}
	if (s->have & PROM_HAVE_COUNT) {
		buf_addf(b, "%s_count", name);
		render_labels(b, s, NULL);
		buf_addf(b, " %.17g\n", s->count);
	}
	if (s->have & PROM_HAVE_VALUE) {
		buf_addstr(b, name);
		render_labels(b, s, NULL);
		buf_addf(b, " %.17g", s->value);
		if (s->have & PROM_HAVE_TS)
			buf_addf(b, " %.17g", s->ts);
		buf_addch(b, '\n');
	}
}

/* Each family's TYPE line, then its series, in the parser's order. */
static void
render(struct buf *b, const struct prom *p)
{
	for (size_t f = 0; f < p->nfam; f++) {
		if (p->fam[f].type != PROM_UNTYPED)
			buf_addf(b, "# TYPE %s %s\n", p->fam[f].name,
				 prom_type_name(p->fam[f].type));
		for (size_t i = 0; i < p->nser; i++)
			if (p->ser[i].family == f)
				render_series(b, p, &p->ser[i]);
	}
}

static int
round_trip(const char *text, size_t len, struct buf *out)
{
	struct prom p;
	char err[256];
	int rc;

	prom_init(&p);
	rc = prom_parse(&p, text, len, NULL, err, sizeof(err));
	if (!rc)
		render(out, &p);
	if ((p.nwarn && !p.warn[0]) || (rc && !err[0]))
		abort();
	/* a family's duplicates are always said, once */
	for (size_t f = 0; !rc && f < p.nfam; f++)
		if (p.fam[f].dups && !p.nwarn)
			abort();
	prom_release(&p);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX),
		   c = BUF_INIT(BUF_NOMAX);

	if (round_trip((const char *)data, size, &a) == 0) {
		if (round_trip(a.s ? a.s : "", a.len, &b) != 0)
			abort();
		if (round_trip(b.s ? b.s : "", b.len, &c) != 0 ||
		    b.len != c.len || memcmp(buf_str(&b), buf_str(&c), b.len))
			abort();
	}
	buf_release(&a);
	buf_release(&b);
	buf_release(&c);
	return 0;
}
