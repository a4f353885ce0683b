#!/bin/sh
# Server metrics exact through aiperf profile (issue #15): the sender cues
# the scrapers once the warmup has drained and waits for their scrape
# (aiperf-send --scrape-cue, aiperf-scrape --cue-fifo), which is then the
# profiling window's reference; without scrapers it waits for nothing, a
# scraper that never answers costs 2 s at most.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# No GPU telemetry from whatever listens on the default DCGM ports.
export AIPERF_GPU_DEFAULT_DCGM_URLS=

start_mock --dcgm --dcgm-gpus 2
DCGM_URL=$MOCK_URL
DCGM_PID=$MOCK_PID
trap 'kill "$DCGM_PID" 2>/dev/null; cleanup' EXIT
start_mock --ttft-ms 20 --itl-ms 2

# exact DIR: the server's counters over the profiling window in DIR equal
# what the client counted, the histograms' counts its request count.
exact() {
	J=$1/server_metrics_export.json C=$1/profile_export_aiperf.json
	n=$(jq ".request_count.avg" "$C") || exit 1
	if ! jq -e --argjson n "$n" --slurpfile c "$C" '
		def total(m): [.metrics[m].series[].stats.total] | add;
		def hcount(m): [.metrics[m].series[].stats.count] | add;
		total("vllm:request_success_total") == $n and
		total("vllm:prompt_tokens_total") == $c[0].total_usage_prompt_tokens.avg and
		total("vllm:generation_tokens_total") == $c[0].total_usage_completion_tokens.avg and
		hcount("vllm:time_to_first_token_seconds") == $n and
		hcount("vllm:e2e_request_latency_seconds") == $n' "$J"; then
		jq -c '.metrics | with_entries(select(.key | test("total$"))) |
			map_values([.series[].stats.total])' "$J"
		exit 1
	fi
}

P="-m m --tokenizer builtin --url $MOCK_URL --osl 6 --ui-type none -v"

# The warmup's last requests end a few ms before profiling starts, long
# after the scrape before them (every 0.333 s): without the cue that scrape
# was the reference and the totals took in warmup requests.
test_expect_success 'with warmup in flight at the boundary the counters are exact' '
	for i in 1 2 3; do
		aiperf profile $P --request-count 24 --warmup-request-count 9 \
			--concurrency $((i + 2)) --artifact-dir r$i >out 2>err ||
			{ cat err; exit 1; }
		exact r$i
		grep -q "aiperf-send - INFO - scrapers cued: 1 of 1 acknowledged" r$i/logs/aiperf.log
		! grep -q "did not acknowledge" err
	done
'

test_expect_success 'streaming, warmup concurrency above the profiling one: exact' '
	aiperf profile $P --streaming --request-count 20 --warmup-request-count 12 \
		--warmup-concurrency 6 --concurrency 2 --use-server-token-count \
		--artifact-dir s >out 2>err || { cat err; exit 1; }
	exact s
'

test_expect_success 'GPU telemetry too: each scraper has its cue, both acknowledge' '
	aiperf profile $P --request-count 16 --warmup-request-count 6 --concurrency 4 \
		--gpu-telemetry "$DCGM_URL" --artifact-dir g >out 2>err || { cat err; exit 1; }
	exact g &&
	grep -q "aiperf-send - INFO - scrapers cued: 2 of 2 acknowledged" g/logs/aiperf.log &&
	test -s g/gpu_telemetry_export.jsonl
'

test_expect_success 'no warmup: no cue, the baseline scrape is the reference' '
	aiperf profile $P --request-count 10 --concurrency 3 --artifact-dir nw >out 2>err &&
	exact nw &&
	grep -q "aiperf-send --url.* --scrape-cue " nw/logs/aiperf.log &&
	! grep -q "scrapers cued" nw/logs/aiperf.log
'

test_expect_success '--no-server-metrics: the sender is given no cue and waits for none' '
	aiperf profile $P --request-count 10 --warmup-request-count 4 --concurrency 3 \
		--no-server-metrics --artifact-dir ns >out 2>err &&
	test "$(jq .request_count.avg ns/profile_export_aiperf.json)" = 10 &&
	grep -q "aiperf-send - DEBUG - command line: aiperf-send " ns/logs/aiperf.log &&
	! grep -q -- "--scrape-cue" ns/logs/aiperf.log &&
	! grep -q "scrapers cued" ns/logs/aiperf.log &&
	! ls ns | grep -q server_metrics
