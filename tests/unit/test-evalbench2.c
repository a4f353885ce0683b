/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-evalset's hellaswag, bigbench and lcb_codegeneration benchmarks: prompts against tests/accuracy/prompts-ref2.py's records, refusals, hostile rows. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Private to the tool; tested from its sources. */
#include "../../cmd/aiperf-evalset/pset.c"
#include "../../cmd/aiperf-evalset/names.c"
#include "../../cmd/aiperf-evalset/row.c"
#include "../../cmd/aiperf-evalset/hellaswag.c"
#include "../../cmd/aiperf-evalset/bigbench.c"
#include "../../cmd/aiperf-evalset/lcb.c"
#include "accuracy/grade.h"
#include "test.h"

#define HUB "tests/data/accuracy/hub"
#define EXPECTED "tests/data/accuracy/expected"

static char tmp[] = "/tmp/test-evalbench2.XXXXXX";
static char err[4096];

/* The problem record the tool writes (/work/brief-records.md), with the
 * system prompt wrapped in as the tool does after load(). */
static char *
record(size_t i, const struct problem *p, const char *sys)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	char *prompt = sys ? xstrfmt("%s\n\n%s", sys, p->prompt) : xstrdup(p->prompt);

	jw_init(&w, &b, 0);
	jw_obj(&w);
	jw_key(&w, "schema");
	jw_str(&w, "aiperf.problem/1");
	jw_key(&w, "index");
	jw_int(&w, (int64_t)i);
	jw_key(&w, "task");
	jw_str(&w, p->task);
	jw_key(&w, "gold");
	jw_str(&w, p->gold);
	jw_key(&w, "prompt");
	jw_str(&w, prompt);
	jw_key(&w, "messages");
	jw_arr(&w);
	if (sys) {
		jw_obj(&w);
		jw_key(&w, "role");
		jw_str(&w, "system");
		jw_key(&w, "content");
		jw_str(&w, sys);
		jw_obj_end(&w);
	}
	if (p->messages) {
		jw_raw(&w, p->messages + 1, strlen(p->messages) - 2);
	} else {
		jw_obj(&w);
		jw_key(&w, "role");
		jw_str(&w, "user");
		jw_key(&w, "content");
		jw_str(&w, p->prompt);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "max_tokens");
	jw_int(&w, p->max_tokens < 0 ? 100 : p->max_tokens);
	jw_obj_end(&w);
	free(prompt);
	return buf_detach(&b, NULL);
}

static int
load(const struct bench *bn, const char *dir, const char *const *tasks,
     size_t ntasks, int n_shots, bool cot, struct problem_set *out)
{
	struct rows_src src = { .dir = dir, .offline = 1 };
	struct bench_opts o = {
		.tasks = tasks, .ntasks = ntasks, .n_shots = n_shots, .cot = cot,
		.src = &src,
	};

	*out = (struct problem_set){ 0 };
	err[0] = '\0';
	return bn->load(&o, out, err, sizeof(err));
}

/* One case of prompts-ref2.py's CASES: every record equal to its line. */
static void
check_case(const char *name, const struct bench *bn, const char *const *tasks,
	   size_t ntasks, int n_shots, bool cot, const char *sys)
{
	char *path = xstrfmt("%s/%s.jsonl", EXPECTED, name), *what;
	struct problem_set p;
	struct rows want;
	int rc = load(bn, HUB, tasks, ntasks, n_shots, cot, &p), same = 1;

	what = xstrfmt("%s: loads", name);
	TEST(what, rc == 0);
	if (rc)
		printf("#   %s\n", err);
	free(what);
	if (rows_read_file(path, &want, 0, err, sizeof(err)) < 0) {
		printf("#   %s\n", err);
		want = (struct rows){ 0 };
	}
	what = xstrfmt("%s: %zu problems as the reference builds them", name, want.n);
	for (size_t i = 0; i < p.n && i < want.n && same; i++) {
		char *got = record(i, &p.v[i], sys);

		if (strcmp(got, want.v[i])) {
			same = 0;
			printf("#   record %zu differs\n#   got  %s\n#   want %s\n", i,
			       got, want.v[i]);
		}
		free(got);
	}
	TEST(what, same && p.n == want.n && want.n > 0);
	free(what);
	rows_free(&want);
	pset_release(&p);
	free(path);
}

