/* SPDX-License-Identifier: Apache-2.0 */
/* --model-selection-strategy weighted: the models' weights, checked as the original's ModelsAdvanced checks them, and the draw. */
#include <math.h>

#include "gen.h"
#include "util.h"

/* The shortest text that reads back as x (Python's repr of a float). */
static void
float_repr(char *s, size_t n, double x)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(s, n, "%.*g", p, x);
		if (strtod(s, NULL) == x)
			break;
	}
	if (!strchr(s, '.') && !strchr(s, 'e') && !strchr(s, 'n') && strlen(s) + 2 < n)
		strncat(s, ".0", n - strlen(s) - 1);
}

int
gen_weights_parse(const char *arg, double **out, size_t *n, char *err, size_t errlen)
{
	double *w = NULL;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	for (const char *p = arg;;) {
		size_t len = strcspn(p, ",");
		char tmp[64], *end;
		double x;

		if (k == GEN_MODELS_MAX) {
			free(w);
			return util_seterr(err, errlen, "--model-weights: more than %d weights", GEN_MODELS_MAX);
		}
		if (!len || len >= sizeof(tmp)) {
			free(w);
			return util_seterr(err, errlen, "--model-weights: invalid weight '%.*s'",
					   (int)(len < 64 ? len : 64), p);
		}
		memcpy(tmp, p, len);
		tmp[len] = 0;
		errno = 0;
		x = strtod(tmp, &end);
		/* strtod's hexadecimal floats are not Python's float() */
		if (end == tmp || *end || errno || !isfinite(x) || x < 0 || x > 1 ||
		    strpbrk(tmp, "xX")) {
			free(w);
			/* ModelItem.weight: ge=0.0, le=1.0 */
			return util_seterr(err, errlen, "--model-weights: invalid weight '%s' "
					   "(a number from 0.0 to 1.0)", tmp);
		}
		w = xreallocarray(w, k + 1, sizeof(*w));
		w[k++] = x;
		p += len;
		if (!*p++)
			break;
	}
	*out = w;
	*n = k;
	return 0;
}

int
gen_weights_check(const double *w, size_t nw, size_t nmodels, char *err, size_t errlen)
{
	double total = 0;
	char s[40];

	if (!nw)
		return util_seterr(err, errlen, "All models must have weights specified "
				   "when using weighted strategy");
	if (nw != nmodels)
		return util_seterr(err, errlen, "--model-weights: %zu weights for %zu models",
				   nw, nmodels);
	for (size_t i = 0; i < nw; i++)
		total += w[i];
	if (!(total >= 0.99 && total <= 1.01)) {
		float_repr(s, sizeof(s), total);
		return util_seterr(err, errlen, "Model weights must sum to 1.0, got %s", s);
	}
	return 0;
}

size_t
gen_model_draw(const struct gen_opts *o, struct rng *r)
{
	double x, total;
	size_t lo = 0, hi;

	if (!o->model_weighted)
		return (size_t)rng_below(r, o->nmodels);
	/* random.choices(models, weights): bisect(cum_weights, random() *
	 * total, 0, n - 1) */
	total = o->cum_weights[o->nmodels - 1];
	x = rng_random(r) * total;
	hi = o->nmodels - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x < o->cum_weights[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
