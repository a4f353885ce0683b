/* SPDX-License-Identifier: Apache-2.0 */
/* MATH-500 as lighteval's math_500 task: the bare problem, the full solution as gold, the subject as task. */
#include "bench.h"
#include "row.h"

#define TASK "math_500"

/* row.get(col) or dflt: a falsy value (missing, null, "", 0, false, an
 * empty list) gives dflt; any other must be a string (the original's
 * BenchmarkProblem holds str). NULL with a message otherwise. */
static const char *
str_or(const struct split *s, const char *col, const char *dflt, char *err,
       size_t errlen)
{
	const struct json *v = json_get(s->row, col);

	if (!v || !json_truthy(v))
		return dflt;
	return split_str(s, col, err, errlen);
}

static int
math500_load(const struct bench_opts *o, struct problem_set *out, char *err,
	     size_t errlen)
{
	struct split s;
	int rc = 0;

	if (split_load(&s, o, "HuggingFaceH4/MATH-500", "default", "test", err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < s.rows.n; i++) {
		const char *problem, *solution, *task;

		if (split_row(&s, i, err, errlen) < 0 ||
		    !(problem = split_str(&s, "problem", err, errlen)) ||
		    !(solution = str_or(&s, "solution", "", err, errlen)) ||
		    !(task = str_or(&s, "subject", TASK, err, errlen))) {
			rc = -1;
			break;
		}
		pset_add(out, task, solution, problem, NULL, 32768);
	}
	split_release(&s);
	return rc;
}

const struct bench bench_math500 = {
	.name = "math_500",
	.n_shots = 0,
	.max_shots = -1,
	.load = math500_load,
};
