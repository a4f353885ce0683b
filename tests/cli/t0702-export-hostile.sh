#!/bin/sh
# aiperf-export on hostile input: every bad line is reported with its number
# and exit 1; odd but valid input is summarised without crashing.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

OK='{"metadata":{"request_start_ns":1000000000},"metrics":{"request_latency":{"value":1.0,"unit":"ms"}}}'

# bad LINE MESSAGE: the line as the 2nd input line fails with MESSAGE
bad() {
	printf '%s\n%s\n' "$OK" "$1" >in
	rc=0
	aiperf-export --no-console <in 2>err || rc=$?
	[ $rc -eq 1 ] || { echo "status $rc"; cat err; return 1; }
	if ! grep -q "^aiperf-export: <stdin>:2: " err || ! grep -qF "$2" err; then
		cat err
		return 1
	fi
}

test_expect_success 'not JSON' 'bad "{\"metadata\":" "at byte"'
test_expect_success 'not an object' 'bad "[1,2]" "not a JSON object"'
test_expect_success 'metrics not an object' 'bad "{\"metrics\":[1]}" "'"'"'metrics'"'"' is not an object"'
test_expect_success 'value missing' 'bad "{\"metrics\":{\"request_latency\":{\"unit\":\"ms\"}}}" "metric '"'"'request_latency'"'"': value is not a number"'
test_expect_success 'list with a string' 'bad "{\"metrics\":{\"inter_chunk_latency\":{\"value\":[1,\"x\"]}}}" "value is not a number"'
test_expect_success 'nesting past the parser limit' '
	bad "$(printf "%0600d" 0 | tr 0 "[")" "at byte"
'
test_expect_success 'line number counts blank lines' '
	printf "%s\n\n{\n" "$OK" >in &&
	test_expect_code 1 aiperf-export --no-console <in 2>err &&
	grep -q "<stdin>:3: " err
'
test_expect_success 'a named file is named in the message' '
	printf "%s\nnope\n" "$OK" >f.ndjson &&
	test_expect_code 1 aiperf-export --no-console f.ndjson 2>err &&
	grep -q "^aiperf-export: f.ndjson:2: " err
'
test_expect_success 'missing file: exit 1' '
	test_expect_code 1 aiperf-export --no-console nosuch 2>err &&
	grep -q "nosuch" err
'
test_expect_success 'extreme values do not crash' '
	{
		echo "{\"metadata\":{\"request_start_ns\":9223372036854775807},\"metrics\":{\"request_latency\":{\"value\":1e300,\"unit\":\"ms\"}}}"
		echo "{\"metadata\":{\"request_start_ns\":-9223372036854775808},\"metrics\":{\"request_latency\":{\"value\":-1e300,\"unit\":\"ms\"},\"input_sequence_length\":{\"value\":1e300}}}"
		echo "{\"metadata\":{\"benchmark_phase\":7},\"metrics\":{\"unknown_tag\":{\"value\":\"x\"}},\"error\":{\"code\":1e3,\"type\":5,\"message\":null}}"
		echo "{}"
	} >in &&
	aiperf-export --artifact-dir x <in >out &&
	grep -q "Request Count (requests)" out
'
test_expect_success 'values infinite in base units are rejected (t0900 has the messages)' '
	echo "{\"metrics\":{\"request_latency\":{\"value\":-1e308,\"unit\":\"ms\"}}}" >in &&
	test_expect_code 1 aiperf-export --no-console <in 2>err &&
	grep -q "metric .request_latency.: value out of range" err &&
	echo "{\"metrics\":{\"input_sequence_length\":{\"value\":1e400}}}" >in &&
	test_expect_code 1 aiperf-export --no-console <in 2>err &&
	grep -q "metric .input_sequence_length.: value out of range" err
'
test_expect_success 'CRLF input lines are accepted and copied as they are' '
	printf "%s\r\n" "$OK" >in &&
	aiperf-export --no-console --artifact-dir y <in &&
	cmp in y/profile_export.jsonl
'
test_expect_success 'zstd input is read' '
	printf "%s\n" "$OK" | zstd -q >in.zst &&
	aiperf-export in.zst | grep -q "Request Latency (ms) │ *1.00 │ 1.00 "
'
test_done