static void
test_reference(void)
{
	static const char *const hs_t[] = { "canoeing", "ROOF_SHINGLE_REMOVAL" };
	static const char *const bbh3[] = {
		"boolean_expressions", "navigate", "object_counting",
	};
	static const char *const bbh_s[] = { "NAVIGATE", "boolean_expressions" };
	static const char *const bbh_o[] = { "object_counting" };

	check_case("hellaswag-default", &bench_hellaswag, NULL, 0, 10, false, NULL);
	check_case("hellaswag-tasks", &bench_hellaswag, hs_t, 2, 0, false,
		   "Answer with one letter.");
	check_case("bigbench-cot3", &bench_bigbench, bbh3, 3, 3, true, NULL);
	check_case("bigbench-shot1", &bench_bigbench, bbh_s, 2, 1, false, NULL);
	check_case("bigbench-cot0", &bench_bigbench, bbh_o, 1, 0, true, NULL);
	check_case("bigbench-all", &bench_bigbench, NULL, 0, 3, true, NULL);
	check_case("bigbench-all-shot2", &bench_bigbench, NULL, 0, 2, false, NULL);
	check_case("lcb-default", &bench_lcb, NULL, 0, 0, false, NULL);
}

/* Whether loading fails with a message holding want. */
static int
refused(const struct bench *bn, const char *dir, const char *const *tasks,
	size_t ntasks, int n_shots, bool cot, const char *want)
{
	struct problem_set p;
	int rc = load(bn, dir, tasks, ntasks, n_shots, cot, &p);

	pset_release(&p);
	if (rc == 0 || !strstr(err, want)) {
		printf("#   rc %d, message '%s'\n#   want '%s'\n", rc, err, want);
		return 0;
	}
	return 1;
}

static void
test_metadata(void)
{
	TEST("hellaswag: registered as the original",
	     !strcmp(bench_hellaswag.name, "hellaswag") &&
	     !strcmp(grade_default(bench_hellaswag.name), "exact_match") &&
	     bench_hellaswag.n_shots == 10 && bench_hellaswag.max_shots == 15 &&
	     !bench_hellaswag.cot && !bench_hellaswag.system_prompt);
	TEST("bigbench: registered as the original",
	     !strcmp(bench_bigbench.name, "bigbench") &&
	     !strcmp(grade_default(bench_bigbench.name), "exact_match") &&
	     bench_bigbench.n_shots == 3 && bench_bigbench.max_shots == 3 &&
	     bench_bigbench.cot && !bench_bigbench.system_prompt);
	TEST("lcb: registered as the original",
	     !strcmp(bench_lcb.name, "lcb_codegeneration") &&
	     !strcmp(grade_default(bench_lcb.name), "code_execution") &&
	     bench_lcb.n_shots == 0 && !bench_lcb.cot && !bench_lcb.system_prompt);
	TEST("bigbench: 27 subtasks", BBH_NTASKS == 27);
	TEST("hellaswag: 192 tasks", HS_NTASKS == 192);
}

/* The fixture's train split has 11 activity labels, Kite flying's last. */
static int
eleven_shots(void)
{
	struct problem_set p;
	int ok = load(&bench_hellaswag, HUB, NULL, 0, 11, false, &p) == 0 &&
		 p.n == 5 && strstr(p.v[0].prompt, "lemon water") &&
		 strstr(p.v[0].prompt, "Kite flying") == NULL &&
		 strstr(p.v[0].prompt, "hold strings attached to kites");

	pset_release(&p);
	return ok;
}

