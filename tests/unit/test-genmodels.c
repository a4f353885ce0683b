/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-gen's --model-weights: the parser on good and hostile lists,
 * ModelsAdvanced's checks and messages, and the weighted draw (its
 * shares, a zero weight never drawn, the same draws for the same seed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Private to the tool; tested from its source. */
#include "../../cmd/aiperf-gen/models.c"
#include "test.h"

static int
parses(const char *s, size_t n_want)
{
	double *w;
	size_t n;
	char err[256];
	int ok = gen_weights_parse(s, &w, &n, err, sizeof(err)) == 0 && n == n_want;

	free(w);
	return ok;
}

static int
refused(const char *s, const char *msg)
{
	double *w = (double *)1;
	size_t n = 1;
	char err[256] = "";

	if (gen_weights_parse(s, &w, &n, err, sizeof(err)) == 0) {
		free(w);
		return 0;
	}
	return !w && !n && strstr(err, msg) != NULL;
}

static void
test_parse(void)
{
	char *many = malloc(2 * (GEN_MODELS_MAX + 1) + 1), *p = many;

	TEST("three weights", parses("0.7,0.2,0.1", 3));
	TEST("one, integers and exponents", parses("1", 1) && parses("0,1", 2) &&
	     parses("5e-1,0.5", 2));
	TEST("empty", refused("", "invalid weight ''"));
	TEST("an empty item", refused("0.5,,0.5", "invalid weight ''") &&
	     refused("0.5,", "invalid weight ''"));
	TEST("not a number", refused("0.5,x", "invalid weight 'x'") &&
	     refused("0.5 ", "invalid weight") && refused("0x1p-1", "invalid weight"));
	TEST("out of range", refused("1.5", "from 0.0 to 1.0") &&
	     refused("-0.1", "from 0.0 to 1.0") && refused("nan", "invalid") &&
	     refused("inf", "invalid") && refused("1e999", "invalid"));
	TEST("a long item", refused("0.0000000000000000000000000000000000000000000000000000000000000000000001",
				   "invalid weight"));
	for (int i = 0; i <= GEN_MODELS_MAX; i++) {
		*p++ = '0';
		*p++ = ',';
	}
	p[-1] = 0;
	TEST("too many", refused(many, "more than 4096"));
	free(many);
}

static void
test_check(void)
{
	double w[] = { 0.7, 0.2, 0.1 }, low[] = { 0.3, 0.6 }, edge[] = { 0.5, 0.505 };
	char err[256];

	TEST("sums to 1", gen_weights_check(w, 3, 3, err, sizeof(err)) == 0);
	TEST("none: the original's message", gen_weights_check(NULL, 0, 3, err, sizeof(err)) < 0 &&
	     !strcmp(err, "All models must have weights specified when using weighted strategy"));
	TEST("a count that is not the models'", gen_weights_check(w, 3, 2, err, sizeof(err)) < 0 &&
	     !strcmp(err, "--model-weights: 3 weights for 2 models"));
	TEST("a sum off by more than 0.01, as Python writes it",
	     gen_weights_check(low, 2, 2, err, sizeof(err)) < 0 &&
	     !strcmp(err, "Model weights must sum to 1.0, got 0.8999999999999999"));
	TEST("within 0.01, not normalized", gen_weights_check(edge, 2, 2, err, sizeof(err)) == 0);
	low[0] = 1;
	low[1] = 1;
	TEST("2.0", gen_weights_check(low, 2, 2, err, sizeof(err)) < 0 &&
	     !strcmp(err, "Model weights must sum to 1.0, got 2.0"));
}

static void
test_draw(void)
{
	double cum[] = { 0.7, 0.7, 1.0 };
	struct gen_opts o = { .nmodels = 3, .model_random = 1, .model_weighted = 1,
			      .cum_weights = cum };
	struct rng r, s;
	size_t count[3] = { 0 };
	int same = 1;

	rng_seed(&r, 11);
	rng_seed(&s, 11);
	for (int i = 0; i < 20000; i++) {
		size_t k = gen_model_draw(&o, &r);

		count[k]++;
		same &= k == gen_model_draw(&o, &s);
	}
	TEST("shares within 0.02 of the weights", fabs(count[0] / 20000.0 - 0.7) < 0.02 &&
	     fabs(count[2] / 20000.0 - 0.3) < 0.02);
	TEST("a zero weight is never drawn", count[1] == 0);
	TEST("the same seed, the same draws", same);
	o.model_weighted = 0;
	memset(count, 0, sizeof(count));
	for (int i = 0; i < 3000; i++)
		count[gen_model_draw(&o, &r)]++;
	TEST("random: uniform", count[0] > 900 && count[1] > 900 && count[2] > 900);
}

int
main(void)
{
	test_parse();
	test_check();
	test_draw();
	return TEST_DONE();
}
