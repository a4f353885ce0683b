#!/bin/sh
# aiperf-send --read-ahead N, --read-all: how far the sender reads its input
# ahead of the send times, without changing when requests are sent.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
SEND_PID=
trap '[ -n "$SEND_PID" ] && kill "$SEND_PID" 2>/dev/null; cleanup' EXIT

# timed N GAP_NS [FIRST_NS]: N request records at FIRST_NS (default 0), then
# every GAP_NS after it.
timed() {
	awk -v n="$1" -v g="$2" -v f="${3:-0}" 'BEGIN { for (i = 0; i < n; i++)
		printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"at_ns\":%.0f,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":1}}\n", i, i ? f + i * g : 0 }'
}

# field NAME FILE: the integer values of NAME in FILE's records, in order.
field() {
	sed -E -n "s/.*\"$1\":(-?[0-9]+).*/\\1/p" "$2"
}

test_expect_success 'usage: bad --read-ahead values, not with --read-all' '
	for args in "--read-ahead 0" "--read-ahead x" "--read-ahead 1000000001" \
		"--read-ahead" "--read-ahead 5 --read-all"; do
		# shellcheck disable=SC2086
		test_expect_code 2 aiperf-send $args </dev/null >out 2>err || { echo "$args"; exit 1; }
	done &&
	grep -q "^aiperf-send: --read-ahead and --read-all cannot be used together" err
'

start_mock --ttft-ms 1 --itl-ms 1

# The first record goes at once, the others 1000 s later: a signal finds
# every record read so far waiting, and each becomes a NotSentError record.
for c in "10 --read-ahead 10" "49" "49 --read-all" "1 --read-ahead 1"; do
	want=${c%% *}
	opts=${c#"$want"}
	test_expect_success "SIGINT finds the records read ahead waiting:$opts ($want)" '
		timed 50 1000000000000 >in
		rm -f out
		# shellcheck disable=SC2086 # opts: options
		aiperf-send -u "$MOCK_URL" $opts <in >out 2>err &
		SEND_PID=$!
		wait_grep 1 "\"status\":200" out
		kill -INT "$SEND_PID"
		wait "$SEND_PID"
		test "$(wc -l <out)" -eq $((want + 1)) &&
		test "$(count "\"type\":\"NotSentError\"" out)" -eq "$want"
	'
done
SEND_PID=

test_expect_success 'without --read-all the first requests go before the input ends' '
	rm -f fifo out && mkfifo fifo
	aiperf-send -u "$MOCK_URL" --unbuffered <fifo >out &
	pid=$!
	exec 4>fifo
	reqs 3 >&4
	wait_grep 3 "\"status\":200" out
	exec 4>&-
	wait "$pid"
'
test_expect_success '--read-all: no request before the end of the input' '
	rm -f fifo && mkfifo fifo
	aiperf-send -u "$MOCK_URL" --read-all --concurrency 2 <fifo >out &
	pid=$!
	exec 4>fifo
	reqs 3 >&4
	sleep 0.3
	reqs 3 | sed "s/req_/late_/" >&4
	eof=$(date +%s%N)
	exec 4>&-
	wait "$pid"
	test "$(wc -l <out)" -eq 6 &&
	test "$(count "\"status\":200" out)" -eq 6 &&
	for t in $(field request_start_ns out); do
		test "$t" -gt "$eof" || exit 1
	done
'
test_expect_success 'reading ahead keeps at_ns from the phase start' '
	timed 20 5000000 >in &&
	for opt in "--read-ahead 1" "--read-ahead 3" --read-all ""; do
		# shellcheck disable=SC2086 # opt: no option or one
		aiperf-send -u "$MOCK_URL" $opt <in >out &&
		field intended_perf_ns out | sort -n >when &&
		test "$(wc -l <when)" -eq 20 &&
		first=$(head -1 when) &&
		awk -v f="$first" "{ if (\$1 - f != (NR - 1) * 5000000) exit 1 }" when &&
		awk "/\"intended_perf_ns\"/ {
			match(\$0, /\"start_perf_ns\":[0-9]+/); s = substr(\$0, RSTART + 16, RLENGTH - 16)
			match(\$0, /\"intended_perf_ns\":[0-9]+/); t = substr(\$0, RSTART + 19, RLENGTH - 19)
			if (s + 0 < t + 0) exit 1 }" out || { echo "$opt"; exit 1; }
	done
'
test_expect_success '--read-all with warmup records and sessions: every record' '
	{ reqs 3 | sed "s/\"profiling\"/\"warmup\"/; s/req_/w_/"; sessions 4 3; } >in &&
	aiperf-send -u "$MOCK_URL" --read-all --concurrency 2 <in >out &&
	test "$(wc -l <out)" -eq 15 &&
	test "$(count "\"status\":200" out)" -eq 15 &&
	test "$(count "\"benchmark_phase\":\"warmup\"" out)" -eq 3
'
test_expect_success '--read-all with --raw-file: the same records' '
	reqs 40 false >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 4 --read-all --raw-file raw <in >out &&
	test ! -s out &&
	test "$(wc -l <raw)" -eq 40 &&
	test "$(count "\"status\":200" raw)" -eq 40
'
test_done
