#!/bin/sh
# aiperf profile passes the original's options on to the stages that
# implement them, under every documented name (issue #11).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --osl 4 "$@"
}

test_expect_success '--slice-duration reaches aiperf-export: time-sliced files' '
	prof --request-count 6 --concurrency 2 --slice-duration 0.05 --artifact-dir s >/dev/null 2>&1 &&
	test -s s/profile_export_aiperf_timeslices.json &&
	test -s s/profile_export_aiperf_timeslices.csv &&
	jq -e ".input_config.output.slice_duration == 0.05" s/profile_export_aiperf.json >/dev/null &&
	prof --request-count 2 --artifact-dir n >/dev/null 2>&1 &&
	test ! -e n/profile_export_aiperf_timeslices.json
'

test_expect_success '--export-http-trace reaches aiperf-metrics: trace data in the records' '
	prof --request-count 2 --export-http-trace --artifact-dir t >/dev/null 2>&1 &&
	test "$(grep -c "\"trace_data\"" t/profile_export.jsonl)" -eq 2 &&
	prof --request-count 2 --artifact-dir u >/dev/null 2>&1 &&
	! grep -q "\"trace_data\"" u/profile_export.jsonl
'

test_expect_success 'the aliases of the older help: --request-rate-mode, --vllm-burstiness, --batch-size, --profile-export-level' '
	prof --request-count 3 --request-rate 200 --request-rate-mode gamma --vllm-burstiness 2 \
		--batch-size 1 --profile-export-level raw --artifact-dir a >/dev/null 2>&1 &&
	test "$(wc -l <a/profile_export_raw.jsonl)" -eq 3 &&
	j=a/profile_export_aiperf.json &&
	test "$(jq -r .input_config.loadgen.arrival_pattern $j)" = gamma &&
	jq -e ".input_config.loadgen.arrival_smoothness == 2" $j >/dev/null &&
	test "$(jq -r .input_config.output.export_level $j)" = raw &&
	jq -r .input_config.cli_command $j |
		grep -q -- "--arrival-pattern gamma --arrival-smoothness 2 --prompt-batch-size 1 --export-level raw"
'

test_expect_success 'a choice spelled with dashes and capitals is the documented one' '
	prof --request-count 2 --model-selection-strategy Round-Robin --url-strategy ROUND-ROBIN \
		--transport Http --artifact-dir c >/dev/null 2>&1 &&
	j=c/profile_export_aiperf.json &&
	test "$(jq -r .input_config.endpoint.model_selection_strategy $j)" = round_robin &&
	test "$(jq -r .input_config.endpoint.url_selection_strategy $j)" = round_robin &&
	test "$(jq -r .input_config.endpoint.transport $j)" = http
'

test_expect_success '--num-sessions (--conversation-num): the number of sessions to run, every turn of each' '
	prof --num-sessions 3 --session-turns-mean 2 --concurrency 2 --artifact-dir ns >/dev/null 2>&1 &&
	j=ns/profile_export_aiperf.json &&
	jq -e ".request_count.avg == 6 and .input_config.input.conversation.num == 3" $j >/dev/null &&
	test_expect_code 2 prof --num-conversations 3 --request-count 4 --artifact-dir nx 2>err &&
	grep -q "Use either --request-count or --conversation-num but not both" err && test ! -e nx
'

test_expect_success '--dataset-sampling-strategy reaches aiperf-gen, in any case' '
	prof --request-count 4 --num-dataset-entries 2 --dataset-sampling-strategy Sequential \
		--artifact-dir ds >/dev/null 2>&1 &&
	jq -e ".input_config.input.dataset_sampling_strategy == \"sequential\"" \
		ds/profile_export_aiperf.json >/dev/null &&
	test_expect_code 2 prof --dataset-sampling-strategy sometimes --artifact-dir dx 2>err &&
	grep -q "sometimes" err && test ! -e dx
'

test_done