static void
test_options(void)
{
	static const char *const bbh_o_one[] = { "object_counting" };
	static const char *const bad[] = { "NOT_A_REAL_TASK" };
	static const char *const mixed[] = { "all", "navigate" };
	static const char *const spaced[] = { " boolean_expressions " };
	static const char *const all[] = { "ALL" };
	static const char *const easy[] = { "easy" };

	TEST("hellaswag: 16 shots refused",
	     refused(&bench_hellaswag, HUB, NULL, 0, 16, false, "at most 15 few-shot examples (got 16)"));
	TEST("hellaswag: more shots than activity labels refused",
	     refused(&bench_hellaswag, HUB, NULL, 0, 12, false,
		     "n-shots 12 is more than the 11 few-shot examples"));
	TEST("hellaswag: 11 shots, one per activity label, taken", eleven_shots());
	TEST("hellaswag: an unknown task names the known ones",
	     refused(&bench_hellaswag, HUB, bad, 1, 0, false,
		     "Unknown HellaSwag task(s): ['NOT_A_REAL_TASK']. Valid task values include "
		     "['Applying sunscreen', 'Archery', 'Arm wrestling', 'Assembling bicycle', "
		     "'BMX']... (192 total)."));
	TEST("hellaswag: 'all' with another task refused",
	     refused(&bench_hellaswag, HUB, mixed, 2, 0, false,
		     "'all' cannot be mixed with other task names. Pass 'all' by itself "
		     "(or omit --accuracy-tasks) to select every task, or list specific "
		     "activity labels. Got: ['all', 'navigate']"));
	TEST("bigbench: 4 shots refused",
	     refused(&bench_bigbench, HUB, NULL, 0, 4, true, "BBH supports at most 3 few-shot examples (got 4)"));
	TEST("bigbench: a name with spaces is unknown",
	     refused(&bench_bigbench, HUB, spaced, 1, 3, true,
		     "Unknown BBH subtask(s): [' boolean_expressions ']. Valid subtasks: "
		     "['boolean_expressions', 'causal_judgement', "));
	TEST("bigbench: 'all' with another subtask refused",
	     refused(&bench_bigbench, HUB, mixed, 2, 3, true, "to select every BBH subtask"));
	TEST("bigbench: 'ALL' reads every subtask (the missing split named)",
	     refused(&bench_bigbench, tmp, all, 1, 3, true,
		     "/lukaemon/bbh/boolean_expressions/test.jsonl: "));
	TEST("lcb: --accuracy-tasks refused",
	     refused(&bench_lcb, HUB, easy, 1, 0, false, "lcb_codegeneration: --accuracy-tasks is not supported"));
	TEST("lcb: n-shots refused",
	     refused(&bench_lcb, HUB, NULL, 0, 5, false, "lcb_codegeneration: --accuracy-n-shots != 0"));
	TEST("lcb: cot refused",
	     refused(&bench_lcb, HUB, NULL, 0, 0, true, "lcb_codegeneration: --accuracy-enable-cot"));
	setenv("AIPERF_ACCURACY_LCB_RELEASE_TAG", "v6", 1);
	TEST("lcb: the release tag from the environment",
	     refused(&bench_lcb, HUB, NULL, 0, 0, false,
		     "failed to load 'livecodebench/code_generation_lite' subset 'v6'"));
	setenv("AIPERF_ACCURACY_LCB_RELEASE_TAG", "../v4_v5", 1);
	TEST("lcb: a release tag that is no config name refused",
	     refused(&bench_lcb, HUB, NULL, 0, 0, false, "not a valid dataset, config or split name"));
	unsetenv("AIPERF_ACCURACY_LCB_RELEASE_TAG");
	setenv("AIPERF_DATA_DIR", "/nonexistent", 1);
	TEST("bigbench: a missing prompt file named",
	     refused(&bench_bigbench, HUB, bbh_o_one, 1, 3, true,
		     "cannot read BBH prompt file '/nonexistent/accuracy/bbh/cot/object_counting.txt'"));
	setenv("AIPERF_DATA_DIR", "data", 1);
}

/* What put() made under tmp, in order, for rm_tmp(). */
static char *made[64];
static size_t nmade;

static void
made_add(const char *path)
{
	for (size_t i = 0; i < nmade; i++)
		if (!strcmp(made[i], path))
			return;
	if (nmade < sizeof(made) / sizeof(made[0]))
		made[nmade++] = xstrdup(path);
}

/* Write tmp/rel (its folders made), content as given. */
static void
put(const char *rel, const char *content)
{
	char *path = xstrfmt("%s/%s", tmp, rel), *slash = path + strlen(tmp);
	FILE *f;

	while ((slash = strchr(slash + 1, '/'))) {
		*slash = '\0';
		if (mkdir(path, 0755) == 0)
			made_add(path);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		made_add(path);
		fputs(content, f);
		fclose(f);
	}
	free(path);
}

