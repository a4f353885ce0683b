#!/bin/sh
# dag_jsonl (issue #31): conversations with FORK and SPAWN branches. The
# docs' example and a file with a background fork, a spawn joined at a
# later turn, a bare spawn and a pre-session spawn, through aiperf-gen |
# aiperf-send and through aiperf profile against aiperf-mock: every turn
# sent once, children after their parent's reply, a gated turn after its
# children, and each body's messages the history the docs describe
# (tests/dag/dag-check.py rebuilds it from the file and the replies).
# Hostile files fail with the original loader's messages, exit 1.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

CHECK=$TOP/tests/dag/dag-check.py
EX=$TOP/tests/fuzz/corpus/fuzz-dag/example
MIXED=$TOP/tests/fuzz/corpus/fuzz-dag/mixed
export CHECK EX MIXED

start_mock --ttft-ms 20 --itl-ms 2

gen() {
	aiperf-gen -m Qwen3-0.6B --endpoint-type chat --tokenizer builtin \
		--random-seed 1 --custom-dataset-type dag_jsonl "$@"
}
export MOCK_URL

test_expect_success 'the docs example: root, then both forks, each with the root history and reply' '
	gen --input-file "$EX" >req &&
	test "$(wc -l <req)" -eq 5 &&
	aiperf-send -u "$MOCK_URL" --concurrency 1 <req >raw &&
	python3 "$CHECK" "$EX" raw >order &&
	head -1 order >got && echo "root 0" >want && test_cmp want got &&
	sed -n 2,3p order | sort >got && printf "branch-a 0\nbranch-b 0\n" >want && test_cmp want got &&
	jq -e -s "map(select(.metadata.conversation_id == \"branch-a\" and .metadata.turn_index == 0))[0].payload.messages |
		length == 5 and .[2].role == \"assistant\" and (.[2].content | length) > 0 and
		.[0].role == \"system\" and .[4].content == \"Add a brief counter-argument.\"" raw
'

test_expect_success 'fork children take no slot: both branches in flight at --concurrency 1' '
	python3 -c "
