#!/bin/sh
# Client health end to end: the sender's cpu_ns and server stamps, the
# metric records' "aiperf" object, the summary's "client" object. No timed
# assertions: only that the figures exist and are consistent.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --osl 4 --random-seed 3"

start_mock --ttft-ms 1 --itl-ms 1

test_expect_success 'rate run: raw records carry intended time, stamps and cpu_ns' '
	$G --streaming --request-rate 200 --request-count 8 |
		aiperf-send -u "$MOCK_URL" >raw &&
	test "$(wc -l <raw)" -eq 8 &&
	test "$(jq -c "select(.aiperf.intended_perf_ns and .aiperf.cpu_ns
		and (.aiperf.server_stamps | length) > 0)" raw | wc -l)" -eq 8 &&
	jq -e -s "[.[].aiperf.cpu_ns] | . == sort" raw >/dev/null
'

test_expect_success 'metric records: lateness, latency from intended send, one delay per stamp' '
	aiperf-metrics --tokenizer builtin raw >rec &&
	test "$(wc -l <rec)" -eq 8 &&
	jq -e -s "all(.[]; .aiperf.schedule_lateness_ns >= 0
		and .aiperf.intended_latency_ns >= .aiperf.schedule_lateness_ns
		and (.aiperf.cpu_ns | type) == \"number\")" rec >/dev/null &&
	jq -s "[.[].aiperf.server_stamps | length]" raw >want &&
	jq -s "[.[].aiperf.observation_delay_ns | length]" rec >got &&
	test_cmp want got
'

test_expect_success 'live gen|send|metrics|export with --request-rate: client object' '
	$G --streaming --request-rate 100 --request-count 6 |
		aiperf-send -u "$MOCK_URL" | aiperf-metrics --tokenizer builtin |
		aiperf-export --target-request-rate 100 --artifact-dir art >out 2>err &&
	j=art/profile_export_aiperf.json &&
	jq -e ".client.schedule_lateness_ms | has(\"p50\") and has(\"p99\") and has(\"max\")" $j &&
	jq -e ".client.intended_request_latency_ms.p50 > 0" $j &&
	jq -e ".client.observation_delay_ms.max >= 0" $j &&
	jq -e ".client.cpu_us_per_request > 0" $j &&
	jq -e ".client.achieved_request_rate > 0 and .client.target_request_rate == 100" $j &&
	test "$(jq -r "keys_unsorted | last" $j)" = client &&
	grep -q "^Client Health$" out &&
	grep -q "^Schedule Lateness (ms): p50 " out &&
	grep -q "^Request Latency From Intended Send (ms): p50 " out &&
	grep -q "^Observation Delay (ms): p50 " out &&
	grep -q "^Client CPU per Request (us): " out
'

test_expect_success 'non-streaming: the body stamp gives one delay per record' '
	$G --request-count 3 | aiperf-send -u "$MOCK_URL" | aiperf-metrics --tokenizer builtin >rec &&
	jq -e -s "all(.[]; (.aiperf.observation_delay_ns | length) == 1
		and (has(\"schedule_lateness_ns\") | not))" rec >/dev/null
'

test_expect_success 'original-format raw records give no aiperf object' '
	jq -c "del(.aiperf)" raw | aiperf-metrics --tokenizer builtin >rec &&
	test "$(wc -l <rec)" -eq 8 && ! grep -q "\"aiperf\"" rec
'

test_done
