#!/bin/sh
# aiperf-send: usage, flags, N requests in -> N raw records out, headers.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

test_expect_success 'help prints the usage and exits 0' '
	aiperf-send --help >out &&
	grep -q "^usage: aiperf-send" out
'
test_expect_success 'version' '
	aiperf-send --version | grep -q "^aiperf-send [0-9]"
'
test_expect_success 'bad flags exit 2' '
	for args in "--bogus" "--concurrency 0" "--concurrency x" "-H nocolon" \
		"--ui-type fancy" "--benchmark-grace-period 5" "--max-response-bytes 5q" \
		"--request-timeout-seconds -1" "extra"; do
		# shellcheck disable=SC2086
		test_expect_code 2 aiperf-send $args </dev/null >out 2>err || { echo "$args"; exit 1; }
		test ! -s out || exit 1
		grep -q "^aiperf-send: " err || grep -q "^usage: " err || exit 1
	done
'
test_expect_success 'grace period without duration: the original message' '
	! aiperf-send --benchmark-grace-period 5 </dev/null 2>err &&
	grep -q "can only be used with duration-based benchmarking (--benchmark-duration)" err
'
test_expect_success 'empty input gives no records' '
	aiperf-send -u 127.0.0.1:9 </dev/null >out && test ! -s out
'

start_mock --ttft-ms 1 --itl-ms 1

test_expect_success 'streaming: 20 in, 20 out, all 200 with SSE messages' '
	reqs 20 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 4 <in >out &&
	test "$(wc -l <out)" -eq 20 &&
	test "$(count "\"status\":200" out)" -eq 20 &&
	test "$(count "\"error\"" out)" -eq 0 &&
	test "$(count "\"value\":\"[DONE]\"" out)" -eq 20 &&
	test "$(count "\"server_stamps\":[" out)" -eq 20 &&
	for i in $(seq 0 19); do
		grep -q "\"x_request_id\":\"req_$(printf %06d "$i")\"" out || exit 1
	done
'
test_expect_success '--busy-poll: the same records, every request answered' '
	reqs 12 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 4 --busy-poll <in >bp &&
	test "$(wc -l <bp)" -eq 12 &&
	test "$(count "\"status\":200" bp)" -eq 12 &&
	test "$(count "\"value\":\"[DONE]\"" bp)" -eq 12
'
test_expect_success 'records are valid JSON with the contract key order' '
	python3 -c "