static void
unlink_tmp(const char *rel)
{
	char *path = xstrfmt("%s/%s", tmp, rel);

	unlink(path);
	free(path);
}

static void
rm_tmp(void)
{
	while (nmade) {
		remove(made[--nmade]);
		free(made[nmade]);
	}
	rmdir(tmp);
}

#define HS_TRAIN "Rowan/hellaswag/default/train.jsonl"
#define HS_VAL "Rowan/hellaswag/default/validation.jsonl"
#define HS_ROW(label) "{\"activity_label\":\"Sailing\",\"ctx\":\"A boat.\"," \
	"\"endings\":[\"a\",\"b\",\"c\",\"d\"],\"label\":" label "}\n"

/* A hellaswag validation split of one line; load it zero-shot (Sailing). */
static int
hs_one(const char *val, struct problem_set *p)
{
	static const char *const t[] = { "Sailing" };

	put(HS_TRAIN, HS_ROW("\"0\""));
	put(HS_VAL, val);
	return load(&bench_hellaswag, tmp, t, 1, 0, false, p);
}

static int
hs_gold(const char *label, const char *want)
{
	struct problem_set p;
	char *row = xstrfmt(HS_ROW("%s"), label);
	int ok = hs_one(row, &p) == 0 && p.n == 1 && !strcmp(p.v[0].gold, want);

	if (!ok)
		printf("#   label %s: %s\n", label, err);
	pset_release(&p);
	free(row);
	return ok;
}

static int
hs_refused(const char *val, const char *want)
{
	struct problem_set p;
	int rc = hs_one(val, &p);

	pset_release(&p);
	if (rc == 0 || !strstr(err, want)) {
		printf("#   rc %d, message '%s'\n#   want '%s'\n", rc, err, want);
		return 0;
	}
	return 1;
}

static void
test_hostile_hellaswag(void)
{
	struct problem_set p;

	TEST("hellaswag: label as text", hs_gold("\"2\"", "C"));
	TEST("hellaswag: label as a number", hs_gold("3", "D"));
	TEST("hellaswag: label int() strips spaces", hs_gold("\" 1 \"", "B"));
	TEST("hellaswag: label -1 is D (a Python index)", hs_gold("\"-1\"", "D"));
	TEST("hellaswag: unlabeled rows dropped",
	     hs_one(HS_ROW("\"\"") HS_ROW("null") "{\"activity_label\":\"Sailing\"}\n", &p) == 0 &&
	     p.n == 0);
	pset_release(&p);
	TEST("hellaswag: rows of no task dropped",
	     hs_one("{\"ctx\":1}\n{\"activity_label\":7,\"label\":\"0\"}\n", &p) == 0 && p.n == 0);
	pset_release(&p);
	TEST("hellaswag: label 4 refused",
	     hs_refused(HS_ROW("\"4\""), "validation: row 0: column 'label' is not an index of A, B, C or D"));
	TEST("hellaswag: label x refused",
	     hs_refused(HS_ROW("\"x\""), "column 'label' is not an integer"));
	TEST("hellaswag: label 1.5 refused", hs_refused(HS_ROW("1.5"), "is not an integer"));
	TEST("hellaswag: a row without ctx refused",
	     hs_refused("{\"activity_label\":\"Sailing\",\"label\":\"0\",\"endings\":[]}\n",
			"Rowan/hellaswag/default/validation: row 0: no column 'ctx'"));
	TEST("hellaswag: a row without endings refused",
	     hs_refused("{\"activity_label\":\"Sailing\",\"label\":\"0\",\"ctx\":\"x\"}\n",
			"validation: row 0: no column 'endings'"));
	TEST("hellaswag: three endings refused",
	     hs_refused("{\"activity_label\":\"Sailing\",\"label\":\"0\",\"ctx\":\"x\",\"endings\":[\"a\",\"b\",\"c\"]}\n",
			"column 'endings' is not a list of four endings"));
	TEST("hellaswag: an ending that is no string refused",
	     hs_refused("{\"activity_label\":\"Sailing\",\"label\":\"0\",\"ctx\":\"x\",\"endings\":[\"a\",{},\"c\",\"d\"]}\n",
			"holds an ending that is not a string"));
	TEST("hellaswag: a NUL in ctx refused",
	     hs_refused("{\"activity_label\":\"Sailing\",\"label\":\"0\",\"ctx\":\"a\\u0000b\",\"endings\":[\"a\",\"b\",\"c\",\"d\"]}\n",
			"column 'ctx' holds a NUL character"));
	TEST("hellaswag: ctx that is no string refused",
	     hs_refused("{\"activity_label\":\"Sailing\",\"label\":\"0\",\"ctx\":[1],\"endings\":[\"a\",\"b\",\"c\",\"d\"]}\n",
			"column 'ctx' is not a string"));
	put(HS_TRAIN, HS_ROW("\"0\"") "{\"ctx\":\"no label\"}\n");
	put(HS_VAL, HS_ROW("\"0\""));
	TEST("hellaswag: a train row without activity_label refused",
	     refused(&bench_hellaswag, tmp, NULL, 0, 1, false,
		     "Rowan/hellaswag/default/train: row 1: no column 'activity_label'"));
	put(HS_TRAIN, "{\"activity_label\":\"Sailing\",\"ctx\":\"x\",\"endings\":[\"a\",\"b\",\"c\",\"d\"],\"label\":\"\"}\n");
	TEST("hellaswag: a few-shot example without a label refused",
	     refused(&bench_hellaswag, tmp, NULL, 0, 1, false, "train: row 0: column 'label' is empty"));
	put(HS_VAL, "[1]\n");
	TEST("hellaswag: a row that is no object refused",
	     refused(&bench_hellaswag, tmp, NULL, 0, 0, false, "a row must be a JSON object"));
	unlink_tmp(HS_TRAIN);
	TEST("hellaswag: a missing train split named",
	     refused(&bench_hellaswag, tmp, NULL, 0, 0, false, "/Rowan/hellaswag/default/train.jsonl: "));
}

