/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/accuracy/latexeq, algnum and the lighteval graders. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/algnum.h"
#include "accuracy/grade.h"
#include "accuracy/latexeq.h"
#include "test.h"

#define PAIRS "tests/data/accuracy/latex-pairs.tsv"

static enum latexeq
eq(const char *a, const char *b)
{
	return latexeq(a, strlen(a), b, strlen(b));
}

/* every row of the corpus: the verdict the sympy oracle also gives
 * (tests/accuracy/latex-oracle.py, run by tests/cli/t1170) */
static void
test_corpus(void)
{
	FILE *f = fopen(PAIRS, "r");
	char line[4096];
	int rows = 0, agree = 0;

	TEST("corpus: " PAIRS " opens (run from the repository root)", f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *col[5], *p = line, name[160];
		int k = 0;

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "latex_a\t", 8) || !*line)
			continue;
		while (k < 5 && p) {
			col[k++] = p;
			if ((p = strchr(p, '\t')))
				*p++ = '\0';
		}
		if (k != 5)
			continue;
		rows++;
		enum latexeq want = col[4][0] == '1' ? LATEXEQ_YES : LATEXEQ_NO, got = eq(col[0], col[1]);

		agree += got == want;
		snprintf(name, sizeof(name), "pair %d: '%.50s' vs '%.50s' is %s", rows, col[0], col[1],
			 want == LATEXEQ_YES ? "equal" : "unequal");
		TEST(name, got == want);
	}
	fclose(f);
	TEST("corpus: at least 300 pairs", rows >= 300);
	printf("# %d of %d pairs agree with the expected (sympy's) verdict\n", agree, rows);
}

static void
test_algnum(void)
{
	struct algnum a, b, h, r;

	algnum_rat(&a, 8, 1);
	algnum_rat(&h, 1, 2);
	TEST("algnum: 8^(1/2)", algnum_pow(&r, &a, &h) == 0);
	algnum_rat(&a, 2, 1);
	algnum_pow(&b, &a, &h);
	algnum_mul(&b, &b, &a);
	TEST("algnum: 8^(1/2) == 2 * 2^(1/2)", algnum_eq(&r, &b) == 1);
	TEST("algnum: 2 * 2^(1/2) != 2", algnum_eq(&b, &a) == 0);
	algnum_rat(&a, 1, 0);
	TEST("algnum: n/0 refused", algnum_rat(&a, 1, 0) == -1);
	algnum_rat(&a, -4, 1);
	TEST("algnum: (-4)^(1/2) refused (complex)", algnum_pow(&r, &a, &h) == -1);
	algnum_rat(&a, 2, 1);
	algnum_rat(&b, 100, 1);
	TEST("algnum: 2^100 refused (int64)", algnum_pow(&r, &a, &b) == -1);
	algnum_rat(&a, 0, 1);
	TEST("algnum: division by 0 refused", algnum_div(&r, &b, &a) == -1);
	algnum_rat(&a, 1000000000039LL, 1);
	TEST("algnum: the root of a prime over 10^12 refused", algnum_pow(&r, &a, &h) == -1);
	algnum_atom(&a, ALGNUM_I);
	algnum_mul(&r, &a, &a);
	algnum_rat(&b, -1, 1);
	TEST("algnum: i * i == -1", algnum_eq(&r, &b) == 1);
}

/* what the checker cannot decide: sympy's call (needs_symbolic) */
static void
test_unknown(void)
{
	static const char *const pairs[][2] = {
		{ "\\sqrt{3+2\\sqrt{2}}", "1+\\sqrt{2}" },	/* a nested radical */
		{ "x\\sqrt{2}", "\\sqrt{2x^2}" },		/* sqrt(x^2) is |x| */
		{ "10^{30}", "10^{30}+1" },			/* past int64, too close for a double */
		{ "\\sin x", "\\cos x" },			/* functions */
		{ "\\log 2", "\\ln 2" },
		{ "\\pm\\sqrt{2}", "\\sqrt{2}, -\\sqrt{2}" },
		{ "x<5", "x \\le 5" },				/* inequalities */
		{ "\\sqrt[3]{-8}", "-2" },			/* sympy's principal root is complex */
		{ "\\begin{pmatrix}1\\end{pmatrix}", "1" },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char name[128];

		snprintf(name, sizeof(name), "unknown: '%s' vs '%s'", pairs[i][0], pairs[i][1]);
		TEST(name, eq(pairs[i][0], pairs[i][1]) == LATEXEQ_UNKNOWN);
	}
	TEST("unknown: the same text is equal even unparsed", eq("\\sin x", " \\sin x ") == LATEXEQ_YES);
	TEST("numbers apart are unequal even past the exact arithmetic",
	     eq("10^{30}", "10^{31}") == LATEXEQ_NO);
	TEST("symbols apart numerically are unequal past the term cap",
	     eq("(a+b+c+d)^{9}", "(a+b+c+d)^{9}+1") == LATEXEQ_NO);
}

