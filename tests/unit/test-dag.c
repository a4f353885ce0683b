/* SPDX-License-Identifier: Apache-2.0 */
/* lib/dataset/dag: the dag_jsonl schema, its branches and the loader's checks, on good and hostile files. */
#include "dataset/dag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

static char msg[1024];

/* Load the lines of text (split at '\n'); 0 or -1 with msg set. */
static int
load(struct dag *d, const char *text)
{
	size_t lineno = 0;
	const char *p = text;

	dag_init(d, "f.jsonl");
	msg[0] = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (dag_add_line(d, p, n, ++lineno, msg, sizeof(msg)) < 0)
			return -1;
		p += n + (e != NULL);
	}
	return dag_finish(d, msg, sizeof(msg));
}

/* The error message text gives, "" when it loads. */
static const char *
err_of(const char *text)
{
	struct dag d;
	int rc = load(&d, text);

	dag_release(&d);
	return rc < 0 ? msg : "";
}

#define T(m) "{\"messages\":[{\"role\":\"user\",\"content\":\"" m "\"}]"

static void
test_example(void)
{
	struct dag d;
	const char *f =
		"{\"session_id\":\"root\",\"turns\":[{\"model\":\"Q\",\"messages\":[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\",\"content\":\"u\"}],\"max_tokens\":128,\"forks\":[\"branch-a\",\"branch-b\"]}]}\n"
		"{\"session_id\":\"branch-a\",\"turns\":[" T("a0") "}," T("a1") "}]}\n"
		"\n"
		"{\"session_id\":\"branch-b\",\"turns\":[" T("b0") "}]}\n";

	TEST("dag: the docs' example loads", load(&d, f) == 0);
	TEST("dag: one root", d.nroots == 1 && d.convs[0].root && !d.convs[1].root);
	TEST("dag: one FORK branch of two", d.nbranches == 1 &&
	     d.branches[0].mode == DAG_FORK && d.branches[0].nchildren == 2 &&
	     d.children[0] == 1 && d.children[1] == 2);
	TEST("dag: fork children have depth 1 and their parent",
	     d.convs[1].depth == 1 && d.convs[2].fork_parent == 0);
	TEST("dag: max_tokens and model", d.convs[0].turns[0].max_tokens == 128 &&
	     d.convs[0].turns[0].model_len == 1);
	dag_release(&d);
}

static void
test_joins(void)
{
	struct dag d;
	const char *f =
		"{\"session_id\":\"p\",\"pre_session_spawns\":[\"pre\"],\"turns\":[" T("0") ",\"forks\":[{\"child\":\"bg\",\"background\":true}],\"spawns\":[\"s1\",{\"children\":[\"s2\"],\"join_at\":3}]}," T("1") "}," T("2") "}," T("3") ",\"spawns\":[\"s3\"]}]}\n"
		"{\"session_id\":\"bg\",\"turns\":[" T("bg") "}]}\n"
		"{\"session_id\":\"s1\",\"turns\":[{\"messages\":[{\"role\":\"system\",\"content\":\"x\"},{\"role\":\"user\"}]}]}\n"
		"{\"session_id\":\"s2\",\"turns\":[" T("s2") "}]}\n"
		"{\"session_id\":\"s3\",\"turns\":[" T("s3") "}]}\n"
		"{\"session_id\":\"pre\",\"turns\":[" T("pre") "}]}\n";

	TEST("dag: fork, spawns, join_at and pre load", load(&d, f) == 0);
	TEST("dag: branches in the original's order", d.nbranches == 5 &&
	     d.branches[0].mode == DAG_PRE && d.branches[1].mode == DAG_FORK &&
	     d.branches[1].background && d.branches[2].mode == DAG_SPAWN &&
	     d.branches[2].join_at == 1 && d.branches[3].join_at == 3 &&
	     d.branches[4].join_at == DAG_NONE);
	TEST("dag: the gated turns' waits", d.convs[0].turns[1].nwait == 1 &&
	     d.convs[0].turns[3].nwait == 1 && d.convs[0].turns[2].nwait == 0);
	TEST("dag: spawn children keep depth 0", d.convs[2].depth == 0 &&
	     d.convs[1].depth == 1 && d.nroots == 1);
	dag_release(&d);
}

