#!/bin/sh
# The SPEED-Bench custom dataset types (issue #31): each of the 32
# speed_bench_* types over a directory prepared as the tutorial prepares
# it (qualitative.jsonl, throughput_{1k..32k}.jsonl), its records against
# tests/public/ref-speedbench.py (the original's SpeedBenchLoader in
# Python); a file given itself; inference from the file's name; hostile
# rows; --public-dataset with one of the names.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

SB="$TOP/tests/data/speedbench"
REF="$TOP/tests/public/ref-speedbench.py"
export SB REF

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 5 "$@"
}

# A record as the reference prints a turn.
project() {
	jq -c "{conversation_id, turn_index, num_turns,
		role: .payload.messages[-1].role, content: .payload.messages[-1].content}"
}

TYPES="speed_bench_qualitative"
for c in coding humanities math multilingual qa rag reasoning roleplay stem \
	summarization writing; do
	TYPES="$TYPES speed_bench_$c"
done
for k in 1k 2k 8k 16k 32k; do
	TYPES="$TYPES speed_bench_throughput_$k"
	for t in low_entropy mixed high_entropy; do
		TYPES="$TYPES speed_bench_throughput_${k}_$t"
	done
done
export TYPES

test_expect_success 'the 32 types, each over the directory: the loader'\''s conversations, turn by turn' '
	n=0 &&
	for t in $TYPES; do
		python3 "$REF" "$t" "$SB" | jq -c . >want &&
		test -s want &&
		gen --input-file "$SB" --custom-dataset-type "$t" \
			--request-count "$(wc -l <want)" >out &&
		project <out >got &&
		test_cmp want got || { echo "type $t" >&2; exit 1; }
		n=$((n + 1))
	done &&
	test "$n" -eq 32
'

test_expect_success 'a split of one category: its rows alone, a repeated question_id one conversation' '
	gen --input-file "$SB" --custom-dataset-type speed_bench_coding \
		--request-count 4 >out &&
	jq -r "[.conversation_id, .turn_index, .num_turns, (.history // false)] | @tsv" out >got &&
	printf "%s\t%s\t%s\t%s\n" \
		4794085fefc229c154f8234a0f9dafe6 0 2 false \
		4794085fefc229c154f8234a0f9dafe6 1 2 true \
		61cbb5e3aded79fd681bb01dbff17fa9 0 2 false \
		61cbb5e3aded79fd681bb01dbff17fa9 1 2 true >want &&
	test_cmp want got
'

test_expect_success 'every message a turn, its role kept (system and assistant too)' '
	gen --input-file "$SB" --custom-dataset-type speed_bench_math --osl 9 \
		--request-count 6 >out &&
	jq -c "select(.num_turns == 4) | [.turn_index, .payload.messages, .max_tokens]" \
		out >got &&
	cat >want <<-\EOF &&
	[0,[{"role":"system","content":"You are a careful mathematician."}],9]
	[1,[{"role":"user","content":"What is 17 * 23?"}],9]
	[2,[{"role":"assistant","content":"391"}],9]
	[3,[{"role":"user","content":"And 17 * 24?"}],9]
	EOF
	test_cmp want got
'

