#!/bin/sh
# aiperf-gen and aiperf profile on a trace file with no records (empty,
# blank or white-space lines only): a prompt error, never a spinning emit
# loop (issue 9).
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

: >"$TMP/empty.jsonl"
printf '\n\n\n' >"$TMP/blank.jsonl"
printf '  \n\t\n \r\n\f\v\n   ' >"$TMP/space.jsonl"

# gen_fails FILE [options]: exits 1 at once, naming the file
gen_fails() {
	f=$1
	shift
	test_expect_code 1 timeout -k 2 10 aiperf-gen -m m --tokenizer builtin \
		--random-seed 1 --input-file "$f" "$@" >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: '$f' has no records" >expect &&
	test_cmp expect err
}

for f in empty blank space; do
	test_expect_success "aiperf-gen: $f file, mooncake_trace" "
		gen_fails $f.jsonl --custom-dataset-type mooncake_trace
	"
	test_expect_success "aiperf-gen: $f file, type inferred" "
		gen_fails $f.jsonl
	"
done

test_expect_success 'aiperf-gen: empty file with the other timing modes' '
	gen_fails empty.jsonl --custom-dataset-type mooncake_trace --fixed-schedule &&
	gen_fails blank.jsonl --custom-dataset-type mooncake_trace \
		--user-centric-rate 1 --num-users 2 --session-turns-mean 2 &&
	gen_fails space.jsonl --request-rate 5 --warmup-request-count 3 &&
	gen_fails empty.jsonl --print-timing-mode
'

for f in empty blank space; do
	test_expect_success "aiperf profile: $f file fails before any run" "
		test_expect_code 1 timeout -k 2 10 aiperf profile -m m \
			--url http://127.0.0.1:9 --tokenizer builtin \
			--input-file $f.jsonl --custom-dataset-type mooncake_trace \
			>out 2>err &&
		grep -qx \"aiperf-gen: '$f.jsonl' has no records\" err &&
		test ! -e artifacts
	"
done

test_done
