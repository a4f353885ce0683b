/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/summary/accuracy: grades counted, hostile records refused, the JSON and CSV entries. */
#include "summary/accuracy.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "summary/csvfile.h"
#include "test.h"

/* A metric record with the grade text g (NULL: none) in its aiperf object. */
static int
line(struct accsum *a, const char *g, char *why, size_t whylen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	int rc;

	buf_addstr(&b, "{\"metadata\":{\"session_num\":0},\"metrics\":{},\"aiperf\":{\"v\":1");
	if (g)
		buf_addf(&b, ",\"accuracy\":%s", g);
	buf_addstr(&b, "}}");
	rc = acc_line(a, b.s, b.len, why, whylen);
	buf_release(&b);
	return rc;
}

static int
grade(struct accsum *a, const char *task, int ok, int unparsed)
{
	char g[256], why[256];

	snprintf(g, sizeof(g), "{\"index\":0,\"task\":\"%s\",\"correct\":%s,\"unparsed\":%s,"
		 "\"extracted\":\"B\",\"reason\":\"r\"}", task, ok ? "true" : "false",
		 unparsed ? "true" : "false");
	return line(a, g, why, sizeof(why));
}

static void
hostile(void)
{
	static const char *const bad[] = {
		"{}", "{\"task\":1,\"correct\":true,\"unparsed\":false}",
		"{\"task\":\"t\",\"correct\":1,\"unparsed\":false}",
		"{\"task\":\"t\",\"correct\":true,\"unparsed\":null}",
		"{\"task\":\"t\\u0000x\",\"correct\":true,\"unparsed\":false}",
		"{\"task\":\"t\",\"correct\":true}",
	};
	struct accsum a;
	char why[256];
	int all = 1;

	acc_init(&a);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		all &= line(&a, bad[i], why, sizeof(why)) == -1 &&
		       strstr(why, "aiperf.accuracy is not an object") != NULL;
	}
	TEST("acc_line: a grade without a string task and boolean correct, unparsed is an error",
	     all);
	/* only "accuracy":{ is looked for (our writers' compact JSON) */
	TEST("acc_line: a grade that is no object is not one",
	     line(&a, "5", why, sizeof(why)) == 0 && line(&a, "[]", why, sizeof(why)) == 0);
	TEST("acc_line: nothing counted from them", a.total == 0 && a.nt == 0);
	TEST("acc_line: no grade, nothing", line(&a, NULL, why, sizeof(why)) == 0 && a.total == 0);
	const char *cut = "{\"aiperf\":{\"accuracy\":{\"task\":";
	TEST("acc_line: a cut line holding the needle does not parse",
	     acc_line(&a, cut, strlen(cut), why, sizeof(why)) == -1);
	const char *elsewhere = "{\"x\":{\"accuracy\":{\"task\":\"t\"}},\"aiperf\":{}}";
	TEST("acc_line: the needle elsewhere, no aiperf.accuracy: no grade",
	     acc_line(&a, elsewhere, strlen(elsewhere), why, sizeof(why)) == 0 && a.total == 0);
	const char *instr = "{\"x\":\"\\\"accuracy\\\":{\"}";
	TEST("acc_line: an escaped needle in a string is not parsed",
	     acc_line(&a, instr, strlen(instr), why, sizeof(why)) == 0);
	TEST("acc_line: the grade's object must be aiperf's",
	     line(&a, "{\"task\":\"t\",\"correct\":true,\"unparsed\":false}", why,
		  sizeof(why)) == 0 && a.total == 1);
	TEST("acc_task: a NUL in the name is refused", acc_task(&a, "a\0b", 3) == NULL);
	acc_release(&a);
}

static char *
json_text(const struct accsum *a)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_obj(&w);
	acc_json(&w, a);
	jw_obj_end(&w);
	return buf_detach(&b, NULL);
}

static char *
csv_text(const struct accsum *a)
{
	struct summary sm = { 0 };
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f || csv_export(f, &sm, NULL, a) < 0 || fclose(f) == EOF)
		abort();
	return s;
}

static void
sums(void)
{
	struct accsum a;
	char *s;

	acc_init(&a);
	s = json_text(&a);
	TEST_STR("acc_json: nothing graded, no entry", s, "{}");
	free(s);
	s = json_text(NULL);
	TEST_STR("acc_json: NULL, no entry", s, "{}");
	free(s);
	s = csv_text(&a);
	TEST_STR("csv_export: nothing graded, no section", s, "");
	free(s);
	grade(&a, "zeta", 1, 0);
	grade(&a, "a,b", 0, 1);
	grade(&a, "zeta", 0, 0);
	grade(&a, "a,b", 1, 1);
	grade(&a, "zeta", 1, 0);
	acc_finish(&a);
	TEST("acc_finish: tasks sorted", a.nt == 2 && !strcmp(a.t[0].task, "a,b") &&
	     !strcmp(a.t[1].task, "zeta"));
	TEST("acc_line: the sums", a.total == 5 && a.correct == 3 && a.unparsed == 2 &&
	     a.t[0].total == 2 && a.t[0].correct == 1 && a.t[0].unparsed == 2 &&
	     a.t[1].total == 3 && a.t[1].correct == 2 && a.t[1].unparsed == 0);
	s = json_text(&a);
	TEST("acc_json: the original's order", strstr(s, "{\"accuracy.overall\":{\"unit\":"
	     "\"ratio\",\"count\":5,\"sum\":3,\"accuracy\":0.6,\"ci95_low\":") == s &&
	     strstr(s, "},\"accuracy.task.a,b\":{\"unit\":\"ratio\",\"count\":2,\"sum\":1,") &&
	     strstr(s, "},\"accuracy.task.zeta\":{\"unit\":\"ratio\",\"count\":3,\"sum\":2,") &&
	     strstr(s, "},\"accuracy.unparsed\":{\"unit\":\"ratio\",\"count\":5,\"sum\":2,") &&
	     strstr(s, "},\"accuracy.unparsed.task.a,b\":{\"unit\":\"ratio\",\"count\":2,"
		    "\"sum\":2,\"accuracy\":1.0,\"ci95_low\":") &&
	     strstr(s, "},\"accuracy.unparsed.task.zeta\":{\"unit\":\"ratio\",\"count\":3,"
		    "\"sum\":0,\"accuracy\":0.0,\"ci95_low\":0.0,"));
	free(s);
	s = csv_text(&a);
	TEST_STR("csv_export: the rows, by tag, quoted as csv.writer quotes", s,
		 "Metric,Value\r\n"
		 "Accuracy (Overall) (ratio),\r\n"
		 "\"Accuracy (a,b) (ratio)\",\r\n"
		 "Accuracy (zeta) (ratio),\r\n"
		 "Accuracy Unparsed (Overall) (ratio),\r\n"
		 "\"Accuracy Unparsed (a,b) (ratio)\",\r\n"
		 "Accuracy Unparsed (zeta) (ratio),\r\n");
	free(s);
	TEST("acc_ratio: 0 of 0 is 0", acc_ratio(0, 0) == 0.0 && acc_ratio(3, 4) == 0.75);
	acc_release(&a);
}

int
main(void)
{
	hostile();
	sums();
	return TEST_DONE();
}
