#!/bin/sh
# aiperf-gen --print-timing-mode (what aiperf profile runs before writing
# anything) rejects what a real run rejects before its first record, with
# the same message and status: a tokenizer that does not load, an
# unreadable or blank corpus, an unreadable, empty or malformed input file
# (its first record), and bad option combinations.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --corpus $CORPUS --isl 8 --num-dataset-entries 2 --random-seed 1"
# no hub: an unknown id fails at once
export HF_HUB_OFFLINE=1 HF_HUB_CACHE="$TMP/hub"

# both_fail CODE 'MESSAGE' OPTIONS: a real run and --print-timing-mode
# both exit CODE with MESSAGE (a line of stderr) and write nothing.
# shellcheck disable=SC2086 # $G is words
both_fail() {
	code=$1 msg=$2
	shift 2
	test_expect_code "$code" $G "$@" --request-count 1 >out 2>err &&
	test ! -s out && printf '%s\n' "$msg" >expect && grep -xF -f expect err &&
	test_expect_code "$code" $G "$@" --print-timing-mode >out 2>err &&
	test ! -s out && grep -xF -f expect err
}

test_expect_success 'a tokenizer path that does not exist' '
	both_fail 1 "aiperf-gen: cannot load tokenizer '\''$TMP/nope'\'': cannot open tokenizer '\''$TMP/nope'\'': No such file or directory" \
		--tokenizer "$TMP/nope"
'

test_expect_success 'a tokenizer name that is not in the cache, hub off limits' '
	both_fail 1 "aiperf-gen: cannot load tokenizer '\''no-org/no-model'\'': '\''no-org/no-model'\'' (revision main) is not in the HuggingFace cache '\''$TMP/hub'\'' and the hub is off limits (HF_HUB_OFFLINE): use --tokenizer builtin or a local path" \
		--tokenizer no-org/no-model
'

test_expect_success 'the model name is the tokenizer by default' '
	test_expect_code 1 aiperf-gen -m no-org/no-model --print-timing-mode >out 2>err &&
	test ! -s out && grep -q "cannot load tokenizer '\''no-org/no-model'\''" err
'

test_expect_success 'a malformed tokenizer file' '
	printf "{\"model\": 3}\n" >tokenizer.json &&
	test_expect_code 1 $G --tokenizer tokenizer.json --request-count 1 >out 2>err1 &&
	test_expect_code 1 $G --tokenizer tokenizer.json --print-timing-mode >out 2>err2 &&
	test ! -s out && grep -q "^aiperf-gen: cannot load tokenizer '\''tokenizer.json'\''" err2 &&
	test_cmp err1 err2
'

test_expect_success 'the corpus: missing, blank' '
	both_fail 1 "aiperf-gen: cannot read corpus '\''nope.txt'\'': No such file or directory" \
		--tokenizer builtin --corpus nope.txt &&
	printf "  \n\t\n\n" >blank.txt &&
	both_fail 1 "aiperf-gen: corpus '\''blank.txt'\'' has no tokens" \
		--tokenizer builtin --corpus blank.txt
'

T="--tokenizer builtin --custom-dataset-type mooncake_trace"

test_expect_success 'an input file that cannot be read' '
	both_fail 1 "aiperf-gen: cannot open '\''nope.jsonl'\'': No such file or directory" \
		$T --input-file nope.jsonl &&
	mkdir dir.jsonl &&
	both_fail 1 "aiperf-gen: cannot open '\''dir.jsonl'\'': Is a directory" \
		$T --input-file dir.jsonl
'

test_expect_success 'an input file without records' '
	printf "\n \n" >empty.jsonl &&
	both_fail 1 "aiperf-gen: '\''empty.jsonl'\'' has no records" $T --input-file empty.jsonl
'

test_expect_success 'a first line that is not JSON' '
	printf "\n{\"input_length\": 4,\n" >bad.jsonl &&
	test_expect_code 1 $G $T --input-file bad.jsonl --print-timing-mode >out 2>err &&
	test ! -s out && grep -q "^aiperf-gen: bad.jsonl:2: invalid JSON" err &&
	test_expect_code 1 $G $T --input-file bad.jsonl >out 2>err2 && test_cmp err err2
'

