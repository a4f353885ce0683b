#!/bin/sh
# aiperf-send never waits on the reader of its standard output: a pipe
# whose reader reads nothing until the sender has exited still gets every
# record, in order; only --out-buffer bytes may wait, and a run that
# outgrows it says how long the sender waited. The descriptor's flags
# are given back.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
trap 'cleanup' EXIT

# late_reader LOG OUT: wait (at most 30 s) until the sender's run log says
# the run is over (every request ended, only output left to write), note
# whether it did, then read stdin into OUT. A sender that waits for its
# reader never gets there.
late_reader() {
	i=0
	while ! grep -q "the run is over" "$1" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	if grep -q "the run is over" "$1"; then echo early >seen; else echo late >seen; fi
	cat >"$2"
}

test_expect_success 'usage: --out-buffer takes a size and not with --raw-file' '
	test_expect_code 2 aiperf-send --out-buffer 0 </dev/null 2>err &&
	test_expect_code 2 aiperf-send --out-buffer 5q </dev/null 2>err &&
	test_expect_code 2 aiperf-send --raw-file f --out-buffer 1MiB </dev/null 2>err &&
	grep -q "^aiperf-send: --out-buffer cannot be used with --raw-file" err &&
	test ! -e f
'

start_mock --ttft-ms 0 --itl-ms 0

test_expect_success 'a reader that reads only after the sender ended: nothing waits, nothing lost' '
	reqs 3000 false >in &&
	{ AIPERF_LOG_FILE=log AIPERF_LOG_LEVEL=INFO \
		aiperf-send -u "$MOCK_URL" --concurrency 8 --ui-type none <in 2>err; echo $? >st; } |
		late_reader log out &&
	test "$(cat st)" = 0 &&
	test "$(cat seen)" = early &&
	test "$(wc -l <out)" -eq 3000 &&
	test "$(wc -c <out)" -gt 1048576 &&
	python3 -c "
import json, sys
ids = sorted(json.loads(l)[\"metadata\"][\"x_request_id\"] for l in open(\"out\"))
assert ids == [\"req_%06d\" % i for i in range(3000)], \"records lost or doubled\"
" &&
	test ! -s err
'
test_expect_success 'past --out-buffer the sender waits for the reader, and says so' '
	reqs 4000 false >in &&
	{ aiperf-send -u "$MOCK_URL" --concurrency 8 --ui-type none --out-buffer 4KiB \
		--unbuffered <in 2>err; echo $? >st; } | { sleep 1; cat >out; } &&
	test "$(cat st)" = 0 &&
	test "$(wc -l <out)" -eq 4000 &&
	grep -q "^aiperf-send: the reader of standard output fell behind the run by --out-buffer (4096 bytes): the sender waited" err
'
test_expect_success 'stdout given back blocking: a writer after the sender sees no EAGAIN' '
	reqs 2 false >in &&
	{ aiperf-send -u "$MOCK_URL" --ui-type none <in >/dev/null; aiperf-send -u "$MOCK_URL" --ui-type none <in;
	  python3 -c "
import fcntl, os, sys
fl = fcntl.fcntl(1, fcntl.F_GETFL)
sys.stderr.write(\"nonblock\\n\" if fl & os.O_NONBLOCK else \"blocking\\n\")
" 2>flags; } | cat >out &&
	test "$(cat flags)" = blocking &&
	test "$(wc -l <out)" -eq 2
'
test_expect_success 'a reader that goes away: the run stops, status 0, no message' '
	reqs 2000 false >in &&
	{ aiperf-send -u "$MOCK_URL" --concurrency 8 --ui-type none <in 2>err; echo $? >st; } |
		head -c 100 >/dev/null &&
	test "$(cat st)" = 0 &&
	test ! -s err
'

test_done
