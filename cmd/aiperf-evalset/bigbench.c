/* SPDX-License-Identifier: Apache-2.0 */
/* bigbench: BIG-Bench Hard (lukaemon/bbh), its prompts as DeepEval's BigBenchHardTemplate builds them from the shipped prompt files. */
#include "evalset.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "row.h"
#include "pytext.h"
#include "tok/toksrc.h"
#include "util.h"

#define BBH_DATASET "lukaemon/bbh"
#define BBH_MAX_SHOTS 3
#define BBH_GENERATION_SIZE 1024
/* A prompt file is a few kilobytes. */
#define BBH_FILE_MAX ((size_t)1 << 20)

/* DeepEval's BigBenchHardTask in its order (the enum name is the value
 * in upper case), each with its bbh_confinement_statements_dict entry
 * less the "\n\n" before it. */
static const struct bbh_task {
	const char *value, *confinement;
} bbh_tasks[] = {
	{ "boolean_expressions",
	  "Output 'True' or 'False'. Full answer not needed." },
	{ "causal_judgement",
	  "Output 'Yes' or 'No'. Full answer not needed." },
	{ "date_understanding",
	  "Output '(A)', '(B)', '(C)', '(D)', '(E)', or '(F)'. Full answer not needed." },
	{ "disambiguation_qa",
	  "Output '(A)', '(B)', or '(C)'. Full answer not needed." },
	{ "dyck_languages",
	  "Output only the sequence of parentheses characters separated by white space. Full answer not needed." },
	{ "formal_fallacies",
	  "Output 'invalid' or 'valid'. Full answer not needed." },
	{ "geometric_shapes",
	  "Output '(A)', '(B)', '(C)', '(D)', '(E)', '(F)', '(G)', '(H)', '(I)', '(J)', or '(K)'. Full answer not needed." },
	{ "hyperbaton",
	  "Output '(A)' or'(B)'. Full answer not needed." },
	{ "logical_deduction_five_objects",
	  "Output '(A)', '(B)', '(C)', '(D)', or '(E)'. Full answer not needed." },
	{ "logical_deduction_seven_objects",
	  "Output '(A)', '(B)', '(C)', '(D)', '(E)', '(F)', or '(G)'. Full answer not needed." },
	{ "logical_deduction_three_objects",
	  "Output '(A)', '(B)', or '(C)'. Full answer not needed." },
	{ "movie_recommendation",
	  "Output '(A)', '(B)', '(C)', '(D)', or '(E)'. Full answer not needed." },
	{ "multistep_arithmetic_two",
	  "Output the numerical answer. Full answer not needed." },
	{ "navigate",
	  "Output 'Yes' or 'No'. Full answer not needed." },
	{ "object_counting",
	  "Output the numerical answer. Full answer not needed." },
	{ "penguins_in_a_table",
	  "Output '(A)', '(B)', '(C)', '(D)', or '(E)'. Full answer not needed." },
	{ "reasoning_about_colored_objects",
	  "Output '(A)', '(B)', '(C)', '(D)', '(E)', '(F)', '(G)', '(H)', '(I)', '(J)', '(K)', '(L)', '(M)', '(N)', '(O)', '(P)', '(Q)', or '(R)'. Full answer not needed." },
	{ "ruin_names",
	  "Output '(A)', '(B)', '(C)', or '(D)'. Full answer not needed." },
	{ "salient_translation_error_detection",
	  "Output '(A)', '(B)', '(C)', '(D)', '(E)', or '(F)'. Full answer not needed." },
	{ "snarks",
	  "Output '(A)' or'(B)'. Full answer not needed." },
	{ "sports_understanding",
	  "Output 'yes' or 'no'. Full answer not needed." },
	{ "temporal_sequences",
	  "Output '(A)', '(B)', '(C)', or '(D)'. Full answer not needed." },
	{ "tracking_shuffled_objects_five_objects",
	  "Output '(A)', '(B)', '(C)', '(D)', or '(E)'. Full answer not needed." },
	{ "tracking_shuffled_objects_seven_objects",
	  "Output '(A)', '(B)', '(C)', '(D)', '(E)', '(F)', or '(G)'. Full answer not needed." },
	{ "tracking_shuffled_objects_three_objects",
	  "Output '(A)', '(B)', or '(C)'. Full answer not needed." },
	{ "web_of_lies",
	  "Output 'Yes' or 'No'. Full answer not needed." },
	{ "word_sorting",
	  "Output only the sequence of words separated by white space. Full answer not needed." },
};
#define BBH_NTASKS (sizeof(bbh_tasks) / sizeof(bbh_tasks[0]))

static int
bbh_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
bbh_unknown(const char *const *unknown, size_t n, char *err, size_t errlen)
{
	const char *sorted[BBH_NTASKS];
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (size_t i = 0; i < BBH_NTASKS; i++)
		sorted[i] = bbh_tasks[i].value;
	qsort(sorted, BBH_NTASKS, sizeof(*sorted), bbh_cmp);
	buf_addstr(&b, "Unknown BBH subtask(s): ");
	names_pylist(&b, unknown, n);
	buf_addstr(&b, ". Valid subtasks: ");
	names_pylist(&b, sorted, BBH_NTASKS);
	util_seterr(err, errlen, "%s", buf_str(&b));
	buf_release(&b);
	return -1;
}

/* A subtask by its value, or by its enum name (the value upper-cased,
 * the recipe's getattr(BigBenchHardTask, name.upper())); -1: none. */