static char *
repeat(const char *unit, size_t times, const char *tail)
{
	size_t u = strlen(unit), t = strlen(tail);
	char *s = malloc(u * times + t + 1);

	for (size_t i = 0; i < times; i++)
		memcpy(s + i * u, unit, u);
	memcpy(s + u * times, tail, t + 1);
	return s;
}

static void
test_hostile(void)
{
	char *deep = repeat("(", 3000, "1");
	char *fracs = repeat("\\frac{1}{", 200, "2");
	char *neg = repeat("-", 4000, "1");
	char *set = repeat("1,", 200, "1");

	TEST("hostile: 3000 open parens", eq(deep, "1") == LATEXEQ_UNKNOWN);
	TEST("hostile: 200 nested \\frac", eq(fracs, "1") == LATEXEQ_UNKNOWN);
	TEST("hostile: 4000 minus signs", eq(neg, "1") == LATEXEQ_UNKNOWN);
	TEST("hostile: a list past the item cap", eq(set, "1") == LATEXEQ_UNKNOWN);
	TEST("hostile: 2^{99999}", eq("2^{99999}", "2^{99999}+1") == LATEXEQ_UNKNOWN);
	/* its double overflows: no number to say unequal by */
	TEST("hostile: 10^{10^{10}}", eq("10^{10^{10}}", "1") == LATEXEQ_UNKNOWN);
	TEST("hostile: 1000!", eq("1000!", "1") == LATEXEQ_UNKNOWN);
	TEST("hostile: a NUL inside", latexeq("1\0" "2", 3, "1", 1) == LATEXEQ_UNKNOWN);
	TEST("hostile: empty vs empty", eq("", "") == LATEXEQ_UNKNOWN);
	TEST("hostile: unbalanced", eq("\\frac{1}{2", "\\frac{1}{2}") == LATEXEQ_UNKNOWN);
	TEST("hostile: \\boxed{} inside", eq("\\boxed{\\frac{1}{2}}", "0.5") == LATEXEQ_YES);
	TEST("hostile: stray bytes", eq("\xff\xfe", "1") == LATEXEQ_UNKNOWN);
	free(deep);
	free(fracs);
	free(neg);
	free(set);
}

struct gcase {
	const char *grader, *reply, *gold;
	int correct, unparsed;
};

/*
 * lighteval is not installed here (no network to PyPI), so these
 * expectations come from following its code by hand: the regexes and
 * priorities of extractive_match_utils.py (lazy_expr_regex,
 * lazy_latex_regex, lazy_indices_regex), extract_target_from_pred (the
 * lowest priority with a match, the match ending last first), latex2sympy2
 * extended's extract_boxed_content, and math_comparison.py's
 * compare_gold_target / sympy_expr_eq at precision 5, with the original's
 * _LightevalBaseGrader (score > 0.5; unparsed only when compute raises).
 */
