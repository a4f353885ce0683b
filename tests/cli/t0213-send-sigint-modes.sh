#!/bin/sh
# SIGINT in every load mode: aiperf-gen's records through aiperf-send, the
# run interrupted while requests are in flight and others still wait (on the
# rate schedule, a turn delay, a ramp): every record read comes out once,
# with its phase mark, and the sender exits 0.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
SEND_PID=
trap '[ -n "$SEND_PID" ] && kill "$SEND_PID" 2>/dev/null; cleanup' EXIT

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --osl 4 --num-dataset-entries 4 --random-seed 7 --streaming"

# ids FILE: the x_request_id of every line, sorted.
ids() {
	grep -o '"x_request_id":"[^"]*"' "$1" | sort
}
# rids FILE: the id of every request record, sorted, in the same form.
rids() {
	grep -o '^{[^{]*"id":"[^"]*"' "$1" | grep -o '"id":"[^"]*"' |
		sed 's/^"id"/"x_request_id"/' | sort
}

# interrupt NAME N [aiperf-send options]: send in.NAME, SIGINT once N
# requests came back 200 (the sender writes records out at least every
# 100 ms). A request takes 120 ms at the mock and every schedule here runs
# for seconds, so by then some were sent and others still wait, on a slow
# machine too.
interrupt() {
	name=$1 n=$2
	shift 2
	aiperf-send -u "$MOCK_URL" --shutdown-grace-period 0.05 "$@" \
		<"$TMP/in.$name" >"$TMP/out.$name" 2>"$TMP/err.$name" &
	SEND_PID=$!
	wait_grep "$n" '"status":200' "$TMP/out.$name"
	kill -INT "$SEND_PID"
	rc=0
	wait "$SEND_PID" || rc=$?
	echo "$rc" >"$TMP/rc.$name"
	SEND_PID=
}

# check NAME: exit 0, one record per request record, some sent, some not.
check() {
	test "$(cat "rc.$1")" -eq 0 && test -s "in.$1" &&
	rids "in.$1" >want && test "$(wc -l <want)" -eq "$(wc -l <"in.$1")" &&
	ids "out.$1" >got && test_cmp want got &&
	test "$(count '"status":200' "out.$1")" -ge 1 &&
	test "$(count '"type":"NotSentError"' "out.$1")" -ge 1
}

start_mock --ttft-ms 1 --itl-ms 40

$G --request-rate 20 --arrival-pattern poisson --request-count 60 >"$TMP/in.rate"
interrupt rate 1 --concurrency 8
test_expect_success 'request rate (poisson): every record flushed' 'check rate'

$G --request-rate 20 --arrival-pattern constant --concurrency 2 --request-count 60 >"$TMP/in.ceiling"
interrupt ceiling 1 --concurrency 2
test_expect_success 'rate with a concurrency ceiling: every record flushed' 'check ceiling'

$G --session-turns-mean 4 --session-turn-delay-mean 300 --request-count 40 >"$TMP/in.sess"
interrupt sess 1 --concurrency 4
test_expect_success 'multi-turn sessions with turn delays: every turn flushed' '
	check sess &&
	grep "\"turn_index\":[1-9]" out.sess | grep -q NotSentError
'

$G --user-centric-rate 20 --num-users 4 --session-turns-mean 3 --request-count 40 >"$TMP/in.ucr"
interrupt ucr 1
test_expect_success 'user-centric rate: every record flushed' 'check ucr'

$G --request-count 60 >"$TMP/in.ramp"
interrupt ramp 1 --concurrency 8 --concurrency-ramp-duration 5
test_expect_success 'concurrency ramp: every record flushed' 'check ramp'

# The fifth 200 is a profiling one: interrupted after the warmup.
$G --request-count 60 --warmup-request-count 4 >"$TMP/in.warm"
interrupt warm 5 --concurrency 2 --prefill-concurrency 1
test_expect_success 'warmup then prefill-limited profiling: flushed, phases kept' '
	check warm &&
	test "$(count "\"benchmark_phase\":\"warmup\"" out.warm)" -eq 4 &&
	test "$(count "\"benchmark_phase\":\"profiling\"" out.warm)" -eq 60
'

TRACE=$TMP/trace.jsonl
i=0
while [ $i -lt 40 ]; do
	printf '{"timestamp":%d,"input_length":8,"output_length":4,"hash_ids":[%d]}\n' \
		$((i * 50)) "$i"
	i=$((i + 1))
done >"$TRACE"
aiperf-gen -m m --tokenizer builtin --random-seed 7 --streaming --input-file "$TRACE" \
	--custom-dataset-type mooncake_trace --fixed-schedule --isl-block-size 8 >"$TMP/in.fixed"
interrupt fixed 1 --concurrency 100
test_expect_success 'fixed schedule: every record flushed' 'check fixed'
test_done