static void
test_hostile_bigbench(void)
{
	static const char *const nav[] = { "navigate" };
	struct problem_set p;
	int ok;

	put("lukaemon/bbh/navigate/test.jsonl",
	    "{\"input\":\"Q1\",\"target\":true}\n{\"input\":\"\",\"target\":\"caf\u00e9\"}\n"
	    "{\"input\":\"Q3\",\"target\":-12}\n{\"input\":\"Q4\",\"target\":null}\n");
	ok = load(&bench_bigbench, tmp, nav, 1, 0, false, &p) == 0 && p.n == 4;
	TEST("bigbench: targets as str() writes them", ok && !strcmp(p.v[0].gold, "True") &&
	     !strcmp(p.v[1].gold, "caf\u00e9") && !strcmp(p.v[2].gold, "-12") &&
	     !strcmp(p.v[3].gold, "None"));
	TEST("bigbench: an empty input still makes a prompt", ok &&
	     !strncmp(p.v[1].prompt, "Task description: Given a series of navigation instructions, "
		      "determine whether one would end up back at the starting point.\n\nQ: \nA: ", 120) &&
	     strstr(p.v[1].prompt, "\n\nQ: \nA: \n\nOutput 'Yes' or 'No'. Full answer not needed.") &&
	     p.v[1].max_tokens == 1024);
	pset_release(&p);
	put("lukaemon/bbh/navigate/test.jsonl", "{\"input\":\"Q1\",\"target\":\"No\"}\n{\"target\":\"No\"}\n");
	TEST("bigbench: a row without input refused",
	     refused(&bench_bigbench, tmp, nav, 1, 3, true, "lukaemon/bbh/navigate/test: row 1: no column 'input'"));
	put("lukaemon/bbh/navigate/test.jsonl", "{\"input\":\"Q1\"}\n");
	TEST("bigbench: a row without target refused",
	     refused(&bench_bigbench, tmp, nav, 1, 3, true, "test: row 0: no column 'target'"));
	put("lukaemon/bbh/navigate/test.jsonl", "{\"input\":\"Q1\",\"target\":[\"No\"]}\n");
	TEST("bigbench: a list target refused",
	     refused(&bench_bigbench, tmp, nav, 1, 3, true, "column 'target' is not a string"));
	put("lukaemon/bbh/navigate/test.jsonl", "{\"input\":3,\"target\":\"No\"}\n");
	TEST("bigbench: a number input refused",
	     refused(&bench_bigbench, tmp, nav, 1, 3, true, "column 'input' is not a string"));
}

