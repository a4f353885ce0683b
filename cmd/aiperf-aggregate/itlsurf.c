/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: decode-itl-curve's ITL(concurrency, OSL) surface (the original's ItlSurfaceFit). */
#include "recipe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

#define CONC "phases.profiling.concurrency"
#define OSL "datasets.main.prompts.osl"
#define TAG "inter_token_latency"

struct triple {
	double c, o, v;
	size_t seq;
};

static int
cmp_triple(const void *a, const void *b)
{
	const struct triple *p = a, *q = b;

	if (p->c != q->c)
		return (p->c > q->c) - (p->c < q->c);
	if (p->o != q->o)
		return (p->o > q->o) - (p->o < q->o);
	return (p->seq > q->seq) - (p->seq < q->seq);
}

/* The distinct concurrencies (or OSLs) of t, ascending, into ax. */
static size_t
axis_of(const struct triple *t, size_t k, int osl, double *ax)
{
	size_t n = 0;

	for (size_t i = 0; i < k; i++) {
		double v = osl ? t[i].o : t[i].c;
		size_t j = 0;

		while (j < n && ax[j] != v)
			j++;
		if (j == n)
			ax[n++] = v;
	}
	for (size_t i = 1; i < n; i++)	/* insertion sort */
		for (size_t j = i; j > 0 && ax[j] < ax[j - 1]; j--) {
			double x = ax[j];

			ax[j] = ax[j - 1];
			ax[j - 1] = x;
		}
	return n;
}

static void
doubles(struct jw *w, const double *v, size_t n)
{
	jw_arr(w);
	for (size_t i = 0; i < n; i++)
		jw_double(w, v[i]);
	jw_arr_end(w);
}

/* The grid: a row per concurrency, a column per OSL, the last value of
 * the cell (as the original's dict keeps it), null where none. */
static void
grid(struct jw *w, const struct triple *t, size_t k, const double *ca, size_t nc,
     const double *oa, size_t no)
{
	jw_arr(w);
	for (size_t i = 0; i < nc; i++) {
		jw_arr(w);
		for (size_t j = 0; j < no; j++) {
			const struct triple *found = NULL;

			for (size_t m = 0; m < k; m++)
				if (t[m].c == ca[i] && t[m].o == oa[j])
					found = &t[m];
			if (found)
				jw_double(w, found->v);
			else
				jw_null(w);
		}
		jw_arr_end(w);
	}
	jw_arr_end(w);
}

static void
surface_json(struct buf *out, const struct triple *t, size_t k, const char *why)
{
	double *ca = xcalloc(k + 1, sizeof(*ca)), *oa = xcalloc(k + 1, sizeof(*oa));
	size_t nc = why ? 0 : axis_of(t, k, 0, ca), no = why ? 0 : axis_of(t, k, 1, oa);
	struct jw w;

	jw_init(&w, out, 2);
	jw_obj(&w);
	jw_key(&w, "swept_metric");
	jw_str(&w, TAG);
	jw_key(&w, "stat");
	jw_str(&w, "avg");
	jw_key(&w, "swept_params");
	jw_arr(&w);
	jw_str(&w, CONC);
	jw_str(&w, OSL);
	jw_arr_end(&w);
	jw_key(&w, "raw_points");
	jw_arr(&w);
	for (size_t i = 0; i < k; i++) {
		jw_obj(&w);
		jw_key(&w, "concurrency");
		jw_double(&w, t[i].c);
		jw_key(&w, "osl");
		jw_double(&w, t[i].o);
		jw_key(&w, "itl_ms");
		jw_double(&w, t[i].v);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "surface");
	jw_obj(&w);
	jw_key(&w, "concurrency_axis");
	doubles(&w, ca, nc);
	jw_key(&w, "osl_axis");
	doubles(&w, oa, no);
	jw_key(&w, "itl_grid");
	grid(&w, t, k, ca, nc, oa, no);
	jw_obj_end(&w);
	jw_key(&w, "surface_fit_failed");
	jw_bool(&w, why != NULL);
	if (why) {
		jw_key(&w, "error_reason");
		jw_str(&w, why);
	}
	jw_obj_end(&w);
	free(ca);
	free(oa);
}

int
recipe_itl_surface(const struct sweep *s, struct buf *out, char *err, size_t n)
{
	struct triple *t = xcalloc(s->nc + 1, sizeof(*t));
	size_t k = 0, cand = 0, nonfin = 0, neg = 0;
	char why[400];

	for (size_t i = 0; i < s->nc; i++) {
		const struct sweep_metric *m = sweep_find(&s->c[i], TAG "_avg");
		double c, o;

		if (!m)
			m = sweep_find(&s->c[i], TAG);
		if (!m || recipe_param_value(s, s->c[i].var, CONC, &c) < 0 ||
		    recipe_param_value(s, s->c[i].var, OSL, &o) < 0)
			continue;
		cand++;
		if (!isfinite(m->mean.d)) {
			nonfin++;
			continue;
		}
		if (m->mean.d < 0) {
			neg++;
			continue;
		}
		t[k] = (struct triple){ c, o, m->mean.d, k };
		k++;
	}
	if (!cand) {
		snprintf(err, n, "itl_surface_fit: sweep aggregate has no rows with "
			 "parameters '" CONC "' + '" OSL "' and metric '" TAG "' (flat "
			 "key '" TAG "_avg'); check that the recipe swept both axes and "
			 "streaming was enabled.");
		free(t);
		return -1;
	}
	if (nonfin || neg)
		warn("itl_surface_fit: dropped %zu non-finite and %zu negative ITL "
		     "row(s) for metric '" TAG "'", nonfin, neg);
	qsort(t, k, sizeof(*t), cmp_triple);
	snprintf(why, sizeof(why), "itl_surface_fit: fewer than 2 finite-positive "
		 "rows after dropping non-finite/negative ITL (kept %zu, dropped %zu "
		 "non-finite + %zu negative); check that streaming was enabled and "
		 "that swept cells produced successful requests.", k, nonfin, neg);
	surface_json(out, t, k, k < 2 ? why : NULL);
	free(t);
	return 0;
}
