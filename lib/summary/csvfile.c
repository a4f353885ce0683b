/* SPDX-License-Identifier: Apache-2.0 */
/* profile_export_aiperf.csv as the original's csv.writer writes it: two sections, CRLF, %.2f. */
#include "summary/csvfile.h"

#include <stdlib.h>
#include <strings.h>

#include "stats/numfmt.h"
#include "csvfield.h"
#include "util.h"


static void
name(FILE *f, const struct result *r)
{
	const char *u = r->def->display;
	char cell[256];

	if (!strcasecmp(u, "count") || !strcasecmp(u, "requests"))
		snprintf(cell, sizeof(cell), "%s", r->def->header);
	else
		snprintf(cell, sizeof(cell), "%s (%s)", r->def->header, u);
	csv_field(f, cell, 1);
}

static void
number(FILE *f, double v)
{
	char s[340];

	numfmt_fixed2(s, sizeof(s), v);
	csv_field(f, s, 0);
}

static int
csv_by_tag(const void *a, const void *b)
{
	const struct result *x = *(const struct result *const *)a;
	const struct result *y = *(const struct result *const *)b;

	return strcmp(x->def->tag, y->def->tag);
}

static void
dist_row(FILE *f, const struct result *r)
{
	const struct stats *s = &r->st;
	const double v[] = { s->avg, s->min, s->max, s->sum, s->p1, s->p5,
		s->p10, s->p25, s->p50, s->p75, s->p90, s->p95, s->p99, s->std };

	name(f, r);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		number(f, v[i]);
	fputs("\r\n", f);
}

/* A row of the Metric,Value section: a metric's, or an accuracy entry's
 * (no value: the original's avg is None there, an empty cell). */
struct scalar {
	const char *tag;
	const struct result *r;
	const struct accrow *acc;
};

static int
scalar_by_tag(const void *a, const void *b)
{
	return strcmp(((const struct scalar *)a)->tag, ((const struct scalar *)b)->tag);
}

static void
scalar_row(FILE *f, const struct scalar *s)
{
	if (s->r) {
		name(f, s->r);
		number(f, s->r->st.avg);
	} else {
		char *cell = xstrfmt("%s (ratio)", s->acc->header);

		csv_field(f, cell, 1);
		free(cell);
		fputc(',', f);
	}
	fputs("\r\n", f);
}

int
csv_export(FILE *f, const struct summary *sm, const struct gpus *g, const struct accsum *acc)
{
	size_t nacc;
	struct accrow *ar = acc_rows(acc, &nacc);
	const struct result **dist = xcalloc(sm->nres + 1, sizeof(*dist));
	struct scalar *scal = xcalloc(sm->nres + nacc + 1, sizeof(*scal));
	size_t nd = 0, ns = 0, alld = 0, alls = nacc;

	/* As the original: sections (and their headers) are decided before
	 * hidden metrics are filtered out of the rows. */
	for (size_t i = 0; i < sm->nres; i++) {
		const struct result *r = &sm->res[i];
		int hidden = !!(r->def->flags & (MF_INTERNAL | MF_EXPERIMENTAL));
		if (r->dist) {
			alld++;
			if (!hidden)
				dist[nd++] = r;
		} else {
			alls++;
			if (!hidden)
				scal[ns++] = (struct scalar){ r->def->tag, r, NULL };
		}
	}
	/* The accuracy entries are MetricResults of their own tags, sorted
	 * with the metrics' (they have no percentiles). */
	for (size_t i = 0; i < nacc; i++)
		scal[ns++] = (struct scalar){ ar[i].tag, NULL, &ar[i] };
	qsort(dist, nd, sizeof(*dist), csv_by_tag);
	qsort(scal, ns, sizeof(*scal), scalar_by_tag);
	if (alld)
		fputs("Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n", f);
	for (size_t i = 0; i < nd; i++)
		dist_row(f, dist[i]);
	if (alld && alls)
		fputs("\r\n", f);
	if (alls)
		fputs("Metric,Value\r\n", f);
	for (size_t i = 0; i < ns; i++)
		scalar_row(f, &scal[i]);
	free(dist);
	free(scal);
	acc_rows_free(ar, nacc);
	if (gpu_csv(f, g) < 0)
		return -1;
	return ferror(f) ? -1 : 0;
}
