#!/bin/sh
# run.sh: long
# Server metrics (issue #15): aiperf-export --server-samples over the
# profiling window against the traffic aiperf-mock served, and aiperf
# profile's scraper: on by default, failing endpoints a warning, off with
# --no-server-metrics, the formats.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 3 --itl-ms 1

# Warmup, a quiet gap the scraper sees, then profiling: the window's
# reference scrape falls in the gap, so the counters are exact.
test_expect_success 'counters over the profiling window equal the profiling traffic' '
	aiperf-gen -m m --tokenizer builtin --random-seed 7 --isl 20 --osl 5 \
		--request-count 12 --warmup-request-count 5 2>/dev/null >req &&
	grep "\"phase\":\"warmup\"" req >warm && grep -v "\"phase\":\"warmup\"" req >prof &&
	test "$(wc -l <warm)" -eq 5 && test "$(wc -l <prof)" -eq 12 || exit 1
	aiperf-scrape --interval 0.05 "$MOCK_URL/metrics" >samples 2>/dev/null &
	pid=$! &&
	sleep 0.2 &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 <warm >raw-w &&
	sleep 0.3 &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 <prof >raw-p &&
	sleep 0.2 && kill -TERM $pid && wait $pid &&
	cat raw-w raw-p | aiperf-metrics 2>/dev/null >records &&
	aiperf-export --no-console --artifact-dir out --server-samples samples \
		--server-metrics-formats json,csv,jsonl <records &&
	J=out/server_metrics_export.json &&
	jq -e "[.metrics[\"vllm:request_success_total\"].series[].stats.total] | add == 12" $J &&
	jq -r ".responses[0].text" raw-p | jq -s "map(.usage.completion_tokens) | add" >gen &&
	jq -r ".responses[0].text" raw-p | jq -s "map(.usage.prompt_tokens) | add" >prompt &&
	jq -e ".metrics[\"vllm:generation_tokens_total\"].series[0].stats.total == $(cat gen)" $J &&
	jq -e ".metrics[\"vllm:prompt_tokens_total\"].series[0].stats.total == $(cat prompt)" $J &&
	jq -e ".metrics[\"vllm:e2e_request_latency_seconds\"].series[0].stats.count == 12 and
		.metrics[\"vllm:e2e_request_latency_seconds\"].series[0].buckets[\"+Inf\"] == 12" $J
'

test_expect_success 'histogram percentiles within one bucket of the client side' '
	J=out/server_metrics_export.json &&
	jq -r "select(.metadata.benchmark_phase == \"profiling\") | .metrics.request_latency.value" \
		records >lat &&
	python3 - "$J" lat <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	lat = sorted(float(x) / 1e3 for x in open(sys.argv[2]))
	s = d["metrics"]["vllm:e2e_request_latency_seconds"]["series"][0]
	les = [float(k) for k in s["buckets"] if k != "+Inf"]
	def bucket(v):
	    return next((i for i, le in enumerate(les) if v <= le), len(les))
	for p, q in (("p50", 0.5), ("p90", 0.9)):
	    truth = lat[min(len(lat) - 1, int(q * (len(lat) - 1) + 0.5))]
	    est = s["stats"][p + "_estimate"]
	    assert abs(bucket(est) - bucket(truth)) <= 1, (p, est, truth)
	EOF
'

test_expect_success 'the JSON has the schema, the CSV its sections, the JSONL every scrape' '
	J=out/server_metrics_export.json &&
	jq -e "keys_unsorted == [\"schema_version\", \"aiperf_version\", \"benchmark_id\",
		\"summary\", \"metrics\"] and .schema_version == \"1.0\" and
		(.summary | keys_unsorted == [\"endpoints_configured\", \"endpoints_successful\",
			\"start_time\", \"end_time\", \"endpoint_info\"]) and
		(.summary.endpoint_info[] | keys_unsorted == [\"total_fetches\", \"first_fetch_ns\",
			\"last_fetch_ns\", \"avg_fetch_latency_ms\", \"unique_updates\",
			\"first_update_ns\", \"last_update_ns\", \"duration_seconds\",
			\"avg_update_interval_ms\", \"median_update_interval_ms\"]) and
		all(.metrics[]; (.type | IN(\"gauge\", \"counter\", \"histogram\")) and
			(keys_unsorted[:2] == [\"type\", \"description\"]) and
			all(.series[]; .endpoint_url != null and .stats != null)) and
		(.metrics[\"vllm:num_requests_running\"].series[0].stats | keys_unsorted ==
			[\"avg\", \"min\", \"max\", \"std\", \"p1\", \"p5\", \"p10\", \"p25\", \"p50\",
			 \"p75\", \"p90\", \"p95\", \"p99\"])" $J &&
	grep -c "^Endpoint,Type,Metric,Unit," out/server_metrics_export.csv >n &&
	test "$(cat n)" -eq 3 &&
	grep -q "^Endpoint,Type,Metric,Unit,count,count_rate,sum,sum_rate,avg,p1_estimate" \
		out/server_metrics_export.csv &&
	test "$(wc -l <out/server_metrics_export.jsonl)" -eq "$(jq -s "map(select(.metrics)) | length" samples)" &&
	jq -e "has(\"endpoint_url\") and has(\"timestamp_ns\") and
		(.metrics[\"vllm:request_success_total\"] | type == \"array\")" \
		out/server_metrics_export.jsonl >/dev/null &&
	aiperf-export --list-files --artifact-dir /a --server-samples x --server-metrics-formats jsonl >got &&
	grep -q "^server_jsonl	/a/server_metrics_export.jsonl$" got &&
	grep -q "^other	/a/server_metrics_export.json$" got
'

test_expect_success 'hostile sample lines are skipped with a warning; the client artifacts are written' '
	{ head -2 samples; echo "not json"; echo "{\"endpoint_url\": \"u\", \"timestamp_ns\": 5, \"metrics\": {\"x\": 1}}";
		echo "[1]"; tail -n +3 samples; } >hostile &&
	aiperf-export --no-console --artifact-dir hz --server-samples hostile <records 2>err &&
	grep -q "server metrics: hostile:3: .*; such lines are skipped" err &&
	grep -q "server metrics: 3 lines of .hostile. skipped" err &&
	test -s hz/profile_export_aiperf.json &&
	jq -e "[.metrics[\"vllm:request_success_total\"].series[].stats.total] | add == 12" \
		hz/server_metrics_export.json
'

test_expect_success 'parquet is refused with a message, the other formats are written' '
	aiperf-export --no-console --artifact-dir pq --server-samples samples \
		--server-metrics-formats "parquet csv" <records 2>err &&
	grep -q "parquet is not available in this build" err &&
	test -f pq/server_metrics_export.csv && ! test -e pq/server_metrics_export.json &&
	test_expect_code 2 aiperf-export --check --server-metrics-formats xml 2>err &&
	grep -q "invalid value for --server-metrics-formats" err
'

P="-m m --tokenizer builtin --url $MOCK_URL --request-count 8 --warmup-request-count 2 --concurrency 2 --ui-type none"

test_expect_success 'aiperf profile scrapes by default; an unreachable endpoint is a warning' '
	aiperf profile $P --artifact-dir run1 --server-metrics 127.0.0.1:1 \
		--server-metrics-formats jsonl csv >out1 2>err1 &&
	grep -q "server metrics: .*127.0.0.1:1/metrics" err1 &&
	grep -q "WARNING - server metrics" run1/logs/aiperf.log &&
	test -f run1/server_metrics_export.jsonl && test -f run1/server_metrics_export.csv &&
	! test -e run1/server_metrics_export.json &&
	aiperf profile $P --artifact-dir run1b --request-rate 50 >out1b 2>&1 &&
	jq -e ".summary.endpoints_configured == [\"$MOCK_URL/metrics\"] and
		([.metrics[\"vllm:request_success_total\"].series[].stats.total] | add == 8)" \
		run1b/server_metrics_export.json &&
	jq -e ".client.scraper | .scrapes >= 1 and .cpu_us_per_scrape > 0 and
		.cpu_us_per_scrape_max >= .cpu_us_per_scrape and
		(.schedule_lateness_ms_during_scrapes.p99 // 0) >= 0 and
		.schedule_lateness_ms_otherwise.p99 >= 0" run1b/profile_export_aiperf.json &&
	grep -q "^Server Metrics Scraper CPU per Scrape (us): avg [0-9.]*, max [0-9.]* ([0-9]* scrapes)\$" out1b
'

test_expect_success '--no-server-metrics: no scraper, no server files' '
	aiperf profile $P --artifact-dir run2 --no-server-metrics -v >/dev/null 2>&1 &&
	! ls run2 | grep -q server_metrics &&
	! grep -q "server metrics from" run2/logs/aiperf.log
'

test_expect_success 'an extra /metrics that answers 500 or stalls: warnings, bounded time' '
	url=$MOCK_URL pid=$MOCK_PID &&
	start_mock --fast --status 500 && bad=$MOCK_URL bpid=$MOCK_PID && MOCK_PID=$pid || exit 1
	start_staller 40 && spid=$STALL_PID &&
	t0=$(date +%s) &&
	aiperf profile $P --artifact-dir run3 --server-metrics "$bad/metrics" \
		"http://127.0.0.1:$STALL_PORT/metrics" >/dev/null 2>err3 &&
	t1=$(date +%s) && kill $spid $bpid &&
	test $((t1 - t0)) -lt 25 &&
	grep -q "server metrics: .*HTTPError" err3 &&
	grep -q "server metrics: .*RequestTimeoutError" err3 &&
	jq -e ".summary.endpoints_successful == [\"$url/metrics\"]" run3/server_metrics_export.json
'

# scraper: the pid of this test's aiperf profile scraper (its session's
# aiperf-scrape with a control FIFO).
scraper() {
	ps -o pid=,args= -s "$(ps -o sid= -p $$ | tr -d " ")" |
		awk '$2 == "aiperf-scrape" && /--control-fifo/ { print $1; f = 1; exit } END { exit !f }'
}

test_expect_success 'aiperf profile killed outright: its scraper ends when the sender does, the artifacts are written' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --osl 5 --concurrency 2 \
		--request-count 200 --artifact-dir k >/dev/null 2>&1 &
	w=$! &&
	sid=$(ps -o sid= -p $$ | tr -d " ") &&
	# The scraper starts before the pipeline: killing the wrapper then
	# leaves nothing to measure, so wait for the sender too.
	i=0 && until { scraper >/dev/null &&
		ps -o args= -s "$sid" | grep -q "^aiperf-send"; } || [ $i -ge 200 ]
	do sleep 0.05; i=$((i + 1)); done &&
	s=$(scraper) &&
	kill -KILL $w &&
	i=0 && while kill -0 "$s" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done &&
	! kill -0 "$s" 2>/dev/null &&
	i=0 && while ps -o stat=,args= -s "$sid" | grep -q "^[^Z].*aiperf-\(metrics\|export\)" &&
		[ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done &&
	jq -e ".request_count.avg == 200" k/profile_export_aiperf.json >/dev/null &&
	test -s k/server_metrics_export.json
'

test_done