static void
test_schema(void)
{
	TEST_STR("dag: invalid JSON", err_of("{"),
		 "failed to parse DAG JSONL 'f.jsonl' line 1: invalid JSON: at byte 1: expected string key");
	TEST_STR("dag: missing session_id", err_of("{\"turns\":[" T("x") "}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: session_id: Field required");
	TEST_STR("dag: empty turns", err_of("{\"session_id\":\"a\",\"turns\":[]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns: List should have at least 1 item after validation, not 0");
	TEST_STR("dag: messages missing", err_of("{\"session_id\":\"a\",\"turns\":[{}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0.messages: Field required");
	TEST_STR("dag: messages not a list", err_of("{\"session_id\":\"a\",\"turns\":[{\"messages\":3}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0.messages: Input should be a valid list");
	TEST_STR("dag: unknown turn key", err_of("{\"session_id\":\"a\",\"turns\":[" T("x") ",\"max_token\":3}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0.max_token: Extra inputs are not permitted");
	TEST_STR("dag: unknown conversation key", err_of("{\"session_id\":\"a\",\"turns\":[" T("x") "}],\"not_a_real_field\":1}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: not_a_real_field: Extra inputs are not permitted");
	TEST_STR("dag: role missing", err_of("{\"session_id\":\"a\",\"turns\":[{\"messages\":[{\"content\":\"x\"}]}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0: Value error, Each message must have a 'role' key, but message at index 0 does not");
	TEST_STR("dag: max_tokens true", err_of("{\"session_id\":\"a\",\"turns\":[" T("x") ",\"max_tokens\":true}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0.max_tokens: Value error, max_tokens must be an integer, not a boolean (got True); check for a typo in your DAG JSONL file");
	TEST_STR("dag: max_tokens 0", err_of("{\"session_id\":\"a\",\"turns\":[" T("x") ",\"max_tokens\":0}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0.max_tokens: Input should be greater than or equal to 1");
	TEST_STR("dag: bad fork entry", err_of("{\"session_id\":\"a\",\"turns\":[" T("x") ",\"forks\":[{\"kid\":\"b\"}]}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0.forks.0.str: Input should be a valid string");
	TEST_STR("dag: negative delay", err_of("{\"session_id\":\"a\",\"turns\":[" T("x") ",\"delay\":-1}]}"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: turns.0.delay: Input should be greater than or equal to 0");
	TEST_STR("dag: not an object", err_of("[1]"),
		 "failed to parse DAG JSONL 'f.jsonl': line 1: Input should be a valid dictionary or instance of DagConversation");
	TEST_STR("dag: duplicate session_id", err_of("{\"session_id\":\"a\",\"turns\":[" T("x") "}]}\n{\"session_id\":\"a\",\"turns\":[" T("x") "}]}"),
		 "failed to parse DAG JSONL 'f.jsonl' line 2: duplicate session_id 'a'");
	TEST_STR("dag: empty file", err_of("\n \n"),
		 "DAG JSONL file 'f.jsonl' is empty (no conversations parsed); supply at least one conversation line");
}

#define C(id, rest) "{\"session_id\":\"" id "\",\"turns\":[" rest "]}\n"

static void
test_graph(void)
{
	TEST_STR("dag: unknown target", err_of(C("root", T("x") ",\"forks\":[\"brnch-a\"]}") C("b", T("y") "}")),
		 "session 'root' turn 0: branch target 'brnch-a' not declared. Known sessions: ['b', 'root']");
	TEST_STR("dag: two fork parents", err_of(C("A", T("x") ",\"forks\":[\"Y\"]}") C("B", T("x") ",\"forks\":[\"Y\"]}") C("Y", T("y") "}")),
		 "session 'Y' forked by both 'A' turn 0 and 'B' turn 0; FORK-mode children require a single parent");
	TEST_STR("dag: bare fork not last", err_of(C("X", T("x") ",\"forks\":[\"Y\"]}," T("z") "}") C("Y", T("y") "}")),
		 "session 'X' turn 0 has foreground FORK branches but is not the last turn and no join is declared (use ``background=True`` on the fork entry to keep the parent running, or move the forks to the final turn)");
	TEST_STR("dag: background fork not last", err_of(C("X", T("x") ",\"forks\":[{\"child\":\"Y\",\"background\":true}]}," T("z") "}") C("Y", T("y") "}")), "");
	TEST_STR("dag: pre-session fork target", err_of("{\"session_id\":\"X\",\"pre_session_spawns\":[\"Y\"],\"turns\":[" T("x") ",\"forks\":[\"Y\"]}]}\n" C("Y", T("y") "}")),
		 "session 'Y' is referenced by 'X' pre_session_spawns but is also a FORK target; pre-session children must be SPAWN-mode (no parent context to inherit)");
	TEST_STR("dag: system on a fork child", err_of(C("A", T("x") ",\"forks\":[\"B\"]}") C("B", "{\"messages\":[{\"role\":\"system\",\"content\":\"s\"}]}")),
		 "session 'B' turn 0: non-root turns may not contain a 'system' message. Place the single system prompt at the root turn only; popular chat templates (e.g. Qwen3-VL) ignore system messages after index 0.");
	TEST_STR("dag: system on turn 1", err_of(C("A", T("x") "},{\"messages\":[{\"role\":\"system\"}]}")),
		 "session 'A' turn 1: non-root turns may not contain a 'system' message. Place the single system prompt at the root turn only; popular chat templates (e.g. Qwen3-VL) ignore system messages after index 0.");
	TEST_STR("dag: cycle", err_of(C("A", T("x") ",\"spawns\":[\"B\"]}") C("B", T("y") ",\"spawns\":[\"A\"]}")),
		 "cycle detected: A -> B -> A");
	TEST_STR("dag: self cycle", err_of(C("A", T("x") ",\"spawns\":[\"A\"]}")), "cycle detected: A -> A");
	TEST_STR("dag: join_at too small", err_of(C("A", T("x") "}," T("x") ",\"spawns\":[{\"children\":[\"B\"],\"join_at\":1}]}," T("x") "}") C("B", T("y") "}")),
		 "session 'A' turn 1: spawn join_at=1 must be strictly greater than the spawning turn index");
	TEST_STR("dag: join_at out of range", err_of(C("A", T("x") ",\"spawns\":[{\"children\":[\"B\"],\"join_at\":2}]}," T("x") "}") C("B", T("y") "}")),
		 "session 'A' turn 0: spawn join_at=2 is out of range (conversation has 2 turns)");
	TEST_STR("dag: duplicate fork", err_of(C("A", T("x") ",\"forks\":[\"B\",\"B\"]}") C("B", T("y") "}")),
		 "session 'A' turn 0: duplicate child_conversation_id 'B' in fork entries");
	TEST_STR("dag: duplicate across spawn groups", err_of(C("A", T("x") ",\"spawns\":[\"B\",{\"children\":[\"B\"]}]}") C("B", T("y") "}")),
		 "session 'A' turn 0: duplicate child_conversation_id 'B' across spawn groups");
	TEST_STR("dag: duplicate pre", err_of("{\"session_id\":\"A\",\"pre_session_spawns\":[\"B\",\"B\"],\"turns\":[" T("x") "}]}\n" C("B", T("y") "}")),
		 "failed to parse DAG JSONL 'f.jsonl' line 1: session 'A' duplicate child_conversation_id 'B' in pre_session_spawns");
}

/* A chain 40 deep, and a shared spawn target doubling 20 times. */
static void
test_caps(void)
{
	char *f = malloc(1 << 16);
	size_t n = 0;

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(f + n, 200, "{\"session_id\":\"c%d\",\"turns\":[" T("x") ",\"spawns\":[\"c%d\"]}]}\n", i, i + 1);
	snprintf(f + n, 200, C("c40", T("x") "}"));
	TEST_STR("dag: depth cap", err_of(f), "session 'c8' has branches more than 32 levels deep (the cap on a DAG's depth)");
	n = 0;
	for (int i = 0; i < 20; i++)
		n += (size_t)snprintf(f + n, 200, "{\"session_id\":\"d%d\",\"turns\":[" T("x") ",\"spawns\":[\"d%d\"]}," T("x") ",\"spawns\":[\"d%d\"]}]}\n", i, i + 1, i + 1);
	snprintf(f + n, 200, C("d20", T("x") "}"));
	TEST("dag: size cap", strstr(err_of(f), "the cap on a DAG's size") != NULL);
	free(f);
}

int
main(void)
{
	test_example();
	test_joins();
	test_schema();
	test_graph();
	test_caps();
	return TEST_DONE();
}
