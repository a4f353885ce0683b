/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/accuracy/problems: the problem records and hostile lines. */
#include "accuracy/problems.h"

#include <string.h>

#include "test.h"

#define P0 "{\"schema\":\"aiperf.problem/1\",\"index\":0,\"task\":\"t\",\"gold\":\"B\"," \
	"\"prompt\":\"p\",\"messages\":[{\"role\":\"user\",\"content\":\"p\"}],\"max_tokens\":5}"
#define P1 "{\"schema\":\"aiperf.problem/1\",\"index\":1,\"task\":\"u\",\"gold\":\"\\u00e9\"," \
	"\"prompt\":\"q\\n\",\"messages\":[{\"role\":\"system\",\"content\":\"s\"}, " \
	"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"q\"}]}],\"max_tokens\":100,\"x\":1}"

static int
fails(const char *text, const char *want)
{
	struct problem_list ps;
	char err[256] = "";
	int rc = problem_list_parse(&ps, text, strlen(text), err, sizeof(err));

	if (rc == 0 || ps.n || ps.p) {
		problem_list_release(&ps);
		return 0;
	}
	if (!strstr(err, want)) {
		printf("#   err '%s', want '%s'\n", err, want);
		return 0;
	}
	return 1;
}

int
main(void)
{
	struct problem_list ps;
	char err[256];
	const char *two = P0 "\n\n  \n" P1;

	TEST("problems: two records, blank lines skipped",
	     problem_list_parse(&ps, two, strlen(two), err, sizeof(err)) == 0 && ps.n == 2);
	TEST_STR("problems: task", ps.p[0].task, "t");
	TEST_STR("problems: gold unescaped", ps.p[1].gold, "\xc3\xa9");
	TEST_STR("problems: prompt", ps.p[1].prompt, "q\n");
	TEST_STR("problems: messages compact, as written by jw",
		 ps.p[1].messages, "[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\","
		 "\"content\":[{\"type\":\"text\",\"text\":\"q\"}]}]");
	TEST("problems: messages length", ps.p[1].messages_len == strlen(ps.p[1].messages));
	TEST("problems: index and max_tokens", ps.p[1].index == 1 && ps.p[0].max_tokens == 5 &&
	     ps.p[1].max_tokens == 100);
	problem_list_release(&ps);
	TEST("problems: released", ps.n == 0 && ps.p == NULL);

	TEST("problems: empty", fails("", "no problem records"));
	TEST("problems: blank only", fails("\n \n\t\n", "no problem records"));
	TEST("problems: not JSON names its line", fails(P0 "\n{", "line 2: "));
	TEST("problems: not an object", fails("[1]", "line 1: not a JSON object"));
	TEST("problems: wrong schema", fails("{\"schema\":\"aiperf.problem/2\"}", "\"schema\""));
	TEST("problems: index out of place", fails(P1, "line 1: \"index\" is not 0"));
	TEST("problems: index twice", fails(P0 "\n" P0, "line 2: \"index\" is not 1"));
	TEST("problems: missing gold", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":\"t\",\"prompt\":\"p\"}", "\"gold\" missing"));
	TEST("problems: NUL in gold", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":\"t\",\"gold\":\"a\\u0000b\",\"prompt\":\"p\"}", "\"gold\" holds a NUL"));
	TEST("problems: task a number", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":1}", "\"task\" not a string"));
	TEST("problems: no messages", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":\"t\",\"gold\":\"g\",\"prompt\":\"p\"}", "\"messages\" missing"));
	TEST("problems: empty messages", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":\"t\",\"gold\":\"g\",\"prompt\":\"p\",\"messages\":[]}", "non-empty array"));
	TEST("problems: a message without a role", fails("{\"schema\":\"aiperf.problem/1\","
	     "\"index\":0,\"task\":\"t\",\"gold\":\"g\",\"prompt\":\"p\",\"messages\":[{}]}",
	     "string \"role\""));
	TEST("problems: max_tokens 0", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":\"t\",\"gold\":\"g\",\"prompt\":\"p\",\"messages\":[{\"role\":\"user\"}],"
	     "\"max_tokens\":0}", "\"max_tokens\""));
	TEST("problems: max_tokens 1.5", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":\"t\",\"gold\":\"g\",\"prompt\":\"p\",\"messages\":[{\"role\":\"user\"}],"
	     "\"max_tokens\":1.5}", "\"max_tokens\""));
	TEST("problems: max_tokens huge", fails("{\"schema\":\"aiperf.problem/1\",\"index\":0,"
	     "\"task\":\"t\",\"gold\":\"g\",\"prompt\":\"p\",\"messages\":[{\"role\":\"user\"}],"
	     "\"max_tokens\":99999999999999999999999}", "\"max_tokens\""));
	TEST("problems: index negative", fails("{\"schema\":\"aiperf.problem/1\",\"index\":-1}",
	     "\"index\""));
	TEST("problems: a bad second record leaves nothing", fails(P0 "\n" "{\"schema\":1}",
	     "line 2: "));
	TEST("problems: a missing file", problem_list_load(&ps, "/nonexistent/p.jsonl", err,
	     sizeof(err)) < 0 && ps.n == 0);
	TEST("problems: a directory", problem_list_load(&ps, "/", err, sizeof(err)) < 0);
	return TEST_DONE();
}