static const struct gcase gcases[] = {
	/* boxed, priority 0 for the reply */
	{ "lighteval_expr", "\\boxed{204}", "204", 1, 0 },
	/* "answer" .{0,50}? then number_with_anchors (priority 200) */
	{ "lighteval_expr", "The answer is 204.", "204", 1, 0 },
	/* "final answer ... is" (50) beats the $x = 17$ (300) */
	{ "lighteval_expr", "So we get $x = 17$. Then the final answer is 42", "42", 1, 0 },
	/* priority 300: the number ending last */
	{ "lighteval_expr", "I think it is 41 or maybe 42", "42", 1, 0 },
	{ "lighteval_expr", "I think it is 42 or maybe 41", "42", 0, 0 },
	/* thousands separators: integer1, ", " dropped */
	{ "lighteval_expr", "Answer: 1,000", "1000", 1, 0 },
	/* "answer" then a LaTeX environment (200): \frac{84}{2} */
	{ "lighteval_expr", "The answer is $\\frac{84}{2}$", "42", 1, 0 },
	/* the expr "7**" does not parse; the number " 7" before it does */
	{ "lighteval_expr", "Thus m+n = 3+4 = 7. **Answer: 7**", "7", 1, 0 },
	/* expr 2^5 - 1 then the number 31 ending last */
	{ "lighteval_expr", "the total is 2^5 - 1 = 31", "31", 1, 0 },
	{ "lighteval_expr", "x = 3/4", "0.75", 1, 0 },
	/* percent: 50 * 1/100 */
	{ "lighteval_expr", "It is 50%", "0.5", 1, 0 },
	{ "lighteval_expr", "Reasoning... **Answer:** $\\boxed{33}$", "33", 1, 0 },
	/* no <think> stripping: the text as given */
	{ "lighteval_expr", "<think>Maybe 12? No, 13.</think> The answer is 14", "14", 1, 0 },
	/* two boxes next to each other: "1,2", a set, not 2 */
	{ "lighteval_expr", "\\boxed{1}\\boxed{2}", "2", 0, 0 },
	{ "lighteval_expr", "the answer is 0042", "42", 1, 0 },
	/* refusals and empty replies: nothing extracted, score 0, not unparsed */
	{ "lighteval_expr", "I cannot solve this.", "42", 0, 0 },
	{ "lighteval_expr", "", "42", 0, 0 },
	/* MATH-500: the gold's \boxed{} at 55 */
	{ "lighteval_latex", "\\boxed{\\frac{3}{4}}",
	  "We compute ... so the answer is $\\boxed{\\frac{3}{4}}$.", 1, 0 },
	{ "lighteval_latex", "The answer is $\\frac{3}{4}$", "So $\\boxed{\\frac34}$.", 1, 0 },
	{ "lighteval_latex", "The answer is $0.75$", "So $\\boxed{\\frac34}$.", 1, 0 },
	{ "lighteval_latex", "Therefore \\boxed{2\\sqrt{2}}", "Thus $\\boxed{\\sqrt{8}}$", 1, 0 },
	{ "lighteval_latex", "So $x \\in \\boxed{(1,2]}$", "The interval is $\\boxed{(1,2]}$.", 1, 0 },
	{ "lighteval_latex", "Final: \\boxed{\\text{Friday}}", "$\\boxed{\\text{Friday}}$", 1, 0 },
	/* a Float rounded to 5 places: 0.333 is not 1/3, 0.33333 is */
	{ "lighteval_latex", "Final: \\boxed{0.333}", "$\\boxed{\\frac{1}{3}}$", 0, 0 },
	{ "lighteval_latex", "Final: \\boxed{0.33333}", "$\\boxed{\\frac{1}{3}}$", 1, 0 },
	/* "$2$ and $3$": the next groups make a set */
	{ "lighteval_latex", "The roots are $2$ and $3$.", "Thus $\\boxed{2, 3}$", 1, 0 },
	{ "lighteval_latex", "Answer: $\\sqrt{2}/2$", "\\boxed{\\frac{\\sqrt{2}}{2}}", 1, 0 },
	/* the reply's equation gives its right-hand side */
	{ "lighteval_latex", "Thus the answer is $x=5$", "$\\boxed{5}$", 1, 0 },
	{ "lighteval_latex", "We get \\boxed{5 \\text{ cm}}", "$\\boxed{5}$", 1, 0 },
	{ "lighteval_latex", "I refuse to answer.", "$\\boxed{5}$", 0, 0 },
	{ "lighteval_latex", "\\boxed{", "$\\boxed{5}$", 0, 0 },
	/* a gold with nothing to extract is compared as a string */
	{ "lighteval_latex", "$5$", "no boxed here", 0, 0 },
	/* GPQA: "answer:" then " B" (100) */
	{ "lighteval_gpqa", "Answer: B", "B", 1, 0 },
	{ "lighteval_gpqa", "**Answer: B**", "B", 1, 0 },
	/* no anchor, no start-of-line letter: nothing */
	{ "lighteval_gpqa", "The correct choice is (C).", "C", 0, 0 },
	{ "lighteval_gpqa", "Let me think.\nAnswer: C", " c", 1, 0 },
	{ "lighteval_gpqa", "A", "A", 1, 0 },
	{ "lighteval_gpqa", "B. because", "B", 1, 0 },
	{ "lighteval_gpqa", "After analysis, the final answer is D", "D", 1, 0 },
	/* "answer: C" (100) beats "answer is A" (150) */
	{ "lighteval_gpqa", "The answer is A or B, final answer: C", "C", 1, 0 },
	/* "Answer:B": no space before the letter, no match */
	{ "lighteval_gpqa", "Answer:B", "B", 0, 0 },
	{ "lighteval_gpqa", "", "A", 0, 0 },
	/* a gold not A-D: the original's ValueError, unparsed */
	{ "lighteval_gpqa", "Answer: B", "E", 0, 1 },
};

