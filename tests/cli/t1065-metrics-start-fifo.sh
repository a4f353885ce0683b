#!/bin/sh
# aiperf-metrics --start-fifo FIFO (aiperf(7), Supervisor interface): no
# record is read until the FIFO has no writer left, then the run is the
# one without the gate; a FIFO never opened for writing, or a writer that
# dies, lets it start at once; a signal ends the wait as it ends a read.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
G=$TOP/tests/golden/aiperf-metrics
cat "$G"/*/in.ndjson | grep '^{"metadata":{"session' >"$TMP/recs"
M="aiperf-metrics --tokenizer test:words"
$M <"$TMP/recs" >"$TMP/expect"

# A command put in the background ends its && list: the lists around it
# are on lines of their own (set -e fails the test on any of them).

# holds PID PATH: whether process PID has PATH open.
holds() {
	for _h_f in "/proc/$1/fd/"*; do
		[ "$(readlink "$_h_f" 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}

# waiting PID FIFO: waits (5 s at most) until process PID holds FIFO open
# and sleeps (in its read of the FIFO).
waiting() {
	_w_i=0
	until holds "$1" "$2" &&
		[ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d" " -f1)" = S ]; do
		_w_i=$((_w_i + 1))
		[ $_w_i -lt 500 ] || { echo "pid $1 never waited on $2"; return 1; }
		sleep 0.01
	done
}

test_expect_success 'records before the gate opens: none read, then the same output' '
	test -s expect &&
	mkfifo gate &&
	exec 7<>gate
	$M --follow recs --tee copy --start-fifo "$TMP/gate" </dev/null >out 7>&- &
	pid=$!
	waiting $pid "$TMP/gate" &&
	sleep 0.3 &&
	kill -0 $pid && test ! -s out && test ! -s copy &&
	exec 7>&- &&
	wait $pid &&
	test_cmp expect out && cmp recs copy
'

test_expect_success 'standard input as well' '
	mkfifo gate2 &&
	exec 7<>gate2
	$M --start-fifo gate2 <recs >out2 7>&- &
	pid=$!
	waiting $pid "$TMP/gate2" &&
	kill -0 $pid && test ! -s out2 &&
	exec 7>&- &&
	wait $pid &&
	test_cmp expect out2
'

test_expect_success 'a writer that is killed: the run starts' '
	mkfifo gate3 &&
	exec 7<>gate3
	sleep 30 >&7 &
	holder=$!
	exec 7>&-
	$M --follow recs --start-fifo gate3 </dev/null >out3 &
	pid=$!
	waiting $pid "$TMP/gate3" || { kill $holder; exit 1; }
	test ! -s out3 &&
	kill -KILL $holder &&
	wait $pid &&
	test_cmp expect out3
'

test_expect_success 'a FIFO that never had a writer: no wait' '
	mkfifo gate4 &&
	timeout 10 $M --follow recs --start-fifo gate4 </dev/null >out4 &&
	test_cmp expect out4
'

test_expect_success 'SIGTERM while it waits: it ends by the signal, nothing written' '
	mkfifo gate5 &&
	exec 7<>gate5
	$M --follow recs --start-fifo gate5 </dev/null >out5 7>&- &
	pid=$!
	waiting $pid "$TMP/gate5" &&
	kill -TERM $pid
	st=0
	wait $pid || st=$?
	exec 7>&-
	test $st -eq 143 && test ! -s out5
'

test_expect_success 'not a FIFO: a regular file, a folder, a missing path (usage, 2)' '
	: >plain && mkdir dir &&
	test_expect_code 2 $M --start-fifo plain <recs >o 2>err &&
	grep -qx "aiperf-metrics: --start-fifo plain: not a FIFO" err &&
	test_expect_code 2 $M --start-fifo dir <recs >o 2>err &&
	grep -qx "aiperf-metrics: --start-fifo dir: not a FIFO" err &&
	test_expect_code 2 $M --start-fifo missing <recs >o 2>err &&
	grep -qx "aiperf-metrics: --start-fifo missing: No such file or directory" err &&
	test ! -s o
'

test_expect_success 'a private option: --list-private names it, --help does not' '
	aiperf-metrics --list-private >priv &&
	grep -qx -- --start-fifo priv &&
	aiperf-metrics --help >help &&
	! grep -q start-fifo help
'

echo "1..$test_count"
[ "$test_failed" -eq 0 ]