import json
r = {(x[\"metadata\"][\"conversation_id\"], x[\"metadata\"][\"turn_index\"]): x for x in map(json.loads, open(\"raw\"))}
a, b = r[(\"branch-a\", 0)], r[(\"branch-b\", 0)]
assert a[\"start_perf_ns\"] < b[\"aiperf\"][\"end_perf_ns\"] and b[\"start_perf_ns\"] < a[\"aiperf\"][\"end_perf_ns\"]
"
'

test_expect_success 'records carry the branches: dag_parent, dag_after, dag_fork, dag_forks' '
	jq -c "[.conversation_id, .turn_index, .dag_after, .dag_fork, .dag_forks, .dag_children, .agent_depth, .history]" req >got &&
	cat >want <<-\EOT &&
	["root",0,null,null,2,2,0,null]
	["branch-a",0,0,true,null,null,1,true]
	["branch-a",1,null,null,null,null,1,true]
	["branch-b",0,0,true,null,null,1,true]
	["branch-b",1,null,null,null,null,1,true]
	EOT
	test_cmp want got &&
	test "$(jq -r "select(.turn_index == 0 and .dag_parent) | .dag_parent" req | sort -u)" = \
		"$(jq -r "select(.conversation_id == \"root\") | .x_correlation_id" req)"
'

test_expect_success 'background fork, spawn with join_at, bare spawn, pre-session spawn, extra' '
	gen --input-file "$MIXED" >req2 &&
	jq -c "[.conversation_id, .turn_index, .dag_after, .dag_pre, .dag_join, .dag_wait]" req2 >got &&
	cat >want <<-\EOT &&
	["p",0,null,null,null,null]
	["p",1,null,null,null,null]
	["p",2,null,null,null,1]
	["pre",0,null,true,null,null]
	["bg",0,0,null,null,null]
	["s1",0,0,null,2,null]
	["s1",1,null,null,null,null]
	["s2",0,2,null,null,null]
	EOT
	test_cmp want got &&
	aiperf-send -u "$MOCK_URL" --concurrency 1 <req2 >raw2 &&
	python3 "$CHECK" "$MIXED" raw2 >order2 &&
	test "$(head -1 order2)" = "p 0" || test "$(head -1 order2)" = "pre 0" &&
	test "$(tail -1 order2)" = "s2 0" &&
	python3 -c "
import json
r = {(x[\"metadata\"][\"conversation_id\"], x[\"metadata\"][\"turn_index\"]): x for x in map(json.loads, open(\"raw2\"))}
# the background fork never gates: the parent turn 1 goes while bg runs
assert r[(\"p\", 1)][\"start_perf_ns\"] < r[(\"bg\", 0)][\"aiperf\"][\"end_perf_ns\"]
# join_at 2: turn 2 after s1 finished, turn 1 did not wait for it
assert r[(\"p\", 2)][\"start_perf_ns\"] >= r[(\"s1\", 1)][\"aiperf\"][\"end_perf_ns\"]
assert r[(\"p\", 1)][\"start_perf_ns\"] < r[(\"s1\", 0)][\"aiperf\"][\"end_perf_ns\"]
# the pre-session spawn goes with turn 0, before it returned
assert r[(\"pre\", 0)][\"start_perf_ns\"] < r[(\"p\", 0)][\"aiperf\"][\"end_perf_ns\"]
# spawns start empty; extra is merged into the body
assert r[(\"s1\", 0)][\"payload\"][\"messages\"] == [{\"role\": \"user\", \"content\": \"s1-0\"}]
assert r[(\"p\", 1)][\"payload\"][\"temperature\"] == 0.5
"
'

test_expect_success 'aiperf profile: the docs example streamed, five requests, the same histories' '
	aiperf profile --model Qwen3-0.6B --endpoint-type chat --streaming \
		--url "$MOCK_URL" --input-file "$EX" --custom-dataset-type dag_jsonl \
		--concurrency 1 --tokenizer builtin --export-level raw --artifact-dir a >out 2>err &&
	test "$(jq .request_count.avg a/profile_export_aiperf.json)" = 5 &&
	python3 "$CHECK" "$EX" a/profile_export_raw.jsonl >order &&
	test "$(head -1 order)" = "root 0"
'

test_expect_success '--num-conversations: the root count by default, trees whole' '
	for r in A B C; do
		echo "{\"session_id\":\"root-$r\",\"turns\":[{\"messages\":[{\"role\":\"user\",\"content\":\"plan task\"}],\"forks\":[\"$r-child-1\",\"$r-child-2\"]}]}"
		echo "{\"session_id\":\"$r-child-1\",\"turns\":[{\"messages\":[{\"role\":\"user\",\"content\":\"detail option 1\"}]}]}"
		echo "{\"session_id\":\"$r-child-2\",\"turns\":[{\"messages\":[{\"role\":\"user\",\"content\":\"detail option 2\"}]}]}"
	done >three.jsonl &&
	gen --input-file three.jsonl >r3 &&
	test "$(wc -l <r3)" -eq 9 &&
	test "$(jq -r "select(.dag_parent == null) | .conversation_id" r3 | tr "\n" " ")" = "root-A root-B root-C " &&
	gen --input-file three.jsonl --num-sessions 4 >r4 &&
	test "$(wc -l <r4)" -eq 12 &&
	test "$(jq -r "select(.dag_parent == null) | .conversation_id" r4 | tail -1)" = root-A &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 <r3 >raw3 &&
	python3 "$CHECK" three.jsonl raw3 >/dev/null
'

test_expect_success 'the type is inferred from the first line' '
	aiperf-gen -m m --tokenizer builtin --input-file "$EX" >inf &&
	test "$(jq -s "map(select(.dag)) | length" inf)" -eq 5
'

# bad NAME MESSAGE LINE...: the lines as a file fail to load with MESSAGE
bad() {
	n=$1 m=$2
	shift 2
	printf "%s\n" "$@" >"$n.jsonl" &&
	test_expect_code 1 gen --input-file "$n.jsonl" >/dev/null 2>"$n.err" &&
	echo "aiperf-gen: $m" | sed "s|@|$n.jsonl|g" >"$n.want" &&
	test_cmp "$n.want" "$n.err"
}
# a user message, for the hostile files' lines
U=$(printf '%s' '{"role":"user","content":"x"}')
export U

test_expect_success 'hostile files: the loader'"'"'s messages, exit 1' '
	bad t1 "failed to parse DAG JSONL '"'"'@'"'"': line 1: turns.0.max_token: Extra inputs are not permitted" \
		"{\"session_id\":\"a\",\"turns\":[{\"messages\":[$U],\"max_token\":3}]}" &&
	bad t2 "failed to parse DAG JSONL '"'"'@'"'"' line 2: duplicate session_id '"'"'a'"'"'" \
		"{\"session_id\":\"a\",\"turns\":[{\"messages\":[$U]}]}" "{\"session_id\":\"a\",\"turns\":[{\"messages\":[$U]}]}" &&
	bad t3 "session '"'"'root'"'"' turn 0: branch target '"'"'brnch-a'"'"' not declared. Known sessions: ['"'"'branch-a'"'"', '"'"'root'"'"']" \
		"{\"session_id\":\"root\",\"turns\":[{\"messages\":[$U],\"forks\":[\"brnch-a\"]}]}" "{\"session_id\":\"branch-a\",\"turns\":[{\"messages\":[$U]}]}" &&
	bad t4 "cycle detected: A -> B -> A" \
		"{\"session_id\":\"A\",\"turns\":[{\"messages\":[$U],\"spawns\":[\"B\"]}]}" "{\"session_id\":\"B\",\"turns\":[{\"messages\":[$U],\"spawns\":[\"A\"]}]}" &&
	bad t5 "session '"'"'Y'"'"' forked by both '"'"'A'"'"' turn 0 and '"'"'B'"'"' turn 0; FORK-mode children require a single parent" \
		"{\"session_id\":\"A\",\"turns\":[{\"messages\":[$U],\"forks\":[\"Y\"]}]}" "{\"session_id\":\"B\",\"turns\":[{\"messages\":[$U],\"forks\":[\"Y\"]}]}" "{\"session_id\":\"Y\",\"turns\":[{\"messages\":[$U]}]}" &&
	bad t6 "session '"'"'X'"'"' turn 0 has foreground FORK branches but is not the last turn and no join is declared (use \`\`background=True\`\` on the fork entry to keep the parent running, or move the forks to the final turn)" \
		"{\"session_id\":\"X\",\"turns\":[{\"messages\":[$U],\"forks\":[\"Y\"]},{\"messages\":[$U]}]}" "{\"session_id\":\"Y\",\"turns\":[{\"messages\":[$U]}]}" &&
	bad t7 "session '"'"'A'"'"' turn 0: spawn join_at=2 is out of range (conversation has 2 turns)" \
		"{\"session_id\":\"A\",\"turns\":[{\"messages\":[$U],\"spawns\":[{\"children\":[\"B\"],\"join_at\":2}]},{\"messages\":[$U]}]}" "{\"session_id\":\"B\",\"turns\":[{\"messages\":[$U]}]}" &&
	bad t8 "session '"'"'B'"'"' turn 0: non-root turns may not contain a '"'"'system'"'"' message. Place the single system prompt at the root turn only; popular chat templates (e.g. Qwen3-VL) ignore system messages after index 0." \
		"{\"session_id\":\"A\",\"turns\":[{\"messages\":[$U],\"forks\":[\"B\"]}]}" "{\"session_id\":\"B\",\"turns\":[{\"messages\":[{\"role\":\"system\"}]}]}" &&
	bad t9 "session '"'"'Y'"'"' is referenced by '"'"'X'"'"' pre_session_spawns but is also a FORK target; pre-session children must be SPAWN-mode (no parent context to inherit)" \
		"{\"session_id\":\"X\",\"pre_session_spawns\":[\"Y\"],\"turns\":[{\"messages\":[$U],\"forks\":[\"Y\"]}]}" "{\"session_id\":\"Y\",\"turns\":[{\"messages\":[$U]}]}" &&
	bad t10 "DAG JSONL file '"'"'@'"'"' is empty (no conversations parsed); supply at least one conversation line" "" ""
'

test_expect_success 'aiperf profile on a hostile file: the message, exit 1, nothing sent' '
	printf "%s\n" "{\"session_id\":\"a\",\"turns\":[]}" >e.jsonl &&
	test_expect_code 1 aiperf profile --model m --url "$MOCK_URL" --input-file e.jsonl \
		--custom-dataset-type dag_jsonl --tokenizer builtin --artifact-dir b >out 2>err &&
	grep -F "aiperf-gen: failed to parse DAG JSONL '"'"'e.jsonl'"'"': line 1: turns: List should have at least 1 item after validation, not 0" err
'

test_expect_success 'aiperf-send: malformed dag fields make the record malformed' '
	printf "%s\n" "{\"id\":\"a\",\"dag_fork\":true,\"payload\":{\"messages\":[]}}" >m1 &&
	test_expect_code 1 aiperf-send -u "$MOCK_URL" <m1 >/dev/null 2>err &&
	grep -F "need '"'"'dag_parent'"'"'" err &&
	printf "%s\n" "{\"id\":\"a\",\"dag_parent\":\"p\",\"payload\":{\"messages\":[]}}" >m2 &&
	test_expect_code 1 aiperf-send -u "$MOCK_URL" <m2 >/dev/null 2>err &&
	grep -F "one of '"'"'dag_after'"'"' or '"'"'dag_pre'"'"'" err
'

test_expect_success 'aiperf-send: a child whose parent never comes is not sent, and the run ends' '
	printf "%s\n" "{\"id\":\"c\",\"x_correlation_id\":\"c\",\"dag_parent\":\"nobody\",\"dag_after\":0,\"payload\":{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}}" >orphan &&
	timeout 20 aiperf-send -u "$MOCK_URL" <orphan >out &&
	test "$(wc -l <out)" -eq 1
'

test_done
