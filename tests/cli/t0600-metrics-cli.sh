#!/bin/sh
# aiperf-metrics command line: several inputs in order, stdin, zstd, caps, options.
. "$(dirname "$0")/lib.sh"
G=$TOP/tests/golden/aiperf-metrics

test_expect_success 'files are read in argument order' '
	aiperf-metrics --tokenizer test:words "$G/reasoning/in.ndjson" "$G/chat-stream/in.ndjson" >out &&
	cat "$G/reasoning/out.ndjson" "$G/chat-stream/out.ndjson" >expect &&
	test_cmp expect out
'

test_expect_success '"-" reads stdin between files' '
	aiperf-metrics --tokenizer test:words "$G/reasoning/in.ndjson" - <"$G/chat-stream/in.ndjson" >out &&
	cat "$G/reasoning/out.ndjson" "$G/chat-stream/out.ndjson" >expect &&
	test_cmp expect out
'

test_expect_success 'zstd input is read transparently' '
	command -v zstd >/dev/null || exit 0
	zstd -q -c "$G/chat-stream/in.ndjson" >in.zst &&
	aiperf-metrics --tokenizer test:words in.zst >out &&
	test_cmp "$G/chat-stream/out.ndjson" out
'

test_expect_success 'a line over the cap is an error naming file and line' '
	{ cat "$G/chat-stream/in.ndjson"; head -c 5000 /dev/zero | tr "\0" x; echo; } >big &&
	! AIPERF_METRICS_MAX_LINE=4096 aiperf-metrics --use-server-token-count big >out 2>err &&
	grep -q "^aiperf-metrics: big:2: line longer than 4096 bytes" err
'

test_expect_success '--keep-going skips the long line' '
	AIPERF_METRICS_MAX_LINE=4096 aiperf-metrics --keep-going --use-server-token-count big >out 2>err &&
	test $(wc -l <out) -eq 1 && grep -q "big:2: line too long (skipped)" err
'

test_expect_success 'missing file: exit 1' '
	! aiperf-metrics --use-server-token-count nope.ndjson 2>err &&
	grep -q "cannot open .nope.ndjson." err
'

test_expect_success 'unknown option and bad endpoint type: exit 2' '
	aiperf-metrics --bogus </dev/null 2>err; test $? -eq 2 &&
	aiperf-metrics --endpoint-type nope </dev/null 2>err; test $? -eq 2
'

test_expect_success '--help and --version' '
	aiperf-metrics --help >out && grep -q "^usage: aiperf-metrics" out &&
	aiperf-metrics --version | grep -q "^aiperf-metrics [0-9]"
'

test_expect_success 'blank lines are ignored' '
	{ echo; cat "$G/chat-stream/in.ndjson"; echo "  "; } | aiperf-metrics --tokenizer test:words >out &&
	test_cmp "$G/chat-stream/out.ndjson" out
'

test_expect_success '--unbuffered writes the same bytes' '
	aiperf-metrics --unbuffered --tokenizer test:words <"$G/warmup/in.ndjson" >out &&
	test_cmp "$G/warmup/out.ndjson" out
'

test_expect_success 'hostile records never crash' '
	for l in "{}" "{\"metadata\":[]}" "{\"metadata\":{},\"start_perf_ns\":1,\"responses\":[{}]}" \
		"{\"metadata\":{},\"start_perf_ns\":-5,\"responses\":[{\"perf_ns\":1,\"packets\":[{\"name\":\"data\",\"value\":\"{\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"x\\\"}}]}\"}]}]}" \
		"{\"metadata\":{},\"start_perf_ns\":1,\"responses\":[{\"perf_ns\":9223372036854775807,\"packets\":[]}]}" \
		"{\"metadata\":{},\"start_perf_ns\":1,\"responses\":[{\"perf_ns\":5,\"packets\":[{\"name\":\"data\",\"value\":\"{nope\"}]}]}" \
		"{\"metadata\":{},\"start_perf_ns\":1,\"payload\":{\"messages\":7},\"responses\":[{\"perf_ns\":5,\"text\":\"[1]\"}]}"; do
		printf "%s\n" "$l" | aiperf-metrics --tokenizer test:words >/dev/null 2>&1
		rc=$?; test $rc -le 1 || { echo "rc $rc for $l"; exit 1; }
	done
'

test_done
