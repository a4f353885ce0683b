#!/bin/sh
# aiperf-scrape over HTTP on real and hostile expositions (a static file
# server): real servers' samples parse, a broken one is a ParseError record,
# an oversized one stops at --max-body, and polling goes on through them.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/www"
cp "$TOP/tests/data/prometheus/vllm-v0.txt" "$TMP/www/vllm"
cp "$TOP/tests/data/prometheus/dcgm-exporter.txt" "$TMP/www/dcgm"
cp "$TOP/tests/data/prometheus/tgi.txt" "$TMP/www/tgi"
printf 'ok 1\nbad{x="a\\tb"} 2\n' >"$TMP/www/bad-escape"
printf 'a{x="1"} 1\nb 2\na{x="2"} 3\n' >"$TMP/www/interleaved"
printf '# TYPE h histogram\nh 1\ng{a="1"} 2\ng{a="1"} 3\n' >"$TMP/www/wrong-type"
# 20 MiB of samples: past the default --max-body
python3 -c '
import sys
line = b"x{i=\"0123456789\"} 1\n"
sys.stdout.buffer.write(line * (20 * 1024 * 1024 // len(line) + 1))
' >"$TMP/www/big"

start_http_dir "$TMP/www" || exit 1

test_expect_success 'vLLM and DCGM exporter samples parse over HTTP' '
	aiperf-scrape --once "$URL/vllm" "$URL/dcgm" >out &&
	test "$(wc -l <out)" -eq 2 &&
	jq -e -s ".[] | select(.endpoint_url | endswith(\"/vllm\")) |
		.status == 200 and (.metrics | length) == 19 and
		.metrics[\"vllm:e2e_request_latency_seconds\"].series[0].buckets[\"+Inf\"] == 1 and
		.metrics[\"vllm:e2e_request_latency_seconds\"].series[0].sum == 0.5034303665161133 and
		.metrics[\"vllm:cache_config_info\"].series[0].labels.num_gpu_blocks == \"7281\"" out &&
	jq -e -s ".[] | select(.endpoint_url | endswith(\"/dcgm\")) |
		.metrics.DCGM_FI_DEV_POWER_USAGE.series[0].value == 8.969 and
		.metrics.DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION.type == \"counter\"" out
'

test_expect_success 'a summary is a warning in the record, the rest is kept' '
	aiperf-scrape --once "$URL/tgi" >out &&
	jq -e ".warning_count == 1 and (.warnings[0] | test(\"summary\")) and
		(.metrics | has(\"tgi_request_skipped_tokens\") | not) and
		.metrics.tgi_request_inference_duration.series[0].count == 109" out
'

test_expect_success 'a bad escape is a ParseError naming the line' '
	aiperf-scrape --once "$URL/bad-escape" >out 2>err &&
	jq -e ".status == 200 and .error.type == \"ParseError\" and
		(.error.message | test(\"line 2: bad escape\")) and (has(\"metrics\") | not)" out &&
	grep -q "ParseError" err
'

test_expect_success 'wrong types and duplicate series are warnings' '
	aiperf-scrape --once "$URL/wrong-type" >out &&
	jq -e ".warning_count == 2 and (.metrics | length) == 1 and .metrics.g.series[0].value == 2" out
'

test_expect_success 'series of a family in two runs of lines are one family' '
	aiperf-scrape --once "$URL/interleaved" >out &&
	jq -e "(.metrics | keys_unsorted) == [\"a\", \"b\"] and
		[.metrics.a.series[].value] == [1, 3]" out
'

test_expect_success 'a 20 MiB exposition stops at --max-body; polling goes on' '
	aiperf-scrape --interval 0.05 "$URL/big" "$URL/vllm" >out 2>err &
	pid=$! && sleep 1 && kill -TERM $pid && wait $pid &&
	jq -e -s ".[] | select(.endpoint_url | endswith(\"/big\")) |
		.error.type == \"ResponseTooLargeError\" and .bytes <= 16777216" out >/dev/null &&
	test "$(grep -c "/vllm\"" out)" -ge 3 &&
	test "$(grep -c warning err)" -eq 1
'

test_done
