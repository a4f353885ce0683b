/* SPDX-License-Identifier: Apache-2.0 */
/* lcb_codegeneration: LiveCodeBench code generation, its prompt as lighteval's prepare_prompt builds it, its test cases handed to the grader. */
#include "evalset.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "row.h"
#include "util.h"

#define LCB_DATASET "livecodebench/code_generation_lite"
#define LCB_TASK "lcb_codegeneration"
#define LCB_GENERATION_SIZE 32768
/* AIPERF_ACCURACY_LCB_RELEASE_TAG: the release (the hub config) read. */
#define LCB_DEFAULT_TAG "v4_v5"

#define LCB_PREAMBLE \
	"You will be given a question (problem specification) and will " \
	"generate a correct Python program that matches the specification " \
	"and passes all tests.\n\n"
#define LCB_STARTER \
	"You will use the following starter code to write the solution to " \
	"the problem and enclose your code within delimiters.\n"
#define LCB_STDIN \
	"Read the inputs from stdin solve the problem and write the answer " \
	"to stdout (do not directly test on the sample inputs). Enclose " \
	"your code within delimiters as follows. Ensure that when the " \
	"python program runs, it reads the inputs, runs the algorithm and " \
	"writes output to STDOUT.\n" \
	"```python\n# YOUR CODE HERE\n```\n\n"

/*
 * f"{row.get(col, dflt)}" for the values a text column can hold: a string
 * as it is, null as "None", a missing column as dflt (NULL: as null).
 * Returns the text, or NULL with a message for any other value.
 */
static const char *
lcb_text(const struct split *e, const char *col, const char *dflt, char *err,
	 size_t errlen)
{
	const struct json *v = json_get(e->row, col);

	if (!v)
		return dflt ? dflt : "None";
	if (v->type == JSON_NULL)
		return "None";
	return split_str(e, col, err, errlen);
}

/* lighteval's prepare_prompt(): the starter code when the row has one
 * (not missing, null or ""), else the read-from-stdin instructions. */
static int
lcb_prompt(const struct split *e, struct buf *p, char *err, size_t errlen)
{
	const char *q = lcb_text(e, "question_content", "", err, errlen);
	const struct json *sc = json_get(e->row, "starter_code");
	const char *starter = NULL;
	int rc;

	if (!q)
		return -1;
	if (sc && sc->type != JSON_NULL &&
	    !(starter = split_str(e, "starter_code", err, errlen)))
		return -1;
	buf_reset(p);
	rc = buf_addf(p, LCB_PREAMBLE "Question: %s\n\n", q);
	if (starter && *starter)
		rc |= buf_addf(p, LCB_STARTER "```python\n%s\n```\n\n", starter);
	else
		rc |= buf_addstr(p, LCB_STDIN);
	if (rc)
		return split_err(e, err, errlen, "the prompt is longer than %zu bytes", EVALSET_TEXT_MAX);
	return 0;
}

/*
 * The ground truth: the original's orjson.dumps() of the four upstream
 * fields, in this order, each as the row holds it ("" when missing):
 * {"starter_code":...,"public_test_cases":...,"private_test_cases":...,
 * "metadata":...}. private_test_cases stays encoded (base64 of zlib of a
 * pickled JSON text); the grader decodes it.
 */
static int
lcb_gold(const struct split *e, struct buf *g, char *err, size_t errlen)
{
	static const char *const col[] = {
		"starter_code", "public_test_cases", "private_test_cases",
		"metadata",
	};
	struct jw w;

	buf_reset(g);
	jw_init(&w, g, 0);
	jw_obj(&w);
	for (size_t i = 0; i < sizeof(col) / sizeof(col[0]); i++) {
		const struct json *v = json_get(e->row, col[i]);

		jw_key(&w, col[i]);
		if (!v)
			jw_str(&w, "");
		else
			jw_value(&w, v);
	}
	jw_obj_end(&w);
	if (g->len >= EVALSET_TEXT_MAX || memchr(g->s, '\0', g->len))
		return split_err(e, err, errlen, "the test cases are longer than %zu bytes",
				 EVALSET_TEXT_MAX);
	return 0;
}

static int
lcb_problems(struct split *e, struct problem_set *out, char *err,
	     size_t errlen)
{
	struct buf p = BUF_INIT(EVALSET_TEXT_MAX), g = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	for (size_t i = 0; i < e->rows.n && rc == 0; i++) {
		rc = split_row(e, i, err, errlen);
		if (rc == 0)
			rc = lcb_prompt(e, &p, err, errlen);
		if (rc == 0)
			rc = lcb_gold(e, &g, err, errlen);
		if (rc == 0)
			pset_add(out, LCB_TASK, g.s, p.s, NULL,
				     LCB_GENERATION_SIZE);
	}
	buf_release(&p);
	buf_release(&g);
	return rc;
}

