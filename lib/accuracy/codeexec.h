/* SPDX-License-Identifier: Apache-2.0 */
/* The original's code_execution grader (LiveCodeBench): the reply's program run on the problem's tests, in the sandbox only. */
#ifndef AIPERF_CODEEXEC_H
#define AIPERF_CODEEXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy/grade.h"

/*
 * The ground truth is the lcb_codegeneration loader's JSON object
 * (starter_code, public_test_cases, private_test_cases, metadata), each
 * field as the dataset has it: the public cases a JSON text (or an
 * array) of {"input", "output"} strings, the private ones the same or
 * base64(zlib(pickle(that JSON text))), metadata a JSON text (or an
 * object) whose func_name makes the problem call-based. A
 * codeexec_tests holds the cases as borrowed pointers into the JSON
 * documents it owns; release it with codeexec_tests_release().
 */

/* Hostile ground truths are refused past these. */
#define CODEEXEC_MAX_CASES 100000
/* a problem's ground truth: its test cases, the private ones compressed
 * (LiveCodeBench's largest rows are tens of MiB) */
#define CODEEXEC_MAX_GOLD ((size_t)512 << 20)
#define CODEEXEC_MAX_DECODED (256u << 20)	/* the private cases, decoded */
/* lighteval's CodegenMetric: seconds for one test case */
#define CODEEXEC_TIMEOUT_S 6

struct codeexec_case {
	const char *in;
	size_t inlen;
	const char *out;
	size_t outlen;
};

struct codeexec_tests {
	struct codeexec_case *cases;
	size_t n;
	size_t alloc;
	const char *fn_name;	/* NULL: stdin/stdout problem */
	bool fn_not_str;	/* func_name set but not a string: fails */
	/* the private cases as stored, when they still need decoding */
	const char *encoded;
	size_t enclen;
	struct json_doc *doc[4];
};

/*
 * Parse gold[0..n) into *t (which need not be initialized). Returns 0, or
 * -1 with the reason in err when it is malformed the way the original
 * says "malformed test cases" (or "ground_truth not orjson"). When
 * t->encoded is set the private cases are still to be added with
 * codeexec_add_cases(); until then t->n counts the public ones only.
 */
int codeexec_parse(const char *gold, size_t n, struct codeexec_tests *t,
		   char *err, size_t errlen);

/* Append the cases of the JSON array s[0..n) ({"input", "output"}
 * strings) to t. Returns 0, or -1 with the reason in err. */
int codeexec_add_cases(struct codeexec_tests *t, const char *s, size_t n,
		       char *err, size_t errlen);

void codeexec_tests_release(struct codeexec_tests *t);

/*
 * lighteval's extract_code(): the lines between the last two lines that
 * hold "```" (the fence lines themselves left out), or nothing when
 * fewer than two lines hold one. Returns the code's length with *code
 * pointing into reply (a length of 0 is "no code").
 */
size_t codeexec_extract(const char *reply, size_t n, const char **code);

/*
 * grade_fn: pass@1 as the original reports it, correct only when every
 * test case passes. unparsed when no code could be extracted or the
 * ground truth is malformed. Returns -1 with errno ENOEXEC, wrong and
 * unparsed, and "code_execution needs bubblewrap: ..." in the reason when
 * the sandbox cannot be made (no program is then run at all).
 */
int codeexec_grade(const char *reply, size_t n, const char *gold,
		   struct grade_result *r);

#endif
