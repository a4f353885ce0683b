#!/bin/sh
# aiperf-gen: the dataset type of --input-file, as the original's
# _infer_type: --custom-dataset-type, else the first non-empty line's
# "type" when it names a dataset type, else the one loader whose can_load
# takes the line; a directory is a random_pool, a CSV with BurstGPT's
# columns a burst_gpt_trace.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

# kind FILE: the type aiperf-gen read FILE as, told by its records
kind() {
	gen --input-file "$1" --request-count 1 --inputs-json k.json >k.out 2>k.err || {
		cat k.err >&2
		return 1
	}
	jq -r ".data[0].session_id" k.json
}

test_expect_success 'structural detection, from the first non-empty line' '
	printf "\n  \n{\"text\": \"a\", \"session_id\": \"st\"}\n{\"text\": \"b\", \"turns\": []}\n" >single.jsonl &&
	test "$(kind single.jsonl)" = st &&
	printf "{\"session_id\": \"mt\", \"turns\": [{\"text\": \"a\"}]}\n" >multi.jsonl &&
	test "$(kind multi.jsonl)" = mt &&
	printf "{\"session_id\": \"mc\", \"input_length\": 5}\n" >mooncake.jsonl &&
	test "$(kind mooncake.jsonl)" = mc &&
	printf "{\"chat_id\": 42, \"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"type\": \"text\"}\n" >bailian.jsonl &&
	test "$(kind bailian.jsonl)" = 42 &&
	printf "Timestamp,Request tokens,Response tokens\n1,5,1\n" >burst.csv &&
	test "$(kind burst.csv)" = session_000000
'

test_expect_success 'an explicit type field picks the loader' '
	printf "{\"type\": \"single_turn\", \"text\": \"a\", \"session_id\": \"t1\"}\n" >t1.jsonl &&
	test "$(kind t1.jsonl)" = t1 &&
	printf "{\"type\": \"multi_turn\", \"session_id\": \"t2\", \"turns\": [{\"text\": \"a\"}]}\n" >t2.jsonl &&
	test "$(kind t2.jsonl)" = t2 &&
	printf "{\"type\": \"mooncake_trace\", \"session_id\": \"t3\", \"text_input\": \"a\"}\n" >t3.jsonl &&
	test "$(kind t3.jsonl)" = t3 &&
	printf "{\"type\": \"random_pool\", \"text\": \"a\"}\n" >t4.jsonl &&
	gen --input-file t4.jsonl --request-count 1 --inputs-json k.json >/dev/null &&
	test "$(jq ".data | length" k.json)" = 100
'

test_expect_success 'an explicit type its loader cannot take: the original message' '
	printf "{\"type\": \"multi_turn\", \"text\": \"a\"}\n" >x.jsonl &&
	test_expect_code 1 gen --input-file x.jsonl >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: x.jsonl: Explicit type field multi_turn specified, but its loader cannot handle the data format. Please specify --custom-dataset-type explicitly." >want &&
	test_cmp want err
'

test_expect_success 'two loaders take the line: the original message' '
	printf "{\"text\": \"a\", \"input_length\": 3}\n" >x.jsonl &&
	test_expect_code 1 gen --input-file x.jsonl >out 2>err &&
	echo "aiperf-gen: x.jsonl: Multiple loaders can handle the data format: single_turn and mooncake_trace. Please specify --custom-dataset-type explicitly." >want &&
	test_cmp want err &&
	gen --input-file x.jsonl --custom-dataset-type single_turn --request-count 1 >/dev/null &&
	gen --input-file x.jsonl --custom-dataset-type mooncake_trace --request-count 1 >/dev/null
'

test_expect_success 'no loader takes the line: the original message; a turn'"'"'s fields say why' '
	for l in "{\"prompt\": \"x\"}" "[1, 2]" "not json" "{\"type\": \"text\"}"; do
		printf "%s\n" "$l" >x.jsonl &&
		test_expect_code 1 gen --input-file x.jsonl >out 2>err &&
		test ! -s out &&
		grep -q "^aiperf-gen: cannot infer the dataset type of .x.jsonl. from its first line: No loader can handle the data format. Please specify --custom-dataset-type explicitly.$" err ||
		return 1
	done &&
	printf "{\"text\": \"a\", \"delay\": \"soon\"}\n" >x.jsonl &&
	test_expect_code 1 gen --input-file x.jsonl >out 2>err &&
	echo "aiperf-gen: x.jsonl:1: delay: expected a number" >want && test_cmp want err &&
	printf "\n{\"turns\": [{\"text\": \"a\"}, {}]}\n" >x.jsonl &&
	test_expect_code 1 gen --input-file x.jsonl >out 2>err &&
	echo "aiperf-gen: x.jsonl:2: turns[1]: At least one modality must be provided" >want &&
	test_cmp want err
'

test_expect_success 'a directory is a random_pool; --custom-dataset-type names any type' '
	mkdir d && printf "{\"text\": \"a\"}\n" >d/a.jsonl &&
	gen --input-file d --request-count 1 --inputs-json k.json >/dev/null &&
	test "$(jq ".data | length" k.json)" = 100 &&
	test_expect_code 2 gen --input-file d --custom-dataset-type nope >out 2>err &&
	grep -q "invalid value for --custom-dataset-type: .nope. (mooncake_trace, single_turn, multi_turn, random_pool, bailian_trace, burst_gpt_trace, raw_payload, inputs_json, sagemaker_data_capture, dag_jsonl, speed_bench_qualitative, speed_bench_coding, .*, speed_bench_throughput_32k_high_entropy)" err &&
	test_expect_code 1 gen --input-file d --custom-dataset-type single_turn >out 2>err &&
	grep -q "cannot open .d.: Is a directory" err
'

test_expect_success 'the sampling strategy follows the type: sequential files, shuffled pools' '
	gen --input-file single.jsonl --print-timing-mode >/dev/null &&
	printf "{\"text\": \"a\", \"session_id\": \"%s\"}\n" 0 1 2 3 4 5 6 7 >seq.jsonl &&
	gen --input-file seq.jsonl --request-count 8 | jq -r .conversation_id | tr -d "\n" >got &&
	test "$(cat got)" = 01234567 &&
	gen --input-file seq.jsonl --request-count 8 --dataset-sampling-strategy shuffle |
		jq -r .conversation_id | sort | tr -d "\n" >got &&
	test "$(cat got)" = 01234567
'

test_done
