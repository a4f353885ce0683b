#!/bin/sh
# aiperf profile --accuracy-benchmark end to end: aiperf-evalset's MMLU
# problems from a local dataset folder, sent through the load generator to
# aiperf-mock answering from a key that is right on exactly 3 of every 4
# problems: 75.00% overall and per task in the console table, the CSV and
# the JSON, each record's grade in profile_export.jsonl, and the usual
# latency metrics of the same run.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

# aiperf-evalset's MMLU fixtures, anatomy given a fourth test row (a dev
# row asked anew) so that each subject has four problems
DATA=$TMP/hub
export DATA
mkdir -p "$DATA/lighteval" &&
	cp -R "$TOP/tests/data/accuracy/hub/lighteval/mmlu" "$DATA/lighteval/" &&
	head -1 "$DATA/lighteval/mmlu/anatomy/dev.jsonl" |
	jq -c ".question += \" (asked again)\"" >>"$DATA/lighteval/mmlu/anatomy/test.jsonl" || exit 1

# The problems the run sends (8: two subjects of four), and a key that
# answers problem i with its gold letter unless i mod 4 is 3, then with
# the next letter: for the chat form the last message's text, for the
# completions form the prompt.
aiperf-evalset --benchmark mmlu --tasks abstract_algebra,anatomy --n-shots 5 \
	--dataset-dir "$DATA" --offline >"$TMP/problems.jsonl" || exit 1
jq -c 'def wrong: {"A":"B","B":"C","C":"D","D":"A"}[.];
	(if .index % 4 == 3 then (.gold | ltrimstr(" ") | wrong) else (.gold | ltrimstr(" ")) end) as $r |
	{match: .messages[-1].content, reply: $r}, {match: .prompt, reply: (" " + $r)}' \
	"$TMP/problems.jsonl" >"$TMP/key.jsonl" || exit 1
start_mock --answer-key "$TMP/key.jsonl" --ttft-ms 1 --itl-ms 1 || exit 1
export MOCK_URL

# run DIR ENDPOINT [options]: one accuracy run into DIR (its console in DIR.out)
run() {
	d=$1 ep=$2
	shift 2
	aiperf profile -m m --url "$MOCK_URL" --endpoint-type "$ep" --tokenizer builtin \
		--accuracy-benchmark mmlu --accuracy-tasks abstract_algebra,anatomy \
		--accuracy-dataset-dir "$DATA" --request-count 8 --concurrency 2 \
		--ui-type none --artifact-dir "$d" "$@" >"$d.out" 2>"$d.err"
}