test_expect_success 'sent: each turn after the earlier turns of its question (aiperf-send'\''s history)' '
	gen --input-file "$SB" --custom-dataset-type speed_bench_math --request-count 5 |
		aiperf-send -u "$MOCK_URL" >raw &&
	jq -r ".responses[-1].text" raw | jq -rs "map(.choices[0].message.content)[]" >replies &&
	test "$(grep -c . replies)" -eq 5 &&
	jq -c "[.payload.messages[] | .role + \": \" +
		(if .role == \"assistant\" and .content != \"391\" then \"(reply)\" else .content end)]" \
		raw >got &&
	cat >want <<-\EOF &&
	["user: math question one: explain item 2."]
	["system: You are a careful mathematician."]
	["system: You are a careful mathematician.","assistant: (reply)","user: What is 17 * 23?"]
	["system: You are a careful mathematician.","assistant: (reply)","user: What is 17 * 23?","assistant: (reply)","assistant: 391"]
	["system: You are a careful mathematician.","assistant: (reply)","user: What is 17 * 23?","assistant: (reply)","assistant: 391","assistant: (reply)","user: And 17 * 24?"]
	EOF
	test_cmp want got
'

test_expect_success 'a file given itself, whatever its name, with the type named' '
	cp "$SB/throughput_8k.jsonl" mine.jsonl &&
	python3 "$REF" speed_bench_throughput_8k_mixed mine.jsonl | jq -c . >want &&
	test "$(wc -l <want)" -eq 2 &&
	gen --input-file mine.jsonl --custom-dataset-type speed_bench_throughput_8k_mixed \
		--request-count 2 | project >got &&
	test_cmp want got
'

test_expect_success 'without a type: a split file is claimed by several loaders, another name by none' '
	cp "$SB/qualitative.jsonl" qualitative.jsonl &&
	test_expect_code 1 gen --input-file qualitative.jsonl --request-count 1 2>err &&
	grep -q "qualitative.jsonl: Multiple loaders can handle the data format: speed_bench_qualitative and speed_bench_coding. Please specify --custom-dataset-type explicitly." err &&
	cp "$SB/throughput_16k.jsonl" throughput_16k.jsonl &&
	test_expect_code 1 gen --input-file throughput_16k.jsonl --request-count 1 2>err &&
	grep -q "Multiple loaders can handle the data format: speed_bench_throughput_16k and speed_bench_throughput_16k_low_entropy" err &&
	cp "$SB/qualitative.jsonl" other.jsonl &&
	test_expect_code 1 gen --input-file other.jsonl --request-count 1 2>err &&
	grep -q "No loader can handle the data format" err
'

test_expect_success 'a row whose "type" names one: taken when the file is its split' '
	mkdir -p typed &&
	head -1 "$SB/qualitative.jsonl" | jq -c ". + {type: \"speed_bench_coding\"}" >typed/qualitative.jsonl &&
	gen --input-file typed/qualitative.jsonl --request-count 1 >out &&
	test "$(jq -r .conversation_id out)" = 4794085fefc229c154f8234a0f9dafe6 &&
	cp typed/qualitative.jsonl typed/throughput_1k.jsonl &&
	test_expect_code 1 gen --input-file typed/throughput_1k.jsonl --request-count 1 2>err &&
	grep -q "Explicit type field speed_bench_coding specified, but its loader cannot handle" err
'

ID=0123456789abcdef0123456789abcdef
export ID

test_expect_success 'hostile rows: the line and what SpeedBenchRow says of it' '
	ok="{\"question_id\":\"$ID\",\"category\":\"qa\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}" &&
	P="FULL BENCHMARK DATA SHOULD BE FETCHED FROM THE SOURCE USING SPECDEC_BENCH" &&
	while IFS="|" read -r row why; do
		printf "%s\n%s\n" "$ok" "$row" >bad.jsonl &&
		test_expect_code 1 gen --input-file bad.jsonl \
			--custom-dataset-type speed_bench_qualitative --request-count 1 >out 2>err &&
		grep -qF "bad.jsonl:2: $why" err || { cat err; exit 1; }
		test ! -s out
	done <<-EOF
	{"question_id":"short","category":"qa","messages":[{"role":"user","content":"q"}]}|question_id: String should have at least 32 characters
	{"question_id":"${ID}x","category":"qa","messages":[{"role":"user","content":"q"}]}|question_id: String should have at most 32 characters
	{"question_id":12,"category":"qa","messages":[{"role":"user","content":"q"}]}|question_id: Input should be a valid string
	{"question_id":"$ID","category":"","messages":[{"role":"user","content":"q"}]}|category: String should have at least 1 character
	{"question_id":"$ID","category":"qa"}|messages: Field required
	{"question_id":"$ID","category":"qa","messages":[]}|messages: List should have at least 1 item
	{"question_id":"$ID","category":"qa","messages":["q"]}|messages.0: Input should be a valid dictionary
	{"question_id":"$ID","category":"qa","messages":[{"role":"  ","content":"q"}]}|Value error, messages must be a non-empty list
	{"question_id":"$ID","category":"qa","messages":[{"role":"user","content":"$P"}]}|Value error, messages must be a non-empty list of dictionaries with role and content fields, and the content must not be the placeholder string
	{"question_id":"$ID","category":"qa","messages":[{"role":"user"}]}|Value error, messages must be
	[1,2]|Input should be a valid dictionary
	{"question_id":"$ID",|Invalid JSON in dataset file
	EOF
'

test_expect_success 'a directory without the split file, an empty file, a category no row has' '
	mkdir -p empty &&
	test_expect_code 1 gen --input-file empty --custom-dataset-type speed_bench_math \
		--request-count 1 2>err &&
	grep -q "cannot open '\''empty/qualitative.jsonl'\''" err &&
	printf "\n  \n" >empty/throughput_2k.jsonl &&
	test_expect_code 1 gen --input-file empty --custom-dataset-type speed_bench_throughput_2k \
		--request-count 1 2>err &&
	grep -q "'\''empty/throughput_2k.jsonl'\'' has no records" err &&
	gen --input-file "$SB/throughput_1k.jsonl" --custom-dataset-type speed_bench_coding \
		--request-count 1 >out 2>err &&
	grep -q "SPEED-Bench category filter '\''coding'\'' matched no rows in .*throughput_1k.jsonl. Verify the configured category exists in this dataset." err &&
	test ! -s out
'

test_expect_success '--public-dataset with a SPEED-Bench name: what to give instead' '
	test_expect_code 2 gen --public-dataset speed_bench_writing --request-count 1 2>err &&
	grep -q "^aiperf-gen: --public-dataset speed_bench_writing: speed_bench_writing is a custom dataset type, not a public dataset: .*--input-file DIR --custom-dataset-type speed_bench_writing" err
'

test_done
