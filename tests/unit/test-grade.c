/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/accuracy: the original's graders on real-looking replies, their normalisation, hostile input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accuracy/grade.h"
#include "accuracy/gsm8k.h"
#include "accuracy/mathans.h"
#include "accuracy/matheq.h"
#include "accuracy/mathstrip.h"
#include "pytext.h"
#include "test.h"

struct gcase {
	const char *name, *grader, *reply, *gold;
	int correct, unparsed;
	const char *extracted;
};

/*
 * Every expected value below was got by running the original's grader
 * code itself (the .py files of src/aiperf/accuracy/graders at the mirror's HEAD,
 * with BaseGrader and GradingResult stubbed and _symbolic_equal made to
 * return False, so that "correct" is what the string and numeric steps
 * decide): grade(reply, gold) gave correct, unparsed and extracted_answer.
 */
static const struct gcase cases[] = {
	{ "mc: a bare letter",
	  "multiple_choice", "C", "C",
	  1, 0, "C" },
	{ "mc: a completion's ' B' then the next question (first line only)",
	  "multiple_choice", " B\n\nQuestion: next", " B",
	  1, 0, "B" },
	{ "mc: 'Answer: C' (regex fallback: unparsed, still correct)",
	  "multiple_choice", "Answer: C", "C",
	  1, 1, "C" },
	{ "mc: '(B)'",
	  "multiple_choice", "(B)", "B",
	  1, 1, "B" },
	{ "mc: 'The answer is D.' (the first lone A-D: the 'a' of answer is lower case)",
	  "multiple_choice", "The answer is D.", "D",
	  1, 1, "D" },
	{ "mc: letters in prose: the first lone letter wins, not the right one",
	  "multiple_choice", "I think A is wrong; B is right", "B",
	  0, 1, "A" },
	{ "mc: the answer on the second line is never read",
	  "multiple_choice", "Let me think.\nThe answer is B", "B",
	  0, 1, "Let me think." },
	{ "mc: lower case never counts",
	  "multiple_choice", "b", "B",
	  0, 1, "b" },
	{ "mc: '**B**'",
	  "multiple_choice", "**B**", "B",
	  1, 1, "B" },
	{ "mc: a refusal: the line itself, unparsed and wrong",
	  "multiple_choice", "I cannot answer that.", "A",
	  0, 1, "I cannot answer that." },
	{ "mc: an empty reply",
	  "multiple_choice", "", "A",
	  0, 1, "" },
	{ "mc: <think> is not stripped: its A is the first lone letter",
	  "multiple_choice", "<think>A or B?</think>\nB", "B",
	  0, 1, "A" },
	{ "mc: a letter after a non-ASCII word character is not lone",
	  "multiple_choice", "\303\251B", "B",
	  0, 1, "\303\251B" },
	{ "em: both sides stripped",
	  "exact_match", "  A\n", " A",
	  1, 0, "A" },
	{ "em: prose is wrong (strict)",
	  "exact_match", "The answer is A.", "A",
	  0, 0, "The answer is A." },
	{ "em: case counts",
	  "exact_match", "a", "A",
	  0, 0, "a" },
	{ "em: whitespace only: unparsed",
	  "exact_match", "   ", "A",
	  0, 1, "" },
	{ "em: Unicode spaces strip as Python's str.strip()",
	  "exact_match", "\302\240True\342\200\203", "True",
	  1, 0, "True" },
	{ "gsm8k: '#### 42', the gold's rationale ignored",
	  "lighteval_gsm8k", "She has 6 + 36 = 42 eggs.\n#### 42", "6*7=42\n#### 42",
	  1, 0, "42" },
	{ "gsm8k: '$1,234' via the last number, commas dropped",
	  "lighteval_gsm8k", "The total is $1,234.", "#### 1,234",
	  1, 1, "1234" },
	{ "gsm8k: '24.0' equals 24 numerically",
	  "lighteval_gsm8k", "So the answer is 24.0", "#### 24",
	  1, 1, "24.0" },
	{ "gsm8k: a negative marker",
	  "lighteval_gsm8k", "#### -3", "#### -3",
	  1, 0, "-3" },
	{ "gsm8k: the last number of the prose",
	  "lighteval_gsm8k", "First 12, then 30, finally 18 apples.", "#### 18",
	  1, 1, "18" },
	{ "gsm8k: a refusal: [invalid]",
	  "lighteval_gsm8k", "I cannot answer", "#### 5",
	  0, 1, "[invalid]" },
	{ "gsm8k: an empty reply: [invalid]",
	  "lighteval_gsm8k", "", "#### 5",
	  0, 1, "[invalid]" },
	{ "gsm8k: '####42' is no marker (space needed): last number 41",
	  "lighteval_gsm8k", "####42 or 41", "#### 42",
	  0, 1, "41" },
	{ "gsm8k: a gold without a marker is never matched",
	  "lighteval_gsm8k", "#### 5", "no marker",
	  0, 0, "5" },
	{ "gsm8k: the number after </think> is the last one",
	  "lighteval_gsm8k", "<think>maybe 7</think>It is 8", "#### 8",
	  1, 1, "8" },
	{ "math: \\boxed{\\frac{3}{4}} in $...$",
	  "math", "So $x = \\boxed{\\frac{3}{4}}$.", "\\frac{3}{4}",
	  1, 0, "\\frac{3}{4}" },
	{ "math: \\dfrac34 normalised to \\frac{3}{4}",
	  "math", "\\boxed{\\dfrac34}", "\\frac{3}{4}",
	  1, 0, "\\dfrac34" },
	{ "math: the last \\boxed wins, nested boxes",
	  "math", "First \\boxed{1}, then \\boxed{\\boxed{2}}", "2",
	  1, 0, "2" },
	{ "math: \\sqrt2 made \\sqrt{2}",
	  "math", "\\boxed{\\frac{\\sqrt{2}}{2}}", "\\frac{\\sqrt2}{2}",
	  1, 0, "\\frac{\\sqrt{2}}{2}" },
	{ "math: an unbalanced last \\boxed is no box: last number",
	  "math", "\\boxed{5} and \\boxed{6", "6",
	  1, 1, "6" },
	{ "math: \\fbox is not looked for: last number",
	  "math", "\\fbox{7}", "7",
	  1, 1, "7" },
	{ "math: 'The answer is 3.14.' keeps the decimal",
	  "math", "The answer is 3.14.", "3.14",
	  1, 1, "3.14" },
	{ "math: the last answer phrase wins",
	  "math", "the answer is 5. Wait, actually the answer is 12", "12",
	  1, 1, "12" },
	{ "math: an answer phrase with LaTeX kept whole; gold 1/2 becomes \\frac{1}{2}",
	  "math", "Final answer: \\frac{1}{2}", "1/2",
	  1, 1, "\\frac{1}{2}" },
	/* the two below: correct once _symbolic_equal is sympy's (Float(0.5)
	 * equals Rational(1, 2); parse_expr gives x + 1 for both), which
	 * lib/accuracy/latexeq now decides */
	{ "math: 0.5 vs \\frac{1}{2}: by the symbolic step",
	  "math", "\\boxed{0.5}", "\\frac{1}{2}",
	  1, 0, "0.5" },
	{ "math: 50\\% vs 0.5: the percent variants",
	  "math", "\\boxed{50\\%}", "0.5",
	  1, 0, "50\\%" },
	{ "math: a trailing \\text{ cm} dropped",
	  "math", "\\boxed{10 \\text{ cm}}", "10",
	  1, 0, "10 \\text{ cm}" },
	{ "math: a unit word dropped",
	  "math", "\\boxed{5 mph}", "5",
	  1, 0, "5 mph" },
	{ "math: \\left( \\right) and spaces",
	  "math", "\\boxed{\\left( 1, 2 \\right)}", "(1,2)",
	  1, 0, "\\left( 1, 2 \\right)" },
	{ "math: a comma list in any order",
	  "math", "\\boxed{3, 1, 2}", "1,2,3",
	  1, 0, "3, 1, 2" },
	{ "math: 'x=5' vs 5",
	  "math", "\\boxed{x=5}", "5",
	  1, 0, "x=5" },
	{ "math: a choice prefix '(B)' against B",
	  "math", "\\boxed{(B)}", "B",
	  1, 0, "(B)" },
	{ "math: x+1 vs 1+x: by the symbolic step",
	  "math", "\\boxed{x+1}", "1+x",
	  1, 0, "x+1" },
	{ "math: trailing .000 dropped",
	  "math", "\\boxed{2.000}", "2",
	  1, 0, "2.000" },
	{ "math: \\$ dropped; 1,000 vs 1000 numerically",
	  "math", "\\boxed{\\$1,000}", "1000",
	  1, 0, "\\$1,000" },
	{ "math: inf becomes \\infty",
	  "math", "\\boxed{inf}", "\\infty",
	  1, 0, "inf" },
	{ "math: reasoning then the last number",
	  "math", "Through reasoning we get 17 then 204.", "204",
	  1, 1, "204" },
	{ "math: a refusal: the stripped reply, wrong",
	  "math", "I cannot answer this question", "12",
	  0, 1, "I cannot answer this question" },
	{ "math: an empty reply",
	  "math", "", "12",
	  0, 1, "" },
	{ "math: a \\boxed inside <think> still counts (no stripping)",
	  "math", "<think>try \\boxed{3}</think>So 4", "3",
	  1, 0, "3" },
	{ "math: 'answer is' and only spaces after: an empty answer",
	  "math", "answer is   \n", "1",
	  0, 1, "" },
};

