#!/bin/sh
# aiperf-gen load shapes as data: multi-turn sessions and delays, request
# rate schedules (at_ns), cancellation, and the original's validation.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --num-dataset-entries 4 --random-seed 42"

test_expect_success 'sessions: turns in order, one correlation id, delays, history' '
	$G --session-turns-mean 3 --session-turn-delay-mean 100 --request-count 6 >out &&
	grep -o "\"turn_index\":[0-9]*,\"num_turns\":3" out | cut -d, -f1 | tr -d "\n" >got &&
	echo "\"turn_index\":0\"turn_index\":1\"turn_index\":2\"turn_index\":0\"turn_index\":1\"turn_index\":2" | tr -d "\n" >expect &&
	test_cmp expect got &&
	test "$(head -3 out | grep -o "\"x_correlation_id\":\"[^\"]*\"" | sort -u | wc -l)" -eq 1 &&
	test "$(grep -c "\"delay_ns\":100000000,\"history\":true,\"payload\"" out)" -eq 4 &&
	test "$(grep -c "delay_ns" out)" -eq 4
'

test_expect_success 'every turn counts toward the request count' '
	$G --session-turns-mean 3 --request-count 4 >out && test "$(wc -l <out)" -eq 4
'

test_expect_success 'constant rate: at_ns every 1/rate, first after one interval' '
	$G --request-rate 4 --arrival-pattern constant --request-count 3 >out &&
	grep -o "\"at_ns\":[0-9]*" out >got &&
	printf "%s\n" "\"at_ns\":250000000" "\"at_ns\":500000000" "\"at_ns\":750000000" >expect &&
	test_cmp expect got
'

test_expect_success 'poisson is the default pattern; rate defaults to 10 requests' '
	$G --request-rate 100 --concurrency 50 >out && test "$(wc -l <out)" -eq 10 &&
	grep -o "\"at_ns\":[0-9]*" out | cut -d: -f2 >t && sort -n t | cmp - t &&
	test "$(sort -u t | wc -l)" -eq 10
'

test_expect_success 'gamma via --arrival-smoothness; warmup restarts the schedule' '
	$G --request-rate 100 --arrival-smoothness 4 --request-count 3 \
		--warmup-request-count 3 >out &&
	grep -o "\"at_ns\":[0-9]*" out >t &&
	head -3 t >w && tail -3 t >p && test_cmp w p
'

test_expect_success 'no at_ns in concurrency mode' '
	$G --request-count 3 >out && ! grep -q at_ns out
'

test_expect_success 'cancellation: profiling only, fixed delay' '
	$G --request-count 40 --warmup-request-count 5 --request-cancellation-rate 50 \
		--request-cancellation-delay 0.25 >out &&
	! head -5 out | grep -q cancel_after_ns &&
	n=$(grep -c "\"cancel_after_ns\":250000000," out) &&
	test "$n" -gt 5 && test "$n" -lt 35
'

for bad in "--arrival-pattern constant" "--request-rate 5 --arrival-pattern concurrency_burst" \
	"--request-rate 5 --arrival-pattern constant --arrival-smoothness 2" \
	"--request-cancellation-delay 1" "--request-rate 0" "--arrival-pattern bursty" \
	"--session-turns-mean 0"; do
	test_expect_success "usage error: $bad" "
		test_expect_code 2 $G $bad >out 2>err && test -s err && test ! -s out
	"
done

test_done
