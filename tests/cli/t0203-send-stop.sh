#!/bin/sh
# aiperf-send: nothing is lost when the run is interrupted, the server dies,
# shellcheck disable=SC1091,SC2016
# the duration ends, or downstream stops reading.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
SEND_PID=
trap '[ -n "$SEND_PID" ] && kill "$SEND_PID" 2>/dev/null; cleanup' EXIT

# The mock logs each request as it arrives (-v); a request then takes at
# least 1.5 s, so once it has logged four more the four are in flight and
# the other 36 wait for a slot, however slow this machine is.
POST='"POST /v1/chat/completions '
start_mock -v --ttft-ms 1 --itl-ms 500
reqs 40 >"$TMP/in"

aiperf-send -u "$MOCK_URL" --concurrency 4 --shutdown-grace-period 0.1 \
	<"$TMP/in" >"$TMP/out-int" 2>"$TMP/err-int" &
SEND_PID=$!
wait_grep 4 "$POST" "$TMP/.mock.err"
kill -INT "$SEND_PID"
rc=0
wait "$SEND_PID" || rc=$?
echo "$rc" >"$TMP/rc-int"
SEND_PID=
test_expect_success 'SIGINT: exit 0, a record for every request read' '
	test "$(cat rc-int)" -eq 0 &&
	test "$(wc -l <out-int)" -eq 40 &&
	test "$(count "\"type\":\"NotSentError\"" out-int)" -eq 36 &&
	test "$(count "\"was_cancelled\":true" out-int)" -eq 4 &&
	test "$(count "\"code\":499,\"type\":\"NotFinishedError\"" out-int)" -eq 4 &&
	for i in $(seq 0 39); do
		grep -q "\"x_request_id\":\"req_$(printf %06d "$i")\"" out-int || exit 1
	done
'

seen=$(count "$POST" "$TMP/.mock.err")
aiperf-send -u "$MOCK_URL" --concurrency 4 <"$TMP/in" >"$TMP/out-kill" 2>/dev/null &
SEND_PID=$!
wait_grep $((seen + 4)) "$POST" "$TMP/.mock.err"
stop_mock
rc=0
wait "$SEND_PID" || rc=$?
echo "$rc" >"$TMP/rc-kill"
SEND_PID=
test_expect_success 'server killed mid-run: every request still has its record' '
	test "$(cat rc-kill)" -eq 0 &&
	test "$(wc -l <out-kill)" -eq 40 &&
	test "$(count "\"type\":\"ConnectionError\"" out-kill)" -eq 40
'

start_mock --ttft-ms 1 --itl-ms 500
test_expect_success 'benchmark duration: stop issuing, cancel after the grace' '
	aiperf-send -u "$MOCK_URL" --concurrency 2 --benchmark-duration 0.2 \
		--benchmark-grace-period 0.1 <in >out &&
	test "$(wc -l <out)" -le 40 &&
	test "$(count "\"was_cancelled\":true" out)" -eq 2 &&
	test "$(count "\"type\":\"NotSentError\"" out)" -ge 1
'
test_expect_success 'downstream closes: quiet exit' '
	reqs 20 false >in20 &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 --unbuffered <in20 2>err | head -1 >out &&
	test "$(wc -l <out)" -eq 1 && test ! -s err
'
test_done
