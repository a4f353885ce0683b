#!/bin/sh
# aiperf-gen warmup stop conditions: request count, sessions, duration
# (records scheduled before it), and the original's validation.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --num-dataset-entries 4 --random-seed 42"

test_expect_success 'warmup duration: the records scheduled before it' '
	$G --request-rate 5 --arrival-pattern constant --warmup-duration 1 \
		--request-count 3 >out &&
	grep "\"phase\":\"warmup\"" out | grep -o "\"at_ns\":[0-9]*" >got &&
	printf "%s\n" "\"at_ns\":200000000" "\"at_ns\":400000000" \
		"\"at_ns\":600000000" "\"at_ns\":800000000" >expect &&
	test_cmp expect got && test "$(grep -c "\"phase\":\"profiling\"" out)" -eq 3
'

test_expect_success 'warmup duration with its own rate; the count ends it first' '
	$G --warmup-request-rate 100 --warmup-arrival-pattern constant \
		--warmup-duration 1 --request-count 2 >out &&
	test "$(grep -c "\"phase\":\"warmup\"" out)" -eq 99 &&
	$G --request-rate 5 --warmup-duration 10 --warmup-request-count 2 \
		--warmup-grace-period inf --request-count 2 >out &&
	test "$(grep -c "\"phase\":\"warmup\"" out)" -eq 2
'

test_expect_success 'warmup sessions: started sessions finish their turns' '
	$G --num-warmup-sessions 2 --session-turns-mean 3 --request-count 1 >out &&
	test "$(grep -c "\"phase\":\"warmup\"" out)" -eq 6 &&
	test "$(grep "\"phase\":\"warmup\"" out | grep -o "\"x_correlation_id\":\"[^\"]*\"" | sort -u | wc -l)" -eq 2
'

test_expect_success 'warmup rate ramp: its own, else the profiling one' '
	$G --request-rate 10 --arrival-pattern constant --warmup-request-count 2 \
		--warmup-request-rate-ramp-duration 2 --request-count 2 >out &&
	grep -o "\"at_ns\":[0-9]*" out | cut -d: -f2 | tr "\n" " " >got &&
	printf "2000000000 2100000000 100000000 200000000 " >expect && test_cmp expect got &&
	$G --request-rate 10 --arrival-pattern constant --warmup-request-count 2 \
		--request-rate-ramp-duration 1 --request-count 2 >out &&
	grep -o "\"at_ns\":[0-9]*" out | cut -d: -f2 | tr "\n" " " >got &&
	printf "1000000000 1100000000 1000000000 1100000000 " >expect && test_cmp expect got
'

usage_err() {
	test_expect_success "usage error: $1" "
		test_expect_code 2 $G $1 >out 2>err && test ! -s out &&
		grep -qF -- '$2' err
	"
}
usage_err "--warmup-request-count 2 --num-warmup-sessions 2" \
	"Both --warmup-request-count and --num-warmup-sessions are set. Use either --warmup-request-count or --num-warmup-sessions but not both."
usage_err "--warmup-request-count 2 --warmup-grace-period 5" \
	"--warmup-grace-period can only be used when --warmup-duration is set. Set --warmup-duration."
usage_err "--request-rate 2 --warmup-duration 0" "--warmup-duration"
usage_err "--request-rate 2 --warmup-duration 2 --warmup-grace-period -1" "--warmup-grace-period"

test_done