#define LCB_SPLIT "livecodebench/code_generation_lite/v4_v5/test.jsonl"

static void
test_hostile_lcb(void)
{
	struct problem_set p;
	int ok;

	put(LCB_SPLIT, "{\"starter_code\":null,\"public_test_cases\":\"[]\"}\n"
	    "{\"question_content\":null,\"starter_code\":\"def f():\",\"metadata\":{\"func_name\":\"f\"},"
	    "\"private_test_cases\":\"eJx\\\"q\\n\"}\n");
	ok = load(&bench_lcb, tmp, NULL, 0, 0, false, &p) == 0 && p.n == 2;
	TEST("lcb: null starter code is the stdin scaffold, a missing question empty",
	     ok && strstr(p.v[0].prompt, "tests.\n\nQuestion: \n\nRead the inputs from stdin") &&
	     !strcmp(p.v[0].gold, "{\"starter_code\":null,\"public_test_cases\":\"[]\","
		     "\"private_test_cases\":\"\",\"metadata\":\"\"}"));
	TEST("lcb: a null question is None (an f-string), the starter code scaffold",
	     ok && strstr(p.v[1].prompt, "Question: None\n\nYou will use the following starter code") &&
	     strstr(p.v[1].prompt, "```python\ndef f():\n```\n\n") &&
	     !strcmp(p.v[1].task, "lcb_codegeneration") && p.v[1].max_tokens == 32768);
	TEST("lcb: the upstream values passed through as they are",
	     ok && !strcmp(p.v[1].gold, "{\"starter_code\":\"def f():\",\"public_test_cases\":\"\","
		     "\"private_test_cases\":\"eJx\\\"q\\n\",\"metadata\":{\"func_name\":\"f\"}}"));
	pset_release(&p);
	put(LCB_SPLIT, "{\"question_content\":\"q\",\"starter_code\":5}\n");
	TEST("lcb: a number starter code refused",
	     refused(&bench_lcb, tmp, NULL, 0, 0, false,
		     "livecodebench/code_generation_lite/v4_v5/test: row 0: column 'starter_code' is not a string"));
	put(LCB_SPLIT, "{\"question_content\":[\"q\"]}\n");
	TEST("lcb: a list question refused",
	     refused(&bench_lcb, tmp, NULL, 0, 0, false, "column 'question_content' is not a string"));
}

/* The literal prompts of the original's unit tests
 * (tests/unit/accuracy/test_{hellaswag,bigbench,lcb_codegeneration}_benchmark.py). */