'

test_expect_success 'aiperf-send: the cue options go together; a FIFO nobody reads is not waited for' '
	test_expect_code 2 aiperf-send --scrape-cue x </dev/null 2>err &&
	grep -q "scrape-cue and --scrape-ack go together" err &&
	test_expect_code 2 aiperf-scrape --cue-fifo x http://127.0.0.1:1/ 2>err &&
	grep -q "cue-fifo and --ack-fifo go together" err &&
	mkfifo lone ack &&
	aiperf-gen -m m --tokenizer builtin --isl 10 --osl 3 --request-count 4 \
		--warmup-request-count 2 2>/dev/null >req &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 --scrape-cue lone --scrape-ack ack \
		<req >raw 2>err &&
	test "$(wc -l <raw)" -eq 6 &&
	grep -q "no scraper reads .lone.: not cued" err &&
	! grep -q "did not acknowledge" err
'

# gap RAW: seconds from the last warmup response to the first profiling
# request in aiperf-send's raw records.
gap() {
	jq -s 'map(.metadata) | (map(select(.benchmark_phase == "profiling") |
		.request_start_ns) | min) - (map(select(.benchmark_phase == "warmup") |
		.request_end_ns) | max) | . / 1e9' "$1"
}

# first RAW PHASE FIELD: FIELD's least (profiling) or greatest (warmup)
# value in PHASE's raw records.
first() {
	jq -s --arg p "$2" --arg f "$3" 'map(.metadata | select(.benchmark_phase == $p) |
		.[$f]) | if $p == "warmup" then max else min end' "$1"
}

test_expect_success 'a scraper stalled on an endpoint: profiling waits 2 s, warns, the live endpoint stays exact' '
	start_staller 30 && spid=$STALL_PID
	rm -f cue ack && mkfifo cue ack &&
	aiperf-scrape --timeout 20 --interval 0.1 --unbuffered --cue-fifo cue --ack-fifo ack \
		"$MOCK_URL/metrics" "http://127.0.0.1:$STALL_PORT/metrics" >samples 2>/dev/null &
	scr=$!
	aiperf-gen -m m --tokenizer builtin --isl 10 --osl 3 --request-count 6 \
		--warmup-request-count 4 2>/dev/null >req &&
	sleep 0.3 &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 --scrape-cue cue --scrape-ack ack \
		<req >raw 2>err
	rc=$?
	kill -KILL $scr
	kill $spid
	wait $scr 2>/dev/null || :
	test $rc -eq 0 &&
	grep -q "1 of 1 scrapers did not acknowledge the cue within 2 s" err &&
	g=$(gap raw) &&
	echo "gap $g s" &&
	jq -n -e "$g >= 1.9 and $g < 5" &&
	# the live endpoint answered its cued scrape before profiling began
	start=$(first raw profiling request_start_ns) &&
	jq -s -e --argjson t "$start" --arg u "$MOCK_URL/metrics" "map(select(.cue and
		.endpoint_url == \$u and .error == null and .timestamp_ns < \$t)) | length == 1" samples
'

test_expect_success 'a scraper that answers: the cued sample precedes profiling and is marked' '
	rm -f cue ack && mkfifo cue ack &&
	aiperf-scrape --interval 0.1 --cue-fifo cue --ack-fifo ack "$MOCK_URL/metrics" \
		>samples 2>serr &
	scr=$!
	sleep 0.3 &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 --scrape-cue cue --scrape-ack ack \
		<req >raw 2>err
	rc=$?
	kill $scr
	wait $scr
	test $rc -eq 0 && ! test -s err &&
	start=$(first raw profiling request_start_ns) &&
	last=$(first raw warmup request_end_ns) &&
	jq -s -e --argjson t "$start" --argjson w "$last" "map(select(.cue)) |
		length == 1 and .[0].timestamp_ns < \$t and .[0].request_sent_ns > \$w" samples
'

test_done
