#!/bin/sh
# The original's --export-http-trace end to end (issue #11): aiperf-send
# always writes the HTTP timing breakdown (aiperf.http) on both engines, so
# the option needs only aiperf-metrics --export-http-trace, which puts it in
# each metric record's trace_data; aiperf-export copies those lines into
# profile_export.jsonl as they are.
# shellcheck disable=SC1091,SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

start_mock --ttft-ms 1 --itl-ms 1
reqs 3 true >"$TMP/in"
reqs 2 false >>"$TMP/in"

# The keys of every trace_data, one line per record.
tkeys='.trace_data | keys_unsorted | join(",")'
twant=trace_type,dns_ns,connect_ns,tls_ns,ttfb_ns,total_ns,bytes_sent,bytes_received,reused,http_version

for engine in h1 curl; do
test_expect_success "$engine: send | metrics --export-http-trace gives every record trace_data" '
	aiperf-send --http-engine '"$engine"' -u "$MOCK_URL" --concurrency 2 <in >raw &&
	aiperf-metrics --tokenizer builtin --export-http-trace <raw >met &&
	test "$(wc -l <met)" -eq 5 &&
	test "$(jq -r "$tkeys" met | sort -u)" = "$twant" &&
	jq -e ".trace_data | .trace_type == \"curl\" and .total_ns > 0 and .bytes_sent > 0 and .bytes_received > 0 and .http_version == \"1.1\"" met >/dev/null &&
	jq -e ".metrics.http_req_duration.value > 0" met >/dev/null &&
	aiperf-metrics --tokenizer builtin --export-http-trace --threads 2 <raw >met2 &&
	cmp met met2
'
done

test_expect_success 'the key comes after metrics and before error, as in the original' '
	jq -c "keys_unsorted" met | sort -u >got &&
	echo "[\"metadata\",\"metrics\",\"trace_data\",\"aiperf\"]" >want &&
	test_cmp want got
'

test_expect_success 'without the option no record has trace_data; the http_req metrics stay' '
	aiperf-metrics --tokenizer builtin <raw >plain &&
	! grep -q trace_data plain &&
	jq -e ".metrics.http_req_total.value > 0" plain >/dev/null
'

test_expect_success 'export copies trace_data into profile_export.jsonl' '
	aiperf-export --artifact-dir art --show-trace-timing <met >out &&
	cmp met art/profile_export.jsonl &&
	grep -q "NVIDIA AIPerf | HTTP Trace Timing" out
'

test_expect_success 'a failed request keeps its trace_data (no http_version: no response) beside its error' '
	aiperf-send -u http://127.0.0.1:1 <in >rawbad 2>/dev/null &&
	aiperf-metrics --tokenizer builtin --export-http-trace <rawbad >metbad &&
	test "$(jq -r "$tkeys" metbad | sort -u)" = "${twant%,http_version}" &&
	test "$(jq -c "keys_unsorted" metbad | sort -u)" = "[\"metadata\",\"metrics\",\"trace_data\",\"error\",\"aiperf\"]"
'

test_done
