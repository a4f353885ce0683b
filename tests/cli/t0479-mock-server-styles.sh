#!/bin/sh
# aiperf-mock's per-server metrics routes (/vllm, /sglang, /trtllm,
# /dynamo_frontend, /dynamo_component/{prefill,decode}, /dcgm{N}): each
# parses with aiperf-scrape and its counters equal the traffic served.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1 --model "m\"q"

# val FILE METRIC [SELECT]: the value of a metric's first series (or the
# series SELECT picks) in an aiperf-scrape record.
val() {
	jq "[.metrics[\"$2\"].series[] | select(${3:-true})][0] | (.value // .count)" "$1"
}

test_expect_success 'every route parses and has its server style of names' '
	for r in vllm sglang trtllm dynamo_frontend dynamo_component/prefill \
		dynamo_component/decode dcgm1 dcgm2; do
		aiperf-scrape --once "$MOCK_URL/$r/metrics" >"s.$(echo $r | tr / _)" || return 1
		jq -e ".status == 200 and (has(\"error\") | not) and (.metrics | length) >= 4" \
			"s.$(echo $r | tr / _)" >/dev/null || return 1
	done &&
	jq -e ".metrics | keys | all(startswith(\"vllm:\"))" s.vllm &&
	jq -e ".metrics | keys | all(startswith(\"sglang:\"))" s.sglang &&
	jq -e ".metrics | keys | all(startswith(\"trtllm_\"))" s.trtllm &&
	jq -e ".metrics | keys | all(startswith(\"dynamo_frontend_\"))" s.dynamo_frontend &&
	jq -e ".metrics | keys | all(startswith(\"dynamo_component_\"))" s.dynamo_component_prefill &&
	jq -e ".metrics[\"dynamo_component_requests_total\"].series[0].labels.dynamo_component == \"decode\"" \
		s.dynamo_component_decode &&
	jq -e ".metrics | keys | all(startswith(\"DCGM_FI_\"))" s.dcgm1 &&
	jq -e ".metrics[\"trtllm_time_to_first_token_seconds\"].type == \"histogram\"" s.trtllm &&
	jq -e ".metrics[\"sglang:prompt_tokens_total\"].series[0].labels.model_name == \"m\\\"q\"" s.sglang
'

test_expect_success 'GPU sets differ in UUID, not in count; other paths 404' '
	u1=$(jq -c "[.metrics.DCGM_FI_DEV_GPU_UTIL.series[].labels.UUID]" s.dcgm1) &&
	u2=$(jq -c "[.metrics.DCGM_FI_DEV_GPU_UTIL.series[].labels.UUID]" s.dcgm2) &&
	test "$(echo "$u1" | jq length)" -eq 2 && test "$u1" != "$u2" &&
	for p in dcgm0 dcgm9 dcgm01 dcgm sglang/x; do
		code=$(curl -s -o /dev/null -w "%{http_code}" "$MOCK_URL/$p/metrics") &&
		test "$code" = 404 || return 1
	done &&
	code=$(curl -s -o /dev/null -w "%{http_code}" -d x "$MOCK_URL/sglang/metrics") &&
	test "$code" = 405
'

test_expect_success 'counters equal the traffic served, on every route' '
	aiperf-gen -m m --tokenizer builtin --random-seed 7 --isl 20 --osl 5 \
		--request-count 7 2>/dev/null |
		aiperf-send -u "$MOCK_URL" --concurrency 3 >raw &&
	aiperf-gen -m m --tokenizer builtin --random-seed 8 --isl 30 --osl 4 \
		--request-count 5 --streaming 2>/dev/null |
		aiperf-send -u "$MOCK_URL" --concurrency 2 >raw2 &&
	p=$(jq -r ".responses[0].text" raw | jq -s "map(.usage.prompt_tokens) | add") &&
	test "$p" -gt 0 &&
	for r in vllm sglang trtllm dynamo_frontend dynamo_component/prefill \
		dynamo_component/decode; do
		aiperf-scrape --once "$MOCK_URL/$r/metrics" >"a.$(echo $r | tr / _)" || return 1
	done &&
	test "$(val a.vllm vllm:generation_tokens_total)" -eq 55 &&
	test "$(val a.sglang sglang:generation_tokens_total)" -eq 55 &&
	test "$(val a.sglang sglang:num_requests_total)" -eq 12 &&
	test "$(val a.sglang sglang:num_running_reqs)" -eq 0 &&
	test "$(val a.sglang sglang:time_to_first_token_seconds)" -eq 12 &&
	test "$(val a.sglang sglang:e2e_request_latency_seconds)" -eq 12 &&
	sp=$(val a.sglang sglang:prompt_tokens_total) &&
	test "$sp" -eq "$(val a.vllm vllm:prompt_tokens_total)" && test "$sp" -gt "$p" &&
	test "$(val a.trtllm trtllm_request_success_total ".labels.finished_reason == \"length\"")" -eq 12 &&
	test "$(val a.trtllm trtllm_e2e_request_latency_seconds)" -eq 12 &&
	test "$(val a.trtllm trtllm_time_per_output_token_seconds)" -eq 12 &&
	test "$(val a.dynamo_frontend dynamo_frontend_requests_total)" -eq 12 &&
	test "$(val a.dynamo_frontend dynamo_frontend_output_tokens_total)" -eq 55 &&
	test "$(val a.dynamo_frontend dynamo_frontend_input_sequence_tokens_total)" -eq "$sp" &&
	test "$(val a.dynamo_frontend dynamo_frontend_time_to_first_token_seconds)" -eq 12 &&
	test "$(val a.dynamo_frontend dynamo_frontend_inflight_requests)" -eq 0 &&
	for w in prefill decode; do
		test "$(val a.dynamo_component_$w dynamo_component_requests_total)" -eq 12 &&
		test "$(val a.dynamo_component_$w dynamo_component_request_duration_seconds)" -eq 12 ||
		return 1
	done &&
	jq -e ".metrics[\"dynamo_component_request_duration_seconds\"].series[0].buckets[\"+Inf\"] == 12" \
		a.dynamo_component_decode
'

test_expect_success '/metrics keeps the mock counters and vllm families' '
	aiperf-scrape --once "$MOCK_URL/metrics" >m &&
	jq -e ".metrics | has(\"aiperf_mock_requests_total\") and has(\"vllm:prompt_tokens_total\")
		and (has(\"sglang:prompt_tokens_total\") | not)" m
'

test_expect_success 'aiperf profile --server-metrics URL/sglang/metrics end to end' '
	aiperf profile -m m --tokenizer builtin --url "$MOCK_URL" --request-count 8 \
		--warmup-request-count 2 --concurrency 2 --ui-type none --artifact-dir run \
		--server-metrics "$MOCK_URL/sglang/metrics" \
		--server-metrics-formats json csv >out 2>err &&
	J=run/server_metrics_export.json &&
	jq -e ".summary.endpoints_configured | index(\"$MOCK_URL/sglang/metrics\") != null" $J &&
	jq -e "[.metrics[\"sglang:num_requests_total\"].series[].stats.total] | add | . >= 8 and . <= 10" $J &&
	jq -e ".metrics[\"sglang:e2e_request_latency_seconds\"].type == \"histogram\" and
		.metrics[\"sglang:e2e_request_latency_seconds\"].series[0].endpoint_url ==
		\"$MOCK_URL/sglang/metrics\"" $J &&
	grep -q "sglang:num_requests_total" run/server_metrics_export.csv
'

test_done