static void
test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct gcase *c = &cases[i];
		struct grade_result r;
		grade_fn *f = grade_lookup(c->grader);
		int rc = f ? f(c->reply, strlen(c->reply), c->gold, &r) : -1;

		TEST(c->name, rc == 0 && r.correct == c->correct &&
			      r.unparsed == c->unparsed &&
			      !strcmp(r.extracted, c->extracted));
		if (rc == 0 && strcmp(r.extracted, c->extracted))
			printf("#   extracted '%s', want '%s'\n", r.extracted,
			       c->extracted);
	}
}

static const char *
strip(const char *s, struct buf *b)
{
	buf_reset(b);
	mathstrip(s, strlen(s), b);
	return buf_str(b);
}

/* strip_string outputs, each also got from running the original's */
static void
test_mathstrip(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	TEST_STR("strip: \\frac12 (no braces) made \\frac{1}{2}", strip("\\frac12", &b), "\\frac{1}{2}");
	TEST_STR("strip: 0.5 stays 0.5, not \\frac{1}{2}", strip("0.5", &b), "0.5");
	TEST_STR("strip: .5 gets its 0", strip(".5", &b), "0.5");
	TEST_STR("strip: 3/4 made \\frac{3}{4}", strip("3/4", &b), "\\frac{3}{4}");
	TEST_STR("strip: int() canonical form, -06/+2", strip("-06/+2", &b), "\\frac{-6}{2}");
	TEST_STR("strip: \\sqrt{2}/2 stays (sqrt not int()ed)", strip("\\sqrt{2}/2", &b), "\\frac{\\sqrt{2}}{2}");
	TEST_STR("strip: degrees", strip("90^\\circ", &b), "90");
	TEST_STR("strip: \\text{x} unwrapped", strip("\\text{(A)}", &b), "(A)");
	TEST_STR("strip: months go", strip("March 5", &b), "5");
	TEST_STR("strip: 'and' goes anywhere", strip("1 and 2", &b), "12");
	TEST_STR("strip: j made i without an i", strip("3j", &b), "3i");
	TEST_STR("strip: \\emptyset", strip("\\emptyset", &b), "{}");
	TEST_STR("strip: k = 7", strip("k = 7", &b), "7");
	TEST_STR("strip: units between non-word characters only", strip("5 cm and 2 mm", &b), "52");
	TEST_STR("strip: 1.0.5 as the two regexes leave it", strip("1.0.5", &b), "1.5");
	TEST_STR("strip: a trailing space bared by rstrip('.')", strip("[  \xc2\xa0..", &b), "[");
	TEST_STR("strip: empty", strip("", &b), "");
	buf_release(&b);
}