/*
 * The files of release tag in the dataset's repository, as its loading
 * script (code_generation_lite.py, which the original runs through
 * trust_remote_code) maps them: release N is test.jsonl (N = 1) or
 * testN.jsonl; "release_vN" is releases 1 to N, "release_latest" all six,
 * "vN" release N alone and "vA_vB" releases A to B. first and last get
 * the range; -1 when the tag is none of these.
 */
#define LCB_RELEASES 6

static int
lcb_range(const char *tag, int *first, int *last)
{
	int a, b, n;

	if (!strcmp(tag, "release_latest")) {
		*first = 1, *last = LCB_RELEASES;
		return 0;
	}
	if (sscanf(tag, "release_v%1d%n", &b, &n) == 1 && !tag[n])
		a = 1;
	else if (sscanf(tag, "v%1d_v%1d%n", &a, &b, &n) == 2 && !tag[n])
		;
	else if (sscanf(tag, "v%1d%n", &a, &n) == 1 && !tag[n])
		b = a;
	else
		return -1;
	if (a < 1 || b > LCB_RELEASES || a > b)
		return -1;
	*first = a, *last = b;
	return 0;
}

/* The rows of a release: from --accuracy-dataset-dir as the layout has
 * them (DIR/<id>/<tag>/test.jsonl), else the repository's files (the
 * viewer cuts their cells), each through the hub cache. */
static int
lcb_rows(const struct rows_src *src, const char *tag, struct rows *r, char *err,
	 size_t errlen)
{
	int first, last;

	if (src->dir)
		return rows_get(src, LCB_DATASET, tag, "test", r, err, errlen);
	if (lcb_range(tag, &first, &last))
		return util_seterr(err, errlen, "unknown release '%s' (release_vN, "
				   "release_latest, vN or vA_vB, N from 1 to %d)",
				   tag, LCB_RELEASES);
	*r = (struct rows){ 0 };
	for (int v = first; v <= last; v++) {
		char file[32];
		struct rows part;

		if (v == 1)
			snprintf(file, sizeof(file), "test.jsonl");
		else
			snprintf(file, sizeof(file), "test%d.jsonl", v);
		if (rows_get_file(src, LCB_DATASET, "main", file, &part, err, errlen) < 0) {
			rows_free(r);
			return -1;
		}
		for (size_t i = 0; i < part.n; i++)
			rows_add(r, part.v[i], part.len[i]);
		r->from = part.from;
		rows_free(&part);
	}
	return 0;
}

static int
lcb_load(const struct bench_opts *o, struct problem_set *out, char *err,
	 size_t errlen)
{
	const char *tag = getenv("AIPERF_ACCURACY_LCB_RELEASE_TAG");
	char rerr[512];
	struct split e;
	struct rows r;
	int rc;

	if (o->tasks)
		return util_seterr(err, errlen, LCB_TASK ": --accuracy-tasks is not "
				   "supported; the lighteval reference evaluates the "
				   "full LCB test split (difficulty is reported per-row "
				   "in metadata).");
	if (o->n_shots != 0)
		return util_seterr(err, errlen, LCB_TASK ": --accuracy-n-shots != 0 "
				   "is not supported; the lighteval reference is "
				   "zero-shot (few_shots_split=None).");
	if (o->cot)
		return util_seterr(err, errlen, LCB_TASK ": --accuracy-enable-cot is "
				   "not supported; lighteval's LCB prompt scaffold has "
				   "no CoT trigger — the model's natural response carries "
				   "reasoning before the code block.");
	if (!tag || !*tag)
		tag = LCB_DEFAULT_TAG;
	if (lcb_rows(o->src, tag, &r, rerr, sizeof(rerr)) < 0)
		return util_seterr(err, errlen, LCB_TASK ": failed to load '%s' subset "
				   "'%s' (set AIPERF_ACCURACY_LCB_RELEASE_TAG to a current "
				   "subset such as v4_v5 or v6): %s", LCB_DATASET, tag,
				   rerr);
	split_own(&e, LCB_DATASET, tag, "test", &r);
	rc = lcb_problems(&e, out, err, errlen);
	split_release(&e);
	return rc;
}

const struct bench bench_lcb = {
	.name = "lcb_codegeneration",
	.n_shots = 0,
	.max_shots = 0,
	.cot = false,
	.system_prompt = NULL,
	.load = lcb_load,
};