static int
bbh_find(const char *s)
{
	for (size_t i = 0; i < BBH_NTASKS; i++)
		if (names_ieq(s, bbh_tasks[i].value))
			return (int)i;
	return -1;
}

/*
 * The head of the subtask's prompt file that the template keeps: the file
 * read as Python reads text (universal newlines), split on "\n\n", its
 * first n + 1 sections joined again, which is the text up to the
 * (n+1)-th "\n\n". Appended to b.
 */
static int
bbh_examples(const char *task, int cot, int n, struct buf *b, char *err,
	     size_t errlen)
{
	char *path = xstrfmt("%s/accuracy/bbh/%s/%s.txt", toksrc_datadir(),
			     cot ? "cot" : "shot", task);
	size_t len, w = 0, end;
	char *s = util_readfile(path, BBH_FILE_MAX, &len);

	if (!s) {
		util_seterr(err, errlen, "cannot read BBH prompt file '%s': %s "
			    "(set AIPERF_DATA_DIR to the folder holding accuracy/bbh)",
			    path, util_strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	for (size_t r = 0; r < len; r++) {
		if (s[r] == '\r' && r + 1 < len && s[r + 1] == '\n')
			continue;
		s[w++] = s[r] == '\r' ? '\n' : s[r];
	}
	end = w;
	for (size_t i = 0, seps = 0; i + 1 < w; i++)
		if (s[i] == '\n' && s[i + 1] == '\n') {
			if (++seps == (size_t)n + 1) {
				end = i;
				break;
			}
			i++;
		}
	buf_add(b, s, end);
	free(s);
	return 0;
}

/* str(row["target"]) for the JSON a target can be; -1: another kind. */
static int
bbh_target(const struct split *e, struct buf *g, char *err, size_t errlen)
{
	const struct json *v = json_get(e->row, "target");
	int64_t n;

	buf_reset(g);
	if (!v)
		return split_err(e, err, errlen, "no column 'target'");
	if (v->type == JSON_STRING && !memchr(v->str, '\0', v->len))
		return buf_add(g, v->str, v->len);
	if (v->type == JSON_NUMBER && json_int64(v, &n) == 0)
		return buf_addf(g, "%lld", (long long)n);
	if (v->type == JSON_TRUE || v->type == JSON_FALSE || v->type == JSON_NULL)
		return buf_addstr(g, v->type == JSON_NULL ? "None" :
				  v->type == JSON_TRUE ? "True" : "False");
	return split_err(e, err, errlen, "column 'target' is not a string");
}

/* The problems of one subtask, every row of its test split in order. */
static int
bbh_subtask(const struct bench_opts *o, int t, struct problem_set *out,
	    char *err, size_t errlen)
{
	const struct bbh_task *k = &bbh_tasks[t];
	struct buf head = BUF_INIT(BBH_FILE_MAX), p = BUF_INIT(EVALSET_TEXT_MAX);
	struct buf g = BUF_INIT(EVALSET_TEXT_MAX);
	struct split s;
	int rc = -1;

	buf_addstr(&head, "Task description: ");
	if (bbh_examples(k->value, o->cot, o->n_shots, &head, err, errlen) < 0)
		goto out;
	if (split_load(&s, o, BBH_DATASET, k->value, "test", err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < s.rows.n; i++) {
		const char *in;

		if (split_row(&s, i, err, errlen) < 0 ||
		    !(in = split_str(&s, "input", err, errlen)) ||
		    bbh_target(&s, &g, err, errlen) < 0)
			goto rows;
		buf_reset(&p);
		buf_add(&p, head.s, head.len);
		if (buf_addf(&p, "\n\nQ: %s\nA: \n\n%s", in, k->confinement) < 0) {
			split_err(&s, err, errlen, "the prompt is longer than %zu bytes",
				  EVALSET_TEXT_MAX);
			goto rows;
		}
		pset_add(out, k->value, buf_str(&g), p.s, NULL,
			     BBH_GENERATION_SIZE);
	}
	rc = 0;
rows:
	split_release(&s);
out:
	buf_release(&head);
	buf_release(&p);
	buf_release(&g);
	return rc;
}

static int
bbh_load(const struct bench_opts *o, struct problem_set *out, char *err,
	 size_t errlen)
{
	int *sel;
	size_t nsel;
	int rc = 0;

	if (o->n_shots > BBH_MAX_SHOTS || o->n_shots < 0)
		return util_seterr(err, errlen, "BBH supports at most %d few-shot "
				   "examples (got %d); DeepEval asserts n_shots <= %d "
				   "because the canonical prompt files ship exactly "
				   "%d worked examples per subtask", BBH_MAX_SHOTS,
				   o->n_shots, BBH_MAX_SHOTS, BBH_MAX_SHOTS);
	if (names_tasks(o, BBH_NTASKS, bbh_find, bbh_unknown,
		       "every BBH subtask, or list specific subtasks", &sel, &nsel, err,
		       errlen) < 0)
		return -1;
	for (size_t i = 0; i < nsel && rc == 0; i++)
		rc = bbh_subtask(o, sel[i], out, err, errlen);
	free(sel);
	return rc;
}

const struct bench bench_bigbench = {
	.name = "bigbench",
	.n_shots = BBH_MAX_SHOTS,
	.max_shots = BBH_MAX_SHOTS,
	.cot = true,
	.system_prompt = NULL,
	.load = bbh_load,
};
