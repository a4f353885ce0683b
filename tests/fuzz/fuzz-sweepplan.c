/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for lib/sweepplan, the reader of sweep_plan.json (a
 * file a user or another tool may have written). What it accepts must
 * hold its promises: every run names a variation, every run's dir is a
 * safe relative path, every dir_name one component, trials and the
 * confidence level in range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sweepplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const struct sweepplan *p)
{
	double v;

	if (p->trials < 1 || !(p->level > 0 && p->level < 1))
		abort();
	for (size_t i = 0; i < p->nvars; i++)
		if (!sweepplan_safe_path(p->vars[i].dir_name,
					 strlen(p->vars[i].dir_name), 1))
			abort();
	for (size_t i = 0; i < p->nruns; i++) {
		const char *d = p->runs[i].dir;

		if (p->runs[i].variation >= p->nvars || d[0] == '/' ||
		    strstr(d, "..") == d || !sweepplan_safe_path(d, strlen(d), 0))
			abort();
	}
	if (p->recipe && !sweepplan_recipe_name(p))
		abort();
	(void)sweepplan_recipe_num(p, "degradation_threshold", &v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct sweepplan *p = sweepplan_parse((const char *)data, size, err,
					      sizeof(err));

	if (p)
		check(p);
	else if (!err[0])
		abort();
	sweepplan_free(p);
	return 0;
}
