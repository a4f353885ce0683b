#!/bin/sh
# aiperf profile against aiperf-mock for nim_rankings, cohere_rankings and
# hf_tei_rankings: every request succeeds, the console title is the
# original's ("Rankings Metrics" for NIM, "Ranking Metrics" for the
# others), input tokens but no output token metrics, the synthetic
# composer's --rankings-* options and a named-texts input file.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ranking-base-latency 1 --ranking-per-passage-latency 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --request-count 3 "$@"
}

# run NAME TITLE [options]: 3 requests, no errors, under TITLE, no output tokens
run() {
	name=$1 title=$2
	shift 2
	prof --artifact-dir "$name" "$@" >out 2>err || { cat err; return 1; }
	grep -q "NVIDIA AIPerf | $title *\$" out || { cat out; return 1; }
	j=$name/profile_export_aiperf.json
	test "$(jq .request_count.avg "$j")" = 3 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	test "$(wc -l <"$name/profile_export.jsonl")" -eq 3 &&
	jq -e ".output_sequence_length == null and .output_token_throughput == null and
		.time_to_first_token == null and .input_sequence_length.avg > 0 and
		.request_latency.avg > 0" "$j" >/dev/null &&
	! grep -q "Output Sequence Length" out
}

R="--rankings-passages-mean 3 --rankings-passages-prompt-token-mean 8 --rankings-query-prompt-token-mean 4"

test_expect_success 'nim_rankings: Rankings Metrics, /v1/ranking' '
	run nim "Rankings Metrics" --endpoint-type nim_rankings $R &&
	jq -e ".input_config.endpoint.type == \"nim_rankings\" and
		.input_config.input.rankings.passages.mean == 3" nim/profile_export_aiperf.json >/dev/null &&
	jq -e ".data[0].payloads[0] | (.passages | length == 3) and (.query.text | length > 0)" \
		nim/inputs.json >/dev/null
'

test_expect_success 'cohere_rankings and hf_tei_rankings: Ranking Metrics' '
	run coh "Ranking Metrics" --endpoint-type cohere-rankings $R &&
	run tei "Ranking Metrics" --endpoint-type hf_tei_rankings $R
'

test_expect_success 'input tokens: the query and its passages (4 + 3 x 8, about)' '
	isl=$(jq .input_sequence_length.avg nim/profile_export_aiperf.json) &&
	awk -v v="$isl" "BEGIN { exit !(v >= 24 && v <= 40) }"
'

test_expect_success 'a single_turn file of named texts' '
	cat >rk.jsonl <<-\EOF &&
	{"texts": [{"name": "query", "contents": ["which way should i go?"]}, {"name": "passages", "contents": ["two roads diverged", "then took the other"]}]}
	{"texts": [{"name": "queries", "contents": ["what is x"]}, {"name": "passages", "contents": ["x is y"]}]}
	EOF
	run file "Ranking Metrics" --endpoint-type cohere_rankings --input-file rk.jsonl \
		--custom-dataset-type single_turn
'

test_done