static void
test_original_literals(void)
{
	static const char *const as[] = { "Applying sunscreen" };
	static const char *const be[] = { "boolean_expressions" };
	struct problem_set p;
	int ok;

#define HS_AS(ctx) "{\"activity_label\":\"Applying sunscreen\",\"ctx\":\"" ctx "\"," \
	"\"endings\":[\"applies\",\"watches\",\"sings\",\"cooks\"],\"label\":0}\n"
	put(HS_TRAIN, HS_AS("A man is in the bathroom. He"));
	put(HS_VAL, HS_AS("A man is in the bathroom. He"));
	ok = load(&bench_hellaswag, tmp, as, 1, 0, false, &p) == 0 && p.n == 1;
	TEST_STR("original: hellaswag zero-shot prompt", ok ? p.v[0].prompt : NULL,
		 "The following are multiple choice questions (with answers) are sentence "
		 "completion problems about Applying sunscreen.\n\n"
		 "A man is in the bathroom. He\nA. applies\nB. watches\nC. sings\n"
		 "D. cooks\nAnswer:\n\nOutput 'A', 'B', 'C', or 'D'. Full answer not needed.");
	TEST("original: hellaswag gold A, task the activity label, 5 tokens",
	     ok && !strcmp(p.v[0].gold, "A") && !strcmp(p.v[0].task, "Applying sunscreen") &&
	     p.v[0].max_tokens == 5 && !p.v[0].messages);
	pset_release(&p);
	put(HS_TRAIN, HS_AS("train_AS_0") HS_AS("train_AS_1")
	    "{\"activity_label\":\"Sailing\",\"ctx\":\"train_SAIL_0\",\"endings\":[\"a\",\"b\",\"c\",\"d\"],\"label\":\"1\"}\n");
	put(HS_VAL, HS_AS("VAL_0"));
	ok = load(&bench_hellaswag, tmp, as, 1, 2, false, &p) == 0 && p.n == 1;
	TEST("original: hellaswag few-shots one per activity label",
	     ok && strstr(p.v[0].prompt, "train_AS_0\nA. applies\nB. watches\nC. sings\nD. cooks\nAnswer: A\n\n"
			  "train_SAIL_0\nA. a\nB. b\nC. c\nD. d\nAnswer: B\n\nVAL_0\n") &&
	     !strstr(p.v[0].prompt, "train_AS_1"));
	pset_release(&p);

	put("lukaemon/bbh/boolean_expressions/test.jsonl",
	    "{\"input\":\"True and False is\",\"target\":\"False\"}\n");
	ok = load(&bench_bigbench, tmp, be, 1, 3, true, &p) == 0 && p.n == 1;
	TEST("original: bbh CoT prompt starts with the task description",
	     ok && !strncmp(p.v[0].prompt, "Task description: Evaluate the result of a random Boolean expression.", 69));
	TEST("original: bbh query before the confinement",
	     ok && strstr(p.v[0].prompt, "Q: True and False is\nA: \n\nOutput 'True' or 'False'.") &&
	     strstr(p.v[0].prompt, "Let's think step by step.") &&
	     !strcmp(p.v[0].prompt + strlen(p.v[0].prompt) - 23, "Full answer not needed.") &&
	     !strcmp(p.v[0].gold, "False") && !strcmp(p.v[0].task, "boolean_expressions"));
	pset_release(&p);
	ok = load(&bench_bigbench, tmp, be, 1, 0, true, &p) == 0 && p.n == 1;
	TEST_STR("original: bbh zero-shot is the description and the query", ok ? p.v[0].prompt : NULL,
		 "Task description: Evaluate the result of a random Boolean expression.\n\n"
		 "Q: True and False is\nA: \n\nOutput 'True' or 'False'. Full answer not needed.");
	pset_release(&p);

	put(LCB_SPLIT, "{\"question_content\":\"The problem.\",\"starter_code\":\"def f(x): pass\"}\n"
	    "{\"question_content\":\"The problem.\",\"starter_code\":\"\"}\n");
	ok = load(&bench_lcb, tmp, NULL, 0, 0, false, &p) == 0 && p.n == 2;
	TEST_STR("original: lcb starter code scaffold", ok ? p.v[0].prompt : NULL,
		 "You will be given a question (problem specification) and "
		 "will generate a correct Python program that matches the "
		 "specification and passes all tests.\n\n"
		 "Question: The problem.\n\n"
		 "You will use the following starter code to write the "
		 "solution to the problem and enclose your code within "
		 "delimiters.\n"
		 "```python\ndef f(x): pass\n```\n\n");
	TEST_STR("original: lcb stdin scaffold", ok ? p.v[1].prompt : NULL,
		 "You will be given a question (problem specification) and "
		 "will generate a correct Python program that matches the "
		 "specification and passes all tests.\n\n"
		 "Question: The problem.\n\n"
		 "Read the inputs from stdin solve the problem and write "
		 "the answer to stdout (do not directly test on the sample "
		 "inputs). Enclose your code within delimiters as follows. "
		 "Ensure that when the python program runs, it reads the "
		 "inputs, runs the algorithm and writes output to STDOUT.\n"
		 "```python\n# YOUR CODE HERE\n```\n\n");
	pset_release(&p);
}

int
main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	/* the BBH prompt files: data/ of this checkout (run from its root) */
	setenv("AIPERF_DATA_DIR", "data", 1);
	test_metadata();
	test_reference();
	test_options();
	test_hostile_hellaswag();
	test_hostile_bigbench();
	test_hostile_lcb();
	test_original_literals();
	rm_tmp();
	return TEST_DONE();
}
