#!/bin/sh
# aiperf-send --raw-file: the records stdout would carry, written by a thread
# of their own; stdout ends only after the file is complete; a full disk is
# an error that keeps whole records; a slow file delays the run, counted.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
SEND_PID=
trap '[ -n "$SEND_PID" ] && kill "$SEND_PID" 2>/dev/null; cleanup' EXIT

# norm FILE: its records with every number and the mock's reply ids masked
# (times, stamps, counters differ from run to run; nothing else may).
norm() {
	sed -E -e 's/chatcmpl-[0-9]+/chatcmpl-N/g' \
		-e 's/([,:[])-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1N/g' "$1"
}

# whole FILE: every line of FILE is a JSON record ending in a newline.
whole() {
	python3 -c '
import json, sys
data = open(sys.argv[1], "rb").read()
assert not data or data.endswith(b"\n"), "a partial last line"
for line in data.splitlines():
    json.loads(line)
print(len(data.splitlines()))
' "$1"
}

test_expect_success 'usage: --raw-buffer needs --raw-file; bad sizes' '
	test_expect_code 2 aiperf-send --raw-buffer 1MiB </dev/null 2>err &&
	grep -q "^aiperf-send: --raw-buffer can only be used with --raw-file" err &&
	test_expect_code 2 aiperf-send --raw-file f --raw-buffer 0 </dev/null 2>err &&
	test_expect_code 2 aiperf-send --raw-file f --raw-buffer 5q </dev/null 2>err &&
	test_expect_code 2 aiperf-send --raw-file </dev/null 2>err &&
	test ! -e f
'
test_expect_success 'a file that cannot be created: exit 1 before any input is read' '
	reqs 2 >in &&
	test_expect_code 1 aiperf-send -u 127.0.0.1:9 --raw-file nodir/raw <in >out 2>err &&
	grep -q "^aiperf-send: cannot open '\''nodir/raw'\'': No such file or directory" err &&
	test ! -s out
'

start_mock --ttft-ms 1 --itl-ms 1

test_expect_success 'the records stdout would carry, in the same order' '
	reqs 30 >in &&
	aiperf-send -u "$MOCK_URL" <in >want &&
	aiperf-send -u "$MOCK_URL" --raw-file raw <in >out &&
	test ! -s out &&
	test "$(whole raw)" -eq 30 &&
	norm want >want.n && norm raw >raw.n &&
	test_cmp want.n raw.n &&
	grep -q "\"x_request_id\":\"req_000029\"" raw
'
test_expect_success 'concurrent and non-streaming: the same records, any order' '
	reqs 200 false >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 16 <in >want &&
	aiperf-send -u "$MOCK_URL" --concurrency 16 --raw-file raw --raw-buffer 64KiB <in &&
	test "$(whole raw)" -eq 200 &&
	norm want | sort >want.n && norm raw | sort >raw.n &&
	test_cmp want.n raw.n
'
test_expect_success 'an existing file is truncated; mode 0666 less the umask' '
	reqs 3 >in &&
	seq 100000 >raw &&
	chmod 600 raw &&
	(umask 027 && aiperf-send -u "$MOCK_URL" --raw-file new <in) &&
	aiperf-send -u "$MOCK_URL" --raw-file raw <in &&
	test "$(whole raw)" -eq 3 &&
	test "$(stat -c %a new)" = 640 &&
	test "$(stat -c %a raw)" = 600
'
test_expect_success 'stdout reaches its end only after the file is complete' '
	reqs 100 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 8 --raw-file raw <in |
		{ wc -c >bytes; wc -l <raw >lines; } &&
	test "$(cat bytes)" -eq 0 &&
	test "$(cat lines)" -eq 100
'
test_expect_success 'records reach the file during the run (every 0.1 s, or each with --unbuffered)' '
	for opt in "" --unbuffered; do
		rm -f fifo raw
		mkfifo fifo
		# shellcheck disable=SC2086 # opt: no option or one
		aiperf-send -u "$MOCK_URL" --raw-file raw $opt <fifo >out &
		pid=$!
		exec 4>fifo &&
		reqs 2 >&4 &&
		wait_grep 2 "\"status\":200" raw &&
		kill -0 "$pid" &&
		exec 4>&- &&
		wait "$pid" &&
		test "$(whole raw)" -eq 2 || exit 1
	done
'
test_expect_success 'SIGINT: every record read is in the file, exit 0' '
	awk "BEGIN { for (i = 0; i < 20; i++)
		printf \"{\\\"id\\\":\\\"r%d\\\",\\\"path\\\":\\\"/v1/chat/completions\\\",\\\"at_ns\\\":%.0f,\\\"payload\\\":{\\\"model\\\":\\\"m\\\",\\\"messages\\\":[]}}\\n\", i, i ? 1e12 : 0 }" >in
	rm -f raw
	aiperf-send -u "$MOCK_URL" --raw-file raw <in >out 2>err &
	pid=$!
	wait_grep 1 "\"status\":200" raw &&
	kill -INT "$pid" &&
	wait "$pid" &&
	test "$(whole raw)" -eq 20 &&
	test "$(count "\"type\":\"NotSentError\"" raw)" -eq 19
'
test_expect_success 'a full file system: exit 1 naming the file, whole records kept' '
	reqs 300 false >in &&
	# 512-byte blocks: the file may grow to 100 KiB (RLIMIT_FSIZE, EFBIG)
	test_expect_code 1 sh -c "ulimit -f 200 && exec aiperf-send -u \"\$1\" --concurrency 4 --raw-file raw <in >out 2>err" sh "$MOCK_URL" &&
	grep -q "^aiperf-send: cannot write '\''raw'\'': File too large" err &&
	test "$(grep -c "cannot write" err)" -eq 1 &&
	n=$(whole raw) &&
	test "$n" -gt 0 && test "$n" -lt 300 &&
	test "$(wc -c <raw)" -le 102400 &&
	test ! -s out
'
test_expect_success 'a device that fills up: /dev/full' '
	test -w /dev/full || skip_because "no /dev/full" &&
	reqs 5 >in &&
	test_expect_code 1 aiperf-send -u "$MOCK_URL" --raw-file /dev/full <in 2>err &&
	grep -q "^aiperf-send: cannot write '\''/dev/full'\'': No space left on device" err
'
# A FIFO read by a reader that waits first stands for a disk slower than the
# run: the queue (--raw-buffer 1: one block at a time) fills and the loop waits.
test_expect_success 'a file slower than the run: nothing lost, the wait is reported' '
	reqs 200 false >in &&
	rm -f fifo && mkfifo fifo
	{ exec 3<fifo; sleep 1; cat <&3 >raw; } &
	reader=$!
	aiperf-send -u "$MOCK_URL" --concurrency 8 --raw-file fifo --raw-buffer 1 \
		<in >out 2>err &&
	wait "$reader" &&
	test "$(whole raw)" -eq 200 &&
	grep -q "^aiperf-send: writing '\''fifo'\'' fell behind the run: the sender waited [0-9.]* s for it (waits: [0-9]*, the longest [0-9.]* ms); a larger --raw-buffer or a faster disk avoids that" err
'
test_done
