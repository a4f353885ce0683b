#!/bin/sh
# aiperf-gen --dataset-sampling-strategy: sequential, random and shuffle as
# the original's dataset samplers, its defaults per dataset source, any
# case, and not with a fixed schedule.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --num-dataset-entries 5 --random-seed 42"

# convs FILE: the conversation ids of FILE's records, one line, numbers only
# for the synthetic session_0000NN names.
convs() {
	grep -o "\"conversation_id\":\"[^\"]*\"" "$1" | cut -d\" -f4 |
		sed "s/^session_0*\([0-9]\)/\1/" | tr "\n" " "
}

test_expect_success 'sequential: dataset order, wrapping' '
	$G --dataset-sampling-strategy sequential --num-sessions 12 >out &&
	convs out >got &&
	printf "0 1 2 3 4 0 1 2 3 4 0 1 " >expect && test_cmp expect got
'

test_expect_success 'random: choice() from dataset.sampler.random, with replacement' '
	$G --dataset-sampling-strategy random --num-sessions 40 >out &&
	convs out >got &&
	python3 -c "
import hashlib, random
s = int.from_bytes(hashlib.sha256(b\"42:dataset.sampler.random\").digest()[:8], \"big\")
r = random.Random(s)
print(\" \".join(str(r.choice(range(5))) for _ in range(40)), end=\" \")
" >expect &&
	test_cmp expect got &&
	tr " " "\n" <got | sed "/^$/d" | sort | uniq -d | grep -q . &&
	head -c 10 got | tr " " "\n" | sed "/^$/d" | sort | uniq -d | grep -q .
'

test_expect_success 'shuffle: each pass a permutation, reshuffled after it' '
	$G --dataset-sampling-strategy shuffle --num-sessions 20 >out &&
	convs out | tr " " "\n" | sed "/^$/d" >ids &&
	for p in 0 1 2 3; do
		sed -n "$((p * 5 + 1)),$((p * 5 + 5))p" ids | sort | tr "\n" " " >got &&
		printf "0 1 2 3 4 " >expect && test_cmp expect got || return 1
	done &&
	test "$(sed -n 1,5p ids | tr "\n" " ")" != "$(sed -n 6,10p ids | tr "\n" " ")" &&
	test "$(sed -n 1,5p ids | tr "\n" " ")" != "0 1 2 3 4 "
'

test_expect_success 'synthetic data defaults to shuffle' '
	$G --num-sessions 12 >a &&
	$G --num-sessions 12 --dataset-sampling-strategy shuffle >b && test_cmp a b &&
	$G --num-sessions 12 --dataset-sampling-strategy sequential >c &&
	! cmp -s a c
'

test_expect_success 'any case, dashes for underscores' '
	$G --num-sessions 12 --dataset-sampling-strategy random >a &&
	$G --num-sessions 12 --dataset-sampling-strategy RANDOM >b && test_cmp a b &&
	$G --num-sessions 12 --dataset-sampling-strategy Random >b && test_cmp a b &&
	$G --num-sessions 12 --dataset-sampling-strategy Shuffle >b &&
	$G --num-sessions 12 --dataset-sampling-strategy shuffle >c && test_cmp b c &&
	$G --num-sessions 12 --dataset-sampling-strategy SEQUENTIAL >b &&
	$G --num-sessions 12 --dataset-sampling-strategy sequential >c && test_cmp b c
'

test_expect_success 'seeded: byte-identical runs for every strategy' '
	for s in sequential random shuffle; do
		$G --num-sessions 9 --session-turns-mean 2 --dataset-sampling-strategy $s >a &&
		$G --num-sessions 9 --session-turns-mean 2 --dataset-sampling-strategy $s >b &&
		test_cmp a b || return 1
	done
'

test_expect_success 'the strategy picks sessions for warmup and profiling alike' '
	$G --dataset-sampling-strategy sequential --num-warmup-sessions 3 \
		--num-sessions 4 >out &&
	convs out >got && printf "0 1 2 3 4 0 1 " >expect && test_cmp expect got
'

test_expect_success 'request count: every turn counts, sessions still sampled' '
	$G --dataset-sampling-strategy sequential --session-turns-mean 2 \
		--request-count 7 >out &&
	convs out >got && printf "0 0 1 1 2 2 3 " >expect && test_cmp expect got
'

for i in 1 2 3 4; do
	printf '{"session_id":"s%d","input_length":4,"output_length":1}\n' "$i"
done >"$TMP/t.jsonl"

test_expect_success 'trace files default to sequential' '
	$G --input-file t.jsonl --num-sessions 6 >a && convs a >got &&
	printf "s1 s2 s3 s4 s1 s2 " >expect && test_cmp expect got &&
	$G --input-file t.jsonl --num-sessions 6 \
		--dataset-sampling-strategy sequential >b && test_cmp a b
'

test_expect_success 'trace files: shuffle and random on request' '
	$G --input-file t.jsonl --num-sessions 8 --dataset-sampling-strategy shuffle >out &&
	convs out | tr " " "\n" | sed "/^$/d" >ids &&
	sed -n 1,4p ids | sort | tr "\n" " " >got &&
	printf "s1 s2 s3 s4 " >expect && test_cmp expect got &&
	sed -n 5,8p ids | sort | tr "\n" " " >got && test_cmp expect got &&
	test "$(sed -n 1,4p ids | tr "\n" " ")" != "s1 s2 s3 s4 " &&
	$G --input-file t.jsonl --num-sessions 8 --dataset-sampling-strategy random >out &&
	convs out >got &&
	python3 -c "
import hashlib, random
s = int.from_bytes(hashlib.sha256(b\"42:dataset.sampler.random\").digest()[:8], \"big\")
r = random.Random(s)
print(\" \".join(\"s%d\" % r.choice(range(1, 5)) for _ in range(8)), end=\" \")
" >expect && test_cmp expect got
'

test_expect_success 'user-centric users draw their conversations with it' '
	$G --user-centric-rate 2 --num-users 2 --session-turns-mean 2 \
		--num-sessions 5 --dataset-sampling-strategy sequential >out &&
	grep "\"turn_index\":0," out >first && convs first | tr " " "\n" |
		sed "/^$/d" | sort | tr "\n" " " >got &&
	printf "0 1 2 3 4 " >expect && test_cmp expect got
'

usage_err() {
	test_expect_success "usage error: $1" "
		test_expect_code 2 $G $1 >out 2>err && test ! -s out &&
		grep -qF -- '$2' err &&
		test_expect_code 2 $G $1 --print-timing-mode >out 2>err &&
		test ! -s out && grep -qF -- '$2' err
	"
}
usage_err "--dataset-sampling-strategy bogus" \
	"aiperf-gen: invalid value for --dataset-sampling-strategy: "
usage_err "--dataset-sampling-strategy bogus" "(sequential, random, shuffle)"
usage_err "--dataset-sampling-strategy shuf_fle" "shuf_fle"
usage_err "--dataset-sampling-strategy ''" "--dataset-sampling-strategy"
usage_err "--input-file t.jsonl --fixed-schedule --dataset-sampling-strategy random" \
	"aiperf-gen: Dataset sampling strategy is not compatible with fixed schedule mode. Please remove the --dataset-sampling-strategy option."

printf '{"input_length":4,"timestamp":0}\n' >"$TMP/ts.jsonl"
usage_err "--input-file ts.jsonl --custom-dataset-type mooncake_trace --dataset-sampling-strategy sequential" \
	"Dataset sampling strategy is not compatible with fixed schedule mode."

test_expect_success 'no fixed schedule, no conflict' '
	$G --input-file ts.jsonl --custom-dataset-type mooncake_trace \
		--no-fixed-schedule --dataset-sampling-strategy random \
		--num-sessions 2 >out && test "$(wc -l <out)" -eq 2
'

test_done
