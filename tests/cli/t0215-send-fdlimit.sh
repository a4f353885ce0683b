#!/bin/sh
# aiperf-send under a small descriptor limit: requests wait for a socket
# instead of failing for the client's sake, and --concurrency beyond the
# limit is capped with a warning.
# shellcheck disable=SC1091,SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

# timed N: N request records, one every 0.1 ms (an open-loop schedule).
timed() {
	awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++)
		printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"at_ns\":%d,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":1}}\n", i, i * 100000 }'
}

start_mock --ttft-ms 200 --itl-ms 0
timed 400 >"$TMP/in"

test_expect_success 'rate with no ceiling: no request fails for want of a socket' '
	(ulimit -n 120 && aiperf-send -u "$MOCK_URL" <in >out 2>err) &&
	test "$(wc -l <out)" -eq 400 &&
	test "$(count "\"status\":200" out)" -eq 400 &&
	test ! -s err
'
test_expect_success '--concurrency past the limit: capped, with a warning' '
	reqs 200 false >in2 &&
	(ulimit -n 120 && aiperf-send -u "$MOCK_URL" --concurrency 300 <in2 >out 2>err) &&
	test "$(count "\"status\":200" out)" -eq 200 &&
	grep -q "^aiperf-send: --concurrency 300 needs more descriptors than RLIMIT_NOFILE (120) allows: at most 60 requests run at once$" err
'

# Two ports, round robin: idle connections to one port must not starve the
# other of descriptors. Every mock started here is stopped before the next
# (start_mock overwrites MOCK_PID, which cleanup kills).
stop_mock
start_mock --ttft-ms 100 --itl-ms 0 --ports 2
U2=$(sed -n 2p "$TMP/.mock.url")
test_expect_success 'two ports, round robin, at the limit: nothing fails' '
	timed 1200 >in3 &&
	(ulimit -n 300 && aiperf-send -u "$MOCK_URL" -u "$U2" <in3 >out 2>err) &&
	test "$(count "\"status\":200" out)" -eq 1200 &&
	test "$(count ":${U2##*:}/" out)" -eq 600
'

# A fast server and a slow one: the fast one's connections go idle while
# the slow one needs new ones; at the cap the idle ones must give way
# (each engine: libcurl's MAX_TOTAL_CONNECTIONS, the native engine's own).
stop_mock
FAST_PID=
trap '[ -n "$FAST_PID" ] && kill "$FAST_PID" 2>/dev/null; cleanup' EXIT
start_mock --ttft-ms 0 --itl-ms 0
FAST=$MOCK_URL FAST_PID=$MOCK_PID
MOCK_PID=
start_mock --ttft-ms 500 --itl-ms 0
timed 400 | sed 's/"at_ns":[0-9]*/"at_ns":1000000/' >"$TMP/in4"
for engine in h1 curl; do
	test_expect_success "$engine: idle connections to one server give way to another's" "
		(ulimit -n 200 && aiperf-send -u \"\$FAST\" -u \"\$MOCK_URL\" --http-engine $engine <in4 >out4) &&
		test \"\$(wc -l <out4)\" -eq 400 &&
		test \"\$(count '\"status\":200' out4)\" -eq 400
	"
done
test_done