static void
test_matheq(void)
{
	TEST("matheq: 0.5 vs \\frac{1}{2} by the symbolic step",
	     matheq("0.5", 3, "\\frac{1}{2}", 11) == MATHEQ_YES);
	TEST("matheq: numbers are final (1 vs 2: no, not sympy)",
	     matheq("1", 1, "2", 1) == MATHEQ_NO);
	TEST("matheq: 50 vs 0.5 by the percent variants", matheq("50", 2, "0.5", 3) == MATHEQ_YES);
	TEST("matheq: an empty prediction", matheq("", 0, "x", 1) == MATHEQ_NO);
	/* y - (2x) vs 2x - (y): simplify gives 2y - 4x, not 0; Eq vs Eq
	 * then fails every sympy step of _symbolic_equal */
	TEST("matheq: two equations, lhs - rhs not flipped",
	     matheq("y=2x", 4, "2x=y", 4) == MATHEQ_NO);
	TEST("matheq: 2^3 vs 8 left to sympy (parse_expr reads ^ as xor)",
	     matheq("2^3", 3, "8", 1) == MATHEQ_SYMBOLIC);
	TEST("matheq: \\frac{1}{3} vs 0.3333 within 1e-4 (N() fallback)",
	     matheq("\\frac{1}{3}", 11, "0.3333", 6) == MATHEQ_YES);
	TEST("matheq: \\sqrt{8} vs 2\\sqrt{2}", matheq("\\sqrt{8}", 8, "2\\sqrt{2}", 9) == MATHEQ_YES);
	TEST("matheq: \\sqrt{2} vs 1.5 (numbers apart)", matheq("\\sqrt{2}", 8, "1.5", 3) == MATHEQ_NO);
	TEST("matheq: \\sin x left to sympy", matheq("\\sin{x}", 7, "\\cos{x}", 7) == MATHEQ_SYMBOLIC);
	TEST("matheq: [1,2] vs (1,2) by the bracket strip", matheq("[1,2]", 5, "1,2", 3) == MATHEQ_YES);
	TEST("matheq: last lone letter of 'A or C' vs C", matheq("A or C", 6, "C", 1) == MATHEQ_YES);
}

