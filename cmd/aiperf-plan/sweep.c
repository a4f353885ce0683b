/* SPDX-License-Identifier: Apache-2.0 */
/* A sweep's planning: list values and recipes to parameters, the runs in the original's layout. */
#include "planner.h"
#include "sweepplan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --isl 128,512: the values of one list option, as JSON scalars of its type. */
void
sweep_add_list(struct sweepreq *r, const struct proftab_opt *o, const char *list)
{
	struct swparam *sp;
	char *copy = xstrdup(list), *save = NULL;

	if (r->n == SWEEP_MAX_PARAMS)
		usage_error("profile: more than %d swept options", SWEEP_MAX_PARAMS);
	for (size_t i = 0; i < r->n; i++)
		if (r->p[i].o == o)
			usage_error("profile: %s is swept twice", o->name);
	sp = &r->p[r->n++];
	*sp = (struct swparam){ .o = o, .path = o->sweep_path };
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		while (*w == ' ')
			w++;
		for (char *e = w + strlen(w); e > w && e[-1] == ' ';)
			*--e = '\0';
		plan_argv_add(&sp->vals, sweep_number(o, w));
	}
	free(copy);
	if (sp->vals.n < 2 && !strchr(list, ','))
		usage_error("profile: invalid value for %s: '%s'", o->name, list);
	if (!sp->vals.n)
		usage_error("profile: invalid value for %s: '%s' (a list of numbers, e.g. 8,16,32)", o->name,
			    list);
}

/* One value of a list option: the number as the original's type prints it
 * (an int, or a float as Python's repr: 10 -> 10.0). */
const char *
sweep_number(const struct proftab_opt *o, const char *w)
{
	static char out[64];
	char *end;
	double x = strtod(w, &end);
	int integer = o->config_type == 'i';

	if (!*w || *end || !isfinite(x) || x < 0)
		usage_error("profile: invalid value for %s: '%s' (a list of numbers, e.g. 8,16,32)",
			    o->name, w);
	if (integer) {
		if (x != floor(x) || x > 1e15)
			usage_error("profile: invalid value for %s: '%s' (an integer)", o->name, w);
		snprintf(out, sizeof(out), "%lld", (long long)x);
		return out;
	}
	char *f = py_float(w);

	snprintf(out, sizeof(out), "%s", f);
	free(f);
	return out;
}

/* The original's _logspace_int_steps: steps values log-spaced over [lo, hi],
 * rounded half to even, duplicates dropped, ascending. */
void
sweep_logspace(long lo, long hi, long steps, struct plan_argv *out)
{
	long prev = -1;

	for (long i = 0; i < steps; i++) {
		double v = exp(log((double)lo) + (log((double)hi) - log((double)lo)) * (double)i /
			       (double)(steps - 1));
		long r = (long)rint(v);
		char s[32];

		r = r < 1 ? 1 : r;
		if (r == prev)
			continue;
		snprintf(s, sizeof(s), "%ld", r);
		plan_argv_add(out, s);
		prev = r;
	}
}
