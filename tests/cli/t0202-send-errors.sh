#!/bin/sh
# aiperf-send: failed requests are records: HTTP errors, dead servers, broken
# shellcheck disable=SC1091,SC2016
# streams, timeouts, cancellation, SSE errors, oversized responses, bad input.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
CANNED_PID=
trap 'stop_canned; cleanup' EXIT

start_mock --status 500

test_expect_success 'HTTP 500: code, reason phrase, body, no responses' '
	reqs 6 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 <in >out &&
	test "$(wc -l <out)" -eq 6 &&
	test "$(count "\"status\":500,\"responses\":[],\"error\":{\"code\":500,\"type\":\"Internal Server Error\",\"message\":\"" out)" -eq 6
'
stop_mock

test_expect_success 'server gone: every request a ConnectionError record' '
	reqs 5 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 <in >out &&
	test "$(wc -l <out)" -eq 5 &&
	test "$(count "\"type\":\"ConnectionError\"" out)" -eq 5 &&
	! grep -q "\"status\"" out
'

start_mock --ttft-ms 1 --itl-ms 1 --fail-after 2
test_expect_success 'mid-stream disconnect: error record keeps the messages so far' '
	reqs 4 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 <in >out &&
	test "$(wc -l <out)" -eq 4 &&
	test "$(count "\"type\":\"ConnectionError\"" out)" -eq 4 &&
	test "$(count "\"packets\"" out)" -eq 4
'
stop_mock

start_mock --stall-ms 3000
test_expect_success 'timeout: RequestTimeoutError' '
	reqs 3 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 --request-timeout-seconds 0.2 <in >out &&
	test "$(wc -l <out)" -eq 3 &&
	test "$(count "\"type\":\"RequestTimeoutError\",\"message\":\"Request timed out after 0.200s\"" out)" -eq 3
'
test_expect_success 'cancel_after_ns: 499 RequestCancellationError, was_cancelled' '
	reqs 3 true ",\"cancel_after_ns\":100000000" >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 <in >out &&
	test "$(wc -l <out)" -eq 3 &&
	test "$(count "\"was_cancelled\":true,\"cancellation_time_ns\":" out)" -eq 3 &&
	test "$(count "\"error\":{\"code\":499,\"type\":\"RequestCancellationError\",\"message\":\"Request cancelled 0.100s after being sent\"}" out)" -eq 3
'
test_expect_success 'warmup records are never cancelled' '
	reqs 1 true ",\"cancel_after_ns\":1" | sed "s/\"profiling\"/\"warmup\"/" >in &&
	aiperf-send -u "$MOCK_URL" --request-timeout-seconds 0.3 <in >out &&
	grep -q "RequestTimeoutError" out && ! grep -q "was_cancelled\":true" out
'
stop_mock

start_mock --ttft-ms 1 --itl-ms 1 --output-tokens 50
test_expect_success 'max-response-bytes: ResponseTooLargeError' '
	reqs 2 false >in &&
	aiperf-send -u "$MOCK_URL" --max-response-bytes 100 <in >out &&
	test "$(count "\"type\":\"ResponseTooLargeError\"" out)" -eq 2 &&
	reqs 2 true >in &&
	aiperf-send -u "$MOCK_URL" --max-response-bytes 1KiB <in >out &&
	test "$(count "\"type\":\"ResponseTooLargeError\"" out)" -eq 2
'
test_expect_success 'malformed line: message with line number, exit 1, earlier records kept' '
	{ reqs 2; echo "{not json"; reqs 2; } >in &&
	test_expect_code 1 aiperf-send -u "$MOCK_URL" <in >out 2>err &&
	grep -q "^aiperf-send: <stdin>:3: invalid JSON" err &&
	test "$(wc -l <out)" -eq 2 &&
	test "$(count "\"status\":200" out)" -eq 2
'
test_expect_success 'bad field types are reported' '
	for rec in "[1]" "{\"payload\":{}}" "{\"id\":\"a\"}" "{\"id\":\"a\",\"payload\":{},\"at_ns\":-5}" \
		"{\"id\":\"a\",\"payload\":{},\"phase\":\"x\"}" "{\"id\":\"a\",\"payload\":{},\"schema\":\"aiperf.request/9\"}"; do
		echo "$rec" | test_expect_code 1 aiperf-send -u "$MOCK_URL" >out 2>err || { echo "$rec"; exit 1; }
		grep -q "^aiperf-send: <stdin>:1: " err || exit 1
		test ! -s out || exit 1
	done
'
test_expect_success 'a NUL inside a string field is refused, not cut short' '
	for k in id x_correlation_id conversation_id path; do
		printf "{\"id\":\"a\",\"payload\":{},\"$k\":\"b\\\\u0000c\"}\n" >in &&
		test_expect_code 1 aiperf-send -u "$MOCK_URL" <in >out 2>err || exit 1
		grep -q "<stdin>:1: .$k. contains a NUL character" err || { cat in err; exit 1; }
		test ! -s out || exit 1
	done
'
test_expect_success 'over-long line is malformed' '
	reqs 1 >in && test_expect_code 1 aiperf-send -u "$MOCK_URL" --max-record-bytes 50 <in 2>err &&
	grep -q "<stdin>:1: line too long" err
'

printf "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: {\"a\":1}\n\nevent: error\n: overloaded\n\ndata: {\"b\":2}\n\n" >"$TMP/sse-err"
start_canned "$TMP/sse-err" 5
test_expect_success 'SSE event: error ends the request with SSEResponseError 502' '
	reqs 1 >in &&
	aiperf-send -u "$CANNED_URL" <in >out &&
	grep -q "\"error\":{\"code\":502,\"type\":\"SSEResponseError\",\"message\":\"Error occurred in SSE response: overloaded\"}" out &&
	test "$(count "{\\\"a\\\":1}" out)" -eq 1 && ! grep -q "b.:2" out
'
stop_canned

printf "HTTP/1.1 429 Slow Down Please\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy" >"$TMP/r429"
start_canned "$TMP/r429"
test_expect_success 'the server reason phrase is the error type' '
	reqs 1 >in &&
	aiperf-send -u "$CANNED_URL" <in >out &&
	grep -q "\"status\":429,\"responses\":\[\],\"error\":{\"code\":429,\"type\":\"Slow Down Please\",\"message\":\"busy\"}" out
'
stop_canned

printf "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: {\"x\":\r\n \"\\377\"}\r\n\r\n: c\r\n\r\ndata: [DONE]" >"$TMP/sse-odd"
start_canned "$TMP/sse-odd" 3
test_expect_success 'SSE: crlf, continuation quirk, bad utf-8, trailing message' '
	reqs 1 >in &&
	aiperf-send -u "$CANNED_URL" <in >out &&
	python3 -c "
import json
r = json.loads(open(\"out\").read())
p = [m[\"packets\"] for m in r[\"responses\"]]
assert p == [[{\"name\": \"data\", \"value\": \"{\\\"x\\\":\\\\n\\\"\ufffd\\\"}\"}], [{\"name\": \"comment\", \"value\": \"c\"}], [{\"name\": \"data\", \"value\": \"[DONE]\"}]], p
assert \"error\" not in r
"
'
test_done
