/* SPDX-License-Identifier: Apache-2.0 */
/* lib/sweep: grid and zip cells, labels, folder names as the original's. */
#include "../test.h"

#include <stdlib.h>

#include "sweep.h"

static char *conc[] = { (char *)"8", (char *)"16", (char *)"32" }, *rate[] = { (char *)"5.0", (char *)"10.0" };
static char *isl[] = { (char *)"128", (char *)"512" }, *osl[] = { (char *)"64", (char *)"256" };

static void
test_grid(void)
{
	struct sweep_dim d[] = { { "phases.profiling.concurrency", conc, 3 },
				 { "phases.profiling.rate", rate, 2 } };
	struct sweep_cell *c;
	char err[128];
	size_t n = sweep_cells(d, 2, SWEEP_GRID, 1000, &c, err, sizeof(err));

	TEST("grid: 3 x 2 cells", n == 6);
	TEST_STR("grid: the first dimension outermost", c[1].dir, "concurrency_8__rate_10.0");
	TEST_STR("grid: last cell", c[5].dir, "concurrency_32__rate_10.0");
	TEST_STR("grid: the original's label", c[2].label,
		 "phases.profiling.concurrency=16, phases.profiling.rate=5.0");
	TEST("grid: picks", c[3].pick[0] == 1 && c[3].pick[1] == 1);
	sweep_cells_free(c, n);
	TEST("grid: over the limit refused", sweep_cells(d, 2, SWEEP_GRID, 5, &c, err, sizeof(err)) == 0 &&
	     strstr(err, "more than 5 cells") && !c);
}

static void
test_zip(void)
{
	struct sweep_dim d[] = { { "datasets.main.prompts.isl", isl, 2 },
				 { "datasets.main.prompts.osl", osl, 2 },
				 { "phases.profiling.concurrency", conc, 3 } };
	struct sweep_cell *c;
	char err[128];
	size_t n = sweep_cells(d, 2, SWEEP_ZIP, 1000, &c, err, sizeof(err));

	TEST("zip: lockstep", n == 2);
	TEST_STR("zip: pairs", c[1].dir, "isl_512__osl_256");
	sweep_cells_free(c, n);
	TEST("zip: unequal lengths refused", sweep_cells(d, 3, SWEEP_ZIP, 1000, &c, err, sizeof(err)) == 0 &&
	     strstr(err, "datasets.main.prompts.isl has 2 values, phases.profiling.concurrency has 3"));
	TEST("no dimension refused", sweep_cells(d, 0, SWEEP_GRID, 1000, &c, err, sizeof(err)) == 0 &&
	     strstr(err, "no parameter"));
	d[0].nval = 0;
	TEST("an empty list refused", sweep_cells(d, 1, SWEEP_GRID, 1000, &c, err, sizeof(err)) == 0 &&
	     strstr(err, "an empty list"));
}

static void
test_names(void)
{
	static char *hostile[] = { (char *)"../../etc", (char *)"a/b\\c", (char *)"x<>:\"|?*y", (char *)"..", (char *)"...", (char *)"" };
	struct sweep_dim two[] = { { "datasets.main.prompts.isl.mean", isl, 2 },
				   { "datasets.main.prompts.osl.mean", osl, 2 } };
	char *s;

	s = sweep_dir_segment(hostile[0], 3);
	TEST_STR("segment: .. and / removed", s, "etc");
	free(s);
	s = sweep_dir_segment(hostile[1], 3);
	TEST_STR("segment: slashes removed", s, "abc");
	free(s);
	s = sweep_dir_segment(hostile[2], 3);
	TEST_STR("segment: <>:\"|?* removed", s, "xy");
	free(s);
	for (size_t i = 3; i < 6; i++) {
		s = sweep_dir_segment(hostile[i], 7);
		TEST_STR("segment: nothing left: variation_INDEX", s, "variation_7");
		free(s);
	}
	TEST_STR("display: colliding leaves keep the path", sweep_display_name(two, 2, 1),
		 "datasets.main.prompts.osl.mean");
	TEST_STR("display: a lone leaf", sweep_display_name(two, 1, 0), "mean");
	TEST_STR("leaf of a bare name", sweep_leaf("concurrency"), "concurrency");

	struct sweep_dim evil[] = { { "a.b", hostile, 1 } };
	struct sweep_cell *c;
	char err[64];
	size_t n = sweep_cells(evil, 1, SWEEP_GRID, 10, &c, err, sizeof(err));

	TEST_STR("a hostile value stays in one segment", n ? c[0].dir : NULL, "b_etc");
	sweep_cells_free(c, n);
}

int
main(void)
{
	test_grid();
	test_zip();
	test_names();
	return TEST_DONE();
}
