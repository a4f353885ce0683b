#!/bin/sh
# Rate schedules are data computed from --random-seed: the same seed gives
# the same intended send times (and cancellations, turn delays), another
# seed different ones (the user-centric schedule is fixed by rate and users).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --num-dataset-entries 4"

# sched_of SEED OPTIONS...: the at_ns, delay_ns and cancel_after_ns of each record.
sched_of() {
	seed=$1
	shift
	$G --random-seed "$seed" "$@" | grep -o '"\(at_ns\|delay_ns\|cancel_after_ns\)":[0-9]*'
}

for mode in "--request-rate 50 --arrival-pattern poisson" \
	"--request-rate 50 --arrival-smoothness 0.5" \
	"--request-rate 50 --arrival-pattern constant --request-rate-ramp-duration 1" \
	"--user-centric-rate 20 --num-users 5 --session-turns-mean 3" \
	"--request-rate 50 --session-turns-mean 3 --session-turn-delay-mean 200 --session-turn-delay-stddev 50" \
	"--request-rate 50 --request-cancellation-rate 30 --request-cancellation-delay 0.5" \
	"--request-rate 50 --warmup-request-count 10 --warmup-request-rate 100"; do
	test_expect_success "same seed, same schedule: $mode" "
		sched_of 11 $mode --request-count 60 >a &&
		sched_of 11 $mode --request-count 60 >b &&
		test -s a && test_cmp a b
	"
done

for mode in "--request-rate 50 --arrival-pattern poisson" \
	"--request-rate 50 --arrival-smoothness 0.5" \
	"--request-rate 50 --session-turns-mean 3 --session-turn-delay-mean 200 --session-turn-delay-stddev 50"; do
	test_expect_success "another seed, another schedule: $mode" "
		sched_of 11 $mode --request-count 60 >a &&
		sched_of 12 $mode --request-count 60 >b &&
		! cmp -s a b
	"
done
test_done