static void
test_api(void)
{
	struct grade_result r;
	struct buf b = BUF_INIT(BUF_NOMAX);
	char *big;

	TEST("lookup: the four ported names", grade_lookup("multiple_choice") &&
	     grade_lookup("exact_match") && grade_lookup("lighteval_gsm8k") &&
	     grade_lookup("math"));
	TEST("lookup: the lighteval graders", grade_lookup("lighteval_expr") &&
	     grade_lookup("lighteval_latex") && grade_lookup("lighteval_gpqa"));
	TEST("lookup: code_execution, and no other name",
	     grade_lookup("code_execution") && !grade_lookup("gsm8k"));
	TEST_STR("default grader: mmlu", grade_default("mmlu"), "multiple_choice");
	TEST_STR("default grader: gsm8k", grade_default("gsm8k"), "lighteval_gsm8k");
	TEST_STR("default grader: aime", grade_default("aime"), "math");
	TEST("default grader: unknown", !grade_default("nope"));
	TEST("gsm8k_normalize: '#### ,' is an empty number",
	     gsm8k_normalize("#### ,", 6, &b) && b.len == 0);
	TEST("a NUL inside the reply is a character",
	     grade_lookup("exact_match")("A\0B", 3, "A", &r) == 0 && !r.correct &&
	     r.extracted_len == 3);
	big = malloc(GRADE_MAX_TEXT + 2);
	memset(big, 'A', GRADE_MAX_TEXT + 1);
	TEST("over GRADE_MAX_TEXT: refused, unparsed",
	     grade_lookup("math")(big, GRADE_MAX_TEXT + 1, "1", &r) < 0 &&
	     errno == EMSGSIZE && r.unparsed && !r.correct);
	TEST("extracted cut to fit, NUL-terminated",
	     grade_lookup("exact_match")(big, 1000, "A", &r) == 0 &&
	     strlen(r.extracted) == GRADE_EXTRACTED_MAX - 1 && r.extracted_len == 1000);
	free(big);
	buf_release(&b);
}

/* 1 MiB of hostile text through every grader: bounded time, no crash */
static void
test_hostile(void)
{
	static const char *const unit[] = {
		"{", "\\boxed{", "answer ", "the answer is   \n", "1,", "m ",
		"\\frac", "(A)", "#### -", "9", "x=", ".0", "\xff\xfe", "\\text{",
	};
	const char *names[] = { "multiple_choice", "exact_match", "lighteval_gsm8k", "math" };
	size_t n = 1 << 20;
	char *s = malloc(n);

	for (size_t u = 0; u < sizeof(unit) / sizeof(unit[0]); u++) {
		size_t l = strlen(unit[u]);
		clock_t t0 = clock();
		int ok = 1;
		char name[96];

		for (size_t i = 0; i < n; i++)
			s[i] = unit[u][i % l];
		for (int g = 0; g < 4; g++) {
			struct grade_result r;

			ok &= grade_lookup(names[g])(s, n, "1", &r) == 0 &&
			      strlen(r.extracted) < GRADE_EXTRACTED_MAX;
		}
		snprintf(name, sizeof(name), "1 MiB of hostile pattern %zu: graded in under 10 s", u);
		TEST(name, ok && (double)(clock() - t0) / CLOCKS_PER_SEC < 10);
	}
	free(s);
}

int
main(void)
{
	test_cases();
	test_mathstrip();
	test_matheq();
	test_api();
	test_hostile();
	return TEST_DONE();
}