import json, sys
keys = None
for line in open(\"out\"):
    r = json.loads(line)
    k = list(r)
    assert k == [\"metadata\", \"start_perf_ns\", \"payload\", \"request_headers\", \"status\", \"responses\", \"aiperf\"], k
    m = r[\"metadata\"]
    assert list(m) == [\"session_num\", \"x_request_id\", \"x_correlation_id\", \"conversation_id\", \"turn_index\", \"credit_issued_ns\", \"request_start_ns\", \"request_ack_ns\", \"request_end_ns\", \"worker_id\", \"record_processor_id\", \"benchmark_phase\", \"was_cancelled\"], list(m)
    a = r[\"aiperf\"]
    assert a[\"schema\"] == \"aiperf.raw/1\" and a[\"stream\"] is True
    assert r[\"start_perf_ns\"] <= a[\"recv_start_perf_ns\"] <= r[\"responses\"][0][\"perf_ns\"] <= a[\"end_perf_ns\"]
    assert len(r[\"responses\"]) == 5 and len(a[\"server_stamps\"]) == 4
    assert m[\"request_start_ns\"] <= m[\"request_ack_ns\"] <= m[\"request_end_ns\"]
    assert list(a[\"http\"]) == [\"dns_ns\", \"connect_ns\", \"tls_ns\", \"ttfb_ns\", \"total_ns\", \"bytes_sent\", \"bytes_received\", \"reused\", \"http_version\"]
    assert a[\"http\"][\"http_version\"] == \"1.1\"
"
'
test_expect_success 'non-streaming: one text response per record' '
	reqs 10 false >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 <in >out &&
	test "$(wc -l <out)" -eq 10 &&
	test "$(count "\"content_type\":\"application/json\"" out)" -eq 10 &&
	test "$(count "\"Accept\":\"application/json\"" out)" -eq 10
'
test_expect_success 'connections are reused (pooled) and not with --connection-reuse-strategy never' '
	reqs 10 false >in &&
	aiperf-send -u "$MOCK_URL" <in >out &&
	test "$(count "\"reused\":true" out)" -eq 9 &&
	aiperf-send -u "$MOCK_URL" --connection-reuse-strategy never <in >out &&
	test "$(count "\"reused\":true" out)" -eq 0
'
test_expect_success 'payload numbers pass through exactly' '
	printf "%s\n" "{\"id\":\"r1\",\"path\":\"/v1/chat/completions\",\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"temperature\":0.10000000000000001,\"seed\":123456789012345678901,\"max_tokens\":2}}" >in &&
	aiperf-send -u "$MOCK_URL" <in >out &&
	grep -q "\"temperature\":0.10000000000000001,\"seed\":123456789012345678901" out
'
test_expect_success 'api key and secret headers are redacted' '
	reqs 2 >in &&
	aiperf-send -u "$MOCK_URL" --api-key sekrit -H "X-Api-Key: abc123" \
		-H "X-Custom: visible" <in >out &&
	! grep -q "sekrit\|abc123" out &&
	test "$(count "\"Authorization\":\"<redacted>\"" out)" -eq 2 &&
	test "$(count "\"X-Api-Key\":\"<redacted>\"" out)" -eq 2 &&
	test "$(count "\"X-Custom\":\"visible\"" out)" -eq 2
'
test_expect_success 'url: scheme added, trailing slash and doubled v1 dropped' '
	reqs 1 >in &&
	host=${MOCK_URL#http://} &&
	aiperf-send -u "$host/v1/" <in >out &&
	grep -q "\"url\":\"http://$host/v1/chat/completions\"" out &&
	test "$(count "\"status\":200" out)" -eq 1
'
test_expect_success 'endpoint overrides the record path' '
	reqs 1 >in &&
	aiperf-send -u "$MOCK_URL" --endpoint v1/completions <in >out &&
	grep -q "\"url\":\"$MOCK_URL/v1/completions\"" out
'
test_expect_success 'several urls: round robin per session, query kept' '
	reqs 4 >in &&
	aiperf-send -u "$MOCK_URL" -u "$MOCK_URL/?x=1" <in >out &&
	test "$(count "\"url\":\"$MOCK_URL/v1/chat/completions?x=1\"" out)" -eq 2 &&
	test "$(count "\"url\":\"$MOCK_URL/v1/chat/completions\"" out)" -eq 2
'
test_expect_success 'warmup records go first and stay marked' '
	{ reqs 3 | sed "s/\"profiling\"/\"warmup\"/"; reqs 3; } >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 <in >out &&
	test "$(count "\"benchmark_phase\":\"warmup\"" out)" -eq 3 &&
	test "$(head -3 out | grep -c -F "\"benchmark_phase\":\"warmup\"")" -eq 3
'
test_expect_success 'at_ns: no request starts before its intended time' '
	reqs 5 false "" | awk "{ sub(/\"max_tokens\":4/, \"\\\"max_tokens\\\":4,\\\"at_ns\\\":\" NR * 20000000); print }" >in &&
	aiperf-send -u "$MOCK_URL" <in >out &&
	python3 -c "
import json
for l in open(\"out\"):
    r = json.loads(l)
    assert r[\"start_perf_ns\"] >= r[\"aiperf\"][\"intended_perf_ns\"], r
"
'
test_expect_success 'unbuffered output and blank input lines' '
	{ reqs 1; echo; reqs 1; } >in &&
	aiperf-send --unbuffered -u "$MOCK_URL" <in >out &&
	test "$(wc -l <out)" -eq 2
'
test_done