test_expect_success 'chat: 75.00% overall and per task, in the table, the CSV and the JSON' '
	run chat chat --streaming &&
	grep -q "Accuracy Benchmark Results" chat.out &&
	grep "OVERALL" chat.out | grep -q "75.00%" &&
	grep "abstract_algebra" chat.out | grep -q "75.00%" &&
	grep "anatomy" chat.out | grep -q "75.00%" &&
	printf "%s\r\n" task,correct,total,unparsed,accuracy OVERALL,6,8,0,0.7500 \
		abstract_algebra,3,4,0,0.7500 anatomy,3,4,0,0.7500 >want.csv &&
	test_cmp want.csv chat/accuracy_results.csv &&
	jq -e "(.\"accuracy.overall\" | .unit == \"ratio\" and .count == 8 and .sum == 6) and
		(.\"accuracy.task.abstract_algebra\" | .count == 4 and .sum == 3) and
		(.\"accuracy.task.anatomy\" | .count == 4 and .sum == 3) and
		(.\"accuracy.unparsed\" | .count == 8 and .sum == 0) and
		.request_latency.avg > 0 and .time_to_first_token.avg > 0 and
		.request_count.avg == 8" chat/profile_export_aiperf.json
'

test_expect_success 'each record carries its grade: the problem, the answer extracted, why' '
	jq -s -e "length == 8 and
		([.[] | .aiperf.accuracy.correct | select(.)] | length) == 6 and
		all(.[]; .aiperf.accuracy.index == (.metadata.session_num % 8)) and
		all(.[]; (.aiperf.accuracy.correct == (.aiperf.accuracy.index % 4 != 3)))" \
		chat/profile_export.jsonl
'

test_expect_success 'the requests are the problems, in order, as the original builds them' '
	jq -c ".data[].payloads[0].messages" chat/inputs.json >sent &&
	jq -c ".messages" "$TMP/problems.jsonl" >want &&
	test_cmp want sent &&
	jq -e ".data[0].payloads[0].max_completion_tokens == 5" chat/inputs.json
'

test_expect_success 'completions: the flat prompts, graded alike' '
	run comp completions &&
	test_cmp want.csv comp/accuracy_results.csv &&
	jq -r ".data[].payloads[0].prompt[0]" comp/inputs.json >sent &&
	jq -r ".prompt" "$TMP/problems.jsonl" >want &&
	test_cmp want sent
'

test_expect_success 'a sweep: the accuracy of every load point, in its cell and in the aggregate' '
	aiperf profile -m m --url "$MOCK_URL" --endpoint-type chat --tokenizer builtin \
		--accuracy-benchmark mmlu --accuracy-tasks abstract_algebra,anatomy \
		--accuracy-dataset-dir "$DATA" --request-count 8 --concurrency 1,2 \
		--ui-type none --artifact-dir sweep >sweep.out 2>sweep.err &&
	test_cmp want.csv sweep/concurrency_1/accuracy_results.csv &&
	test_cmp want.csv sweep/concurrency_2/accuracy_results.csv &&
	jq -e "[.per_combination_metrics[].metrics[\"accuracy.overall\"] | .mean == 0.75 and .sum == 6]
		== [true, true]" sweep/sweep_aggregate/profile_export_aiperf_sweep.json
'

test_expect_success '--accuracy-verbose: a line a graded record in the run log' '
	run verbose chat --accuracy-verbose &&
	test "$(grep -c " - aiperf-metrics - INFO - \[accuracy\] session=" verbose/logs/aiperf.log)" -eq 8 &&
	grep -q "\[accuracy\] session=3 correct=False unparsed=False" verbose/logs/aiperf.log &&
	! grep -q "\[accuracy\]" chat/logs/aiperf.log
'

test_expect_success 'a pair the equivalence check cannot decide: wrong, and the record says so' '
	aiperf-metrics --tokenizer builtin --accuracy-grader lighteval_latex \
		--accuracy-problems "$TOP/tests/data/accuracy/problems-latex.jsonl" \
		<"$TOP/tests/data/accuracy/raw-latex.jsonl" >latex.jsonl &&
	jq -s -e ".[0].aiperf.accuracy | .correct == false and .undecided == true" latex.jsonl &&
	jq -s -e ".[1].aiperf.accuracy | .correct == true and has(\"undecided\") == false" latex.jsonl
'

test_expect_success 'the options are the original'"'"'s: checked before anything runs' '
	test_expect_code 2 aiperf profile -m m --url "$MOCK_URL" --accuracy-n-shots 3 2>err &&
	grep -q "Accuracy options --accuracy-n-shots were set but --accuracy-benchmark is not" err &&
	test_expect_code 2 aiperf profile -m m --url "$MOCK_URL" --accuracy-benchmark mmlu \
		--accuracy-n-shots 33 2>err &&
	grep -q "invalid value for --accuracy-n-shots" err &&
	test_expect_code 2 aiperf profile -m m --url "$MOCK_URL" --accuracy-benchmark mmlu \
		--dataset-sampling-strategy random 2>err &&
	grep -q "Accuracy mode requires sequential request order; .random. sampling is not supported" err &&
	test_expect_code 2 aiperf profile -m m --url "$MOCK_URL" --accuracy-benchmark nope 2>err &&
	grep -q "invalid value for --accuracy-benchmark" err
'

test_expect_success 'an unknown task: the benchmark says which it knows, nothing is sent' '
	test_expect_code 1 run bad chat --accuracy-tasks no_such_subject &&
	grep -q "no_such_subject" bad.err &&
	test ! -e bad/profile_export.jsonl
'

test_expect_success 'the config file'"'"'s accuracy section runs the same benchmark' '
	cat >acc.yaml <<-EOF &&
	benchmark:
	  model: m
	  endpoint:
	    urls: [$MOCK_URL]
	    type: chat
	  tokenizer: builtin
	  accuracy:
	    benchmark: mmlu
	    tasks: [abstract_algebra, anatomy]
	    n_shots: 5
	EOF
	aiperf profile -f acc.yaml --accuracy-dataset-dir "$DATA" --request-count 8 \
		--concurrency 2 --ui-type none --artifact-dir cfg >cfg.out 2>cfg.err &&
	test_cmp want.csv cfg/accuracy_results.csv
'

# A loopback hub (tests/hub/fake-hub.py) serving the same folder's rows.
unset HF_TOKEN HF_TOKEN_PATH HF_HUB_OFFLINE HF_DATASETS_OFFLINE AIPERF_HUB_ROWS_URL XDG_CACHE_HOME
export HF_HOME="$TMP/hfhome" AIPERF_CACHE_DIR="$TMP/aicache"
trap '[ -s "$TMP/.hub.pid" ] && kill "$(cat "$TMP/.hub.pid")" 2>/dev/null; cleanup' EXIT
python3 "$TOP/tests/hub/fake-hub.py" --root "$DATA" --port-file "$TMP/hub.port" \
	--log "$TMP/hub.log" --idle 60 --max 300 &
echo $! >"$TMP/.hub.pid"
i=0
while [ ! -s "$TMP/hub.port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
HUB=http://127.0.0.1:$(cat "$TMP/hub.port")
CLOSED=http://127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export HUB CLOSED

# hubrun DIR [options]: run without --accuracy-dataset-dir
hubrun() {
	d=$1
	shift
	aiperf profile -m m --url "$MOCK_URL" --endpoint-type chat --tokenizer builtin \
		--accuracy-benchmark mmlu --accuracy-tasks abstract_algebra,anatomy \
		--request-count 8 --concurrency 2 --ui-type none --artifact-dir "$d" "$@" >"$d.out" 2>"$d.err"
}

test_expect_success 'the hub serves the rows once; the second run reads the cache' '
	touch "$TMP/hub.log" &&
	AIPERF_HUB_ROWS_URL=$HUB hubrun hub1 &&
	test_cmp want.csv hub1/accuracy_results.csv &&
	test "$(grep -c "/rows?" "$TMP/hub.log")" -eq 4 &&
	test -s "$AIPERF_CACHE_DIR/datasets/lighteval/mmlu/anatomy/test.jsonl" &&
	AIPERF_HUB_ROWS_URL=$HUB hubrun hub2 &&
	test_cmp want.csv hub2/accuracy_results.csv &&
	test "$(grep -c "/rows?" "$TMP/hub.log")" -eq 4 &&
	AIPERF_HUB_ROWS_URL=$CLOSED HF_HUB_OFFLINE=1 hubrun hub3 &&
	test_cmp want.csv hub3/accuracy_results.csv
'

test_expect_success '--accuracy-dataset-dir: no network, no cache' '
	AIPERF_HUB_ROWS_URL=$CLOSED AIPERF_CACHE_DIR=$TMP/none hubrun dir --accuracy-dataset-dir "$DATA" &&
	test_cmp want.csv dir/accuracy_results.csv &&
	test ! -e "$TMP/none" &&
	AIPERF_CACHE_DIR=$TMP/none HF_HUB_OFFLINE=1 test_expect_code 1 hubrun nonet &&
	grep -q "lighteval/mmlu" nonet.err
'

test_done
