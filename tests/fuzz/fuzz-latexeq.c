/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/accuracy/latexeq and the lighteval graders: any pair returns a verdict, the same both ways. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/grade.h"
#include "accuracy/latexeq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
grade(const char *name, const char *reply, size_t n, const char *gold)
{
	struct grade_result r;
	grade_fn *f = grade_lookup(name);

	if (!f || f(reply, n, gold, &r) != 0 || !memchr(r.reason, '\0', sizeof(r.reason)))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy, so that reading past size is caught; the pair split at a tab */
	char *s = malloc(size ? size : 1);
	const char *tab;
	size_t an;

	if (!s)
		return 0;
	memcpy(s, data, size);
	tab = memchr(s, '\t', size);
	an = tab ? (size_t)(tab - s) : size / 2;
	const char *b = s + an + (tab != NULL);
	size_t bn = size - an - (tab != NULL);

	/* flags 0 compares symmetrically */
	if (latexeq(s, an, b, bn) != latexeq(b, bn, s, an))
		abort();
	latexeq_flags(s, an, b, bn, LATEXEQ_LIGHTEVAL);
	latexeq_flags(s, an, b, bn, LATEXEQ_MATH);
	grade("lighteval_expr", s, size, "42");
	grade("lighteval_latex", s, size, "so $\\boxed{\\frac{3}{4}}$");
	grade("lighteval_gpqa", s, size, "B");
	grade("math", s, size, "\\sqrt{2}");
	free(s);
	return 0;
}