test_expect_success 'a first line the MooncakeTrace validators reject' '
	printf "{\"input_length\": 4, \"text_input\": \"hi\"}\n" >two.jsonl &&
	both_fail 1 "aiperf-gen: two.jsonl:1: '\''input_length'\'', '\''text_input'\'', '\''messages'\'', and '\''payload'\'' are mutually exclusive. Use only one of them." \
		$T --input-file two.jsonl &&
	printf "{\"input_length\": \"4\"}\n" >type.jsonl &&
	both_fail 1 "aiperf-gen: type.jsonl:1: input_length: expected an integer" \
		$T --input-file type.jsonl &&
	printf "{\"text_input\": \"hi\", \"hash_ids\": [1]}\n" >hash.jsonl &&
	both_fail 1 "aiperf-gen: hash.jsonl:1: '\''hash_ids'\'' is only allowed when '\''input_length'\'' is provided, not when '\''text_input'\'', '\''messages'\'', or '\''payload'\'' are provided" \
		$T --input-file hash.jsonl
'

test_expect_success 'hash ids that do not fit the block size' '
	printf "{\"input_length\": 600, \"hash_ids\": [7]}\n" >blocks.jsonl &&
	both_fail 1 "aiperf-gen: blocks.jsonl:1: Input length: 600, Hash IDs: [7], Block size: 512 are not compatible. The final hash block size: 600 must be greater than 0 and less than or equal to 512." \
		$T --input-file blocks.jsonl &&
	$G $T --input-file blocks.jsonl --isl-block-size 600 --print-timing-mode >out &&
	echo concurrency >expect && test_cmp expect out
'

test_expect_success 'a first line the offsets drop is only parsed, as loading does' '
	printf "{\"input_length\": 600, \"hash_ids\": [7], \"timestamp\": 5}\n" >drop.jsonl &&
	printf "{\"input_length\": 4, \"timestamp\": 50}\n" >>drop.jsonl &&
	$G $T --input-file drop.jsonl --fixed-schedule-start-offset 10 \
		--fixed-schedule --print-timing-mode >out &&
	echo fixed_schedule >expect && test_cmp expect out &&
	$G $T --input-file drop.jsonl --fixed-schedule-start-offset 10 \
		--fixed-schedule >out && test "$(wc -l <out)" -eq 1
'

test_expect_success 'messages off the chat endpoint' '
	printf "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n" >m.jsonl &&
	both_fail 1 "aiperf-gen: m.jsonl:1: '\''messages'\'' lines need --endpoint-type chat" \
		$T --input-file m.jsonl --endpoint-type completions
'

test_expect_success 'fixed schedule: a first turn without a timestamp' '
	printf "{\"session_id\": \"s\", \"input_length\": 4}\n" >nots.jsonl &&
	both_fail 1 "aiperf-gen: nots.jsonl:1: First turn of s missing timestamp_ms" \
		$T --input-file nots.jsonl --fixed-schedule &&
	printf "{\"input_length\": 4}\n" >anon.jsonl &&
	both_fail 1 "aiperf-gen: anon.jsonl:1: First turn of session_000000 missing timestamp_ms" \
		$T --input-file anon.jsonl --fixed-schedule
'

test_expect_success 'a good file passes, whatever its later lines hold' '
	printf "{\"input_length\": 4, \"timestamp\": 0}\n{\"input_length\": \"x\"}\n" >late.jsonl &&
	$G $T --input-file late.jsonl --print-timing-mode >out &&
	echo fixed_schedule >expect && test_cmp expect out &&
	test_expect_code 1 $G $T --input-file late.jsonl >out 2>err &&
	grep -q "^aiperf-gen: late.jsonl:2: input_length: expected an integer" err
'

test_expect_success 'usage errors stay usage errors (status 2)' '
	test_expect_code 2 $G --tokenizer "$TMP/nope" --request-count 2 \
		--num-sessions 2 --print-timing-mode >out 2>err &&
	test ! -s out && grep -q "Both a request-count" err &&
	test_expect_code 2 $G $T --input-file nope.jsonl --fixed-schedule-auto-offset \
		--print-timing-mode >out 2>err && test ! -s out
'

test_expect_success 'valid options print the mode quickly' '
	$G --tokenizer builtin --print-timing-mode >out &&
	echo concurrency >expect && test_cmp expect out &&
	$G --tokenizer builtin --request-rate 2 --print-timing-mode >out &&
	echo request_rate >expect && test_cmp expect out
'

test_done