static void
test_graders(void)
{
	for (size_t i = 0; i < sizeof(gcases) / sizeof(gcases[0]); i++) {
		const struct gcase *c = &gcases[i];
		struct grade_result r;
		grade_fn *f = grade_lookup(c->grader);
		char name[160];
		int rc = f ? f(c->reply, strlen(c->reply), c->gold, &r) : -1;

		snprintf(name, sizeof(name), "%s: '%.60s' vs '%.30s'", c->grader, c->reply, c->gold);
		for (char *q = name; *q; q++)
			*q = *q == '\n' ? ' ' : *q;
		TEST(name, rc == 0 && r.correct == c->correct && r.unparsed == c->unparsed);
	}
}

static void
test_grader_api(void)
{
	struct grade_result r;
	size_t big = GRADE_MAX_TEXT + 1;
	char *s = malloc(big);
	grade_fn *f = grade_lookup("lighteval_latex");

	TEST_STR("default grader: math_500", grade_default("math_500"), "lighteval_latex");
	TEST_STR("default grader: aime25", grade_default("aime25"), "lighteval_expr");
	TEST_STR("default grader: gpqa_diamond", grade_default("gpqa_diamond"), "lighteval_gpqa");
	f("  \\boxed{1}\n", 12, "\\boxed{1}", &r);
	TEST_STR("lighteval: the extracted answer is the reply stripped", r.extracted, "\\boxed{1}");
	TEST_STR("lighteval: the original's reason", r.reason,
		 "lighteval LightevalLatexGrader: score=1.0 (threshold 0.5)");
	memset(s, '$', big);
	errno = 0;
	TEST("lighteval: a reply over the cap refused",
	     f(s, big, "1", &r) == -1 && errno == EMSGSIZE && r.unparsed);
	/* 1 MiB of hostile text: each must come back (bounded work) */
	memset(s, '$', 1 << 20);
	TEST("lighteval: 1 MiB of '$'", f(s, 1 << 20, "1", &r) == 0 && !r.correct);
	for (size_t i = 0; i < (1 << 20); i++)
		s[i] = "\\[1+ answer=(\\boxed{"[i % 20];
	TEST("lighteval: 1 MiB of openers", f(s, 1 << 20, "1", &r) == 0);
	for (size_t i = 0; i < (1 << 20); i++)
		s[i] = "1+ "[i % 3];
	TEST("lighteval: 1 MiB of '1+ '", grade_lookup("lighteval_expr")(s, 1 << 20, "1", &r) == 0);
	TEST("lighteval_gpqa: 1 MiB", grade_lookup("lighteval_gpqa")(s, 1 << 20, "A", &r) == 0);
	free(s);
}

int
main(void)
{
	test_corpus();
	test_algnum();
	test_unknown();
	test_hostile();
	test_graders();
	test_grader_api();
	return TEST_DONE();
}
