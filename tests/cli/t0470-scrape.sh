#!/bin/sh
# aiperf-scrape against aiperf-mock: sample records, counters equal to the
# traffic sent, SIGTERM and control-fd EOF, failing endpoints, DCGM mode.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

restart_mock() {
	kill "$MOCK_PID"
	wait "$MOCK_PID" 2>/dev/null
	start_mock "$@"
}

# now_ns: wall clock in ns, as the records' *_ns stamps
now_ns() {
	python3 -c 'import time; print(time.time_ns())'
}

test_expect_success 'usage: no URL, a bad URL, a bad control fd exit 2' '
	test_expect_code 2 aiperf-scrape 2>err && grep -q "no endpoint URL" err &&
	test_expect_code 2 aiperf-scrape ftp://x/metrics 2>err &&
	grep -q "not an http" err &&
	test_expect_code 2 aiperf-scrape --control-fd 77 http://127.0.0.1:1/ 2>err &&
	grep -q "not an open file descriptor" err &&
	aiperf-scrape --help | grep -q "usage: aiperf-scrape"
'

start_mock --ttft-ms 2 --itl-ms 1 --model "m\"q"

test_expect_success '--once: one record with stamps, status and parsed series' '
	aiperf-scrape --once "$MOCK_URL/metrics" >out &&
	test "$(wc -l <out)" -eq 1 &&
	jq -e ".schema == \"aiperf.sample/1\" and .status == 200 and .scrape == 1 and
		.endpoint_url == \"$MOCK_URL/metrics\" and
		.request_sent_ns <= .first_byte_ns and .first_byte_ns <= .timestamp_ns and
		.endpoint_latency_ns <= .end_perf_ns - .start_perf_ns and
		.start_perf_ns <= .end_perf_ns and .cpu_ns > 0 and .bytes > 1000 and
		(has(\"error\") | not)" out &&
	jq -e --arg m "m\"q" ".metrics[\"vllm:num_requests_running\"].type == \"gauge\" and
		.metrics[\"vllm:prompt_tokens_total\"].series[0].labels.model_name == \$m and
		.metrics[\"vllm:time_to_first_token_seconds\"].type == \"histogram\" and
		(.metrics[\"vllm:time_to_first_token_seconds\"].series[0].buckets | keys_unsorted |
		 .[0] == \"0.001\" and .[-1] == \"+Inf\" and length == 23) and
		.metrics[\"vllm:e2e_request_latency_seconds\"].series[0].count == 0 and
		(.metrics[\"aiperf_mock_requests_total\"].help | length > 0)" out
'

# Twelve non-streaming and six streaming requests while scraping every 50 ms.
test_expect_success 'counters of the last scrape equal the traffic sent' '
	aiperf-scrape --interval 0.05 "$MOCK_URL/metrics" >samples 2>err &
	pid=$! &&
	aiperf-gen -m m --tokenizer builtin --random-seed 7 --isl 20 --osl 5 \
		--request-count 12 2>/dev/null |
		aiperf-send -u "$MOCK_URL" --concurrency 3 >raw &&
	aiperf-gen -m m --tokenizer builtin --random-seed 8 --isl 30 --osl 4 \
		--request-count 6 --streaming 2>/dev/null |
		aiperf-send -u "$MOCK_URL" --concurrency 2 >raw2 &&
	sleep 0.2 && t=$(now_ns) &&
	kill -TERM $pid && wait $pid &&
	test "$(wc -l <samples)" -ge 3 &&
	jq -r ".responses[0].text" raw | jq -s "map(.usage.prompt_tokens) | add" >prompt &&
	jq -r ".responses[0].text" raw | jq -s "map(.usage.completion_tokens) | add" >gen &&
	test "$(cat gen)" -eq 60 &&
	jq "select(.error) | halt_error" samples >/dev/null &&
	tail -1 samples >last &&
	jq -e ".timestamp_ns > $t" last &&
	m=".metrics[\"vllm:prompt_tokens_total\"].series[0].value" &&
	test "$(jq "$m" last)" -gt "$(cat prompt)" &&
	jq -e ".metrics[\"vllm:generation_tokens_total\"].series[0].value == 84" last &&
	jq -e ".metrics[\"vllm:request_success_total\"].series[1].labels.finished_reason == \"length\" and
		.metrics[\"vllm:request_success_total\"].series[1].value == 18" last &&
	jq -e ".metrics[\"vllm:time_to_first_token_seconds\"].series[0].count == 18 and
		.metrics[\"vllm:e2e_request_latency_seconds\"].series[0].buckets[\"+Inf\"] == 18 and
		.metrics[\"vllm:num_requests_running\"].series[0].value == 0" last &&
	jq -e ".metrics[\"aiperf_mock_prompt_tokens_total\"].series[0].value ==
		$(jq "$m" last)" last &&
	test "$(jq -s "[.[].scrape] == [range(1; length + 1)]" samples)" = true
'

test_expect_success 'prompt tokens equal the usage the mock reported' '
	aiperf-scrape --once "$MOCK_URL/metrics" >before &&
	aiperf-gen -m m --tokenizer builtin --random-seed 9 --isl 40 --osl 3 \
		--request-count 5 2>/dev/null |
		aiperf-send -u "$MOCK_URL" --concurrency 2 >raw &&
	aiperf-scrape --once "$MOCK_URL/metrics" >after &&
	m=".metrics[\"vllm:prompt_tokens_total\"].series[0].value" &&
	sent=$(jq -r ".responses[0].text" raw | jq -s "map(.usage.prompt_tokens) | add") &&
	test "$(( $(jq "$m" after) - $(jq "$m" before) ))" -eq "$sent"
'

test_expect_success '--control-fifo: no writer yet is no end; a writer that comes and goes is' '
	test_expect_code 2 aiperf-scrape --control-fifo nofifo "$MOCK_URL/metrics" 2>err &&
	grep -q "nofifo: No such file" err &&
	: >plain && test_expect_code 2 aiperf-scrape --control-fifo plain "$MOCK_URL/metrics" 2>err &&
	grep -q "not a FIFO" err &&
	mkfifo ctl || exit 1
	aiperf-scrape --control-fifo ctl --interval 0.05 "$MOCK_URL/metrics" >fsamples &
	pid=$! &&
	i=0 && while [ "$(wc -l <fsamples)" -lt 4 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done &&
	kill -0 $pid &&
	sleep 0.2 9<>ctl &&
	i=0 && while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done &&
	! kill -0 $pid 2>/dev/null && wait $pid &&
	test "$(wc -l <fsamples)" -ge 5
'

test_expect_success 'EOF of --control-fd stops it after a final scrape, exit 0' '
	{ sleep 0.5; echo bye; } | aiperf-scrape --control-fd 0 --interval 0.05 \
		"$MOCK_URL/metrics" >samples &&
	test "$(wc -l <samples)" -ge 3 &&
	jq "select(.status != 200) | halt_error" samples >/dev/null
'

test_expect_success 'SIGINT stops it the same way' '
	aiperf-scrape --interval 10 "$MOCK_URL/metrics" >samples &
	pid=$! && sleep 0.3 && kill -INT $pid && wait $pid &&
	test "$(wc -l <samples)" -eq 2
'

test_expect_success 'an unreachable endpoint is a warning; the other goes on' '
	aiperf-scrape --interval 0.05 --timeout 0.5 http://127.0.0.1:1/metrics \
		"$MOCK_URL/metrics" >samples 2>err &
	pid=$! && sleep 0.5 && kill -TERM $pid && wait $pid &&
	test "$(grep -c "127.0.0.1:1/" samples)" -ge 3 &&
	test "$(grep -c "$MOCK_URL" samples)" -ge 3 &&
	jq "select(.endpoint_url | test(\":1/\")) |
		select(.error.type != \"ConnectionError\" or has(\"status\")) | halt_error" \
		samples >/dev/null &&
	test "$(grep -c "warning: scrape of .http://127.0.0.1:1/metrics. failed" err)" -eq 1
'

test_expect_success '--max-body: a larger exposition is an error record' '
	aiperf-scrape --once --max-body 1024 "$MOCK_URL/metrics" >out 2>err &&
	jq -e ".error.type == \"ResponseTooLargeError\" and .bytes <= 1024" out
'

restart_mock --fast --status 500
test_expect_success 'a /metrics answering 500 is a warning; scraping goes on' '
	aiperf-scrape --interval 0.05 "$MOCK_URL/metrics" >samples 2>err &
	pid=$! && sleep 0.5 && kill -TERM $pid && wait $pid &&
	test "$(wc -l <samples)" -ge 3 &&
	jq "select(.status != 500 or .error.type != \"HTTPError\") | halt_error" \
		samples >/dev/null &&
	test "$(grep -c warning err)" -eq 1
'

test_expect_success 'a /metrics that stalls times out; scraping goes on' '
	start_staller 20 && spid=$STALL_PID &&
	url="http://127.0.0.1:$STALL_PORT/metrics" &&
	start=$(now_ns)
	aiperf-scrape --interval 0.05 --timeout 0.2 "$url" >samples 2>err &
	pid=$! && sleep 1 && kill -TERM $pid && wait $pid &&
	end=$(now_ns) && kill $spid &&
	test "$(wc -l <samples)" -ge 3 &&
	jq "select(.error.type != \"RequestTimeoutError\") | halt_error" samples >/dev/null &&
	test $(( (end - start) / 1000000 )) -lt 3000 &&
	grep -q "RequestTimeoutError" err
'

restart_mock --fast --dcgm
test_expect_success '--dcgm: the mock as a DCGM exporter, parsed' '
	aiperf-scrape --once "$MOCK_URL/metrics" >out &&
	jq -e ".metrics | keys | index(\"vllm:prompt_tokens_total\") == null" out &&
	p=".metrics.DCGM_FI_DEV_POWER_USAGE" &&
	jq -e "$p.type == \"gauge\" and ($p.series | length) == 2 and
		$p.series[1].labels.gpu == \"1\" and
		$p.series[0].labels.modelName == \"NVIDIA H200\" and
		$p.series[0].labels.Hostname == \"localhost\" and
		($p.series[0].labels.UUID | startswith(\"GPU-\")) and
		$p.series[0].value == 70" out &&
	jq -e ".metrics.DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION.type == \"counter\" and
		.metrics.DCGM_FI_DEV_FB_USED.series[0].value == 20000 and
		.metrics.DCGM_FI_DEV_GPU_UTIL.series[0].value == 0" out
'

restart_mock --dcgm-gpus 3 --output-tokens 5 --itl-ms 1 --ttft-ms 1500
test_expect_success '--dcgm-gpus: GPU values follow the traffic in flight' '
	curl -s -d "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}" \
		"$MOCK_URL/v1/chat/completions" >/dev/null &
	cpid=$! && i=0 &&
	until aiperf-scrape --once "$MOCK_URL/metrics" >out &&
		jq -e ".metrics.DCGM_FI_DEV_GPU_UTIL.series[0].value == 10" out >/dev/null ||
		[ $i -ge 20 ]; do sleep 0.05; i=$((i + 1)); done &&
	wait $cpid &&
	jq -e ".metrics.DCGM_FI_DEV_GPU_UTIL.series | length == 3 and .[2].value == 10" out &&
	jq -e ".metrics.DCGM_FI_DEV_POWER_USAGE.series[0].value == 100" out
'

test_done
