#!/bin/sh
# aiperf-gen --input-file: mooncake_trace prompts from hash ids, text_input
# and messages, sessions, fixed-schedule times and the original's errors.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

cat >"$TMP/t.jsonl" <<'T'
{"timestamp": 1000, "input_length": 20, "output_length": 5, "hash_ids": [1, 2, 3]}
{"timestamp": 1100, "input_length": 18, "output_length": 6, "hash_ids": [1, 2, 4]}

{"timestamp": 1250.5, "text_input": "hello \"there\"", "output_length": 7}
{"timestamp": 1300, "session_id": "s1", "input_length": 10}
{"session_id": "s1", "delay": 50, "input_length": 12, "output_length": 0}
{"timestamp": 1050, "session_id": "m", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}], "tools": [{"type": "function", "function": {"name": "f"}}]}
{"session_id": "s1", "timestamp": 1600, "input_length": 8}
{"session_id": "m", "timestamp": 1700, "messages": [{"role": "user", "content": "again"}]}
T

test_expect_success 'hash ids: shared ids give identical leading blocks' '
	gen --input-file t.jsonl --isl-block-size 8 | head -2 |
		jq -r ".payload.messages[0].content" >p &&
	awk -F "<[|]endoftext[|]>" "{ print NF - 1, \$2 \$3 }" p >b &&
	test $(wc -l <b) -eq 2 && test $(cut -d" " -f1 b | sort -u) = 3 &&
	test $(cut -d" " -f2- b | sort -u | wc -l) -eq 1 &&
	test "$(sed -n 1p p)" != "$(sed -n 2p p)"
'

test_expect_success 'text_input verbatim, output_length as max_tokens (0 kept)' '
	gen --input-file t.jsonl --custom-dataset-type mooncake_trace --isl-block-size 8 >r &&
	test "$(jq -r "select(.max_tokens == 7) | .payload.messages[0].content" r)" = "hello \"there\"" &&
	test "$(jq -c "select(.max_tokens == 0) | .payload.max_completion_tokens" r)" = 0 &&
	test "$(jq -c "select(.turn_index == 0 and .conversation_id == \"s1\") | has(\"max_tokens\")" r)" = false
'

test_expect_success 'messages sent verbatim with tools, no history, no max_tokens' '
	jq -c "select(.conversation_id == \"m\") | [.turn_index, .payload.messages, .payload.tools, has(\"history\")]" r >m &&
	cat >want <<-\W &&
	[0,[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}],[{"type":"function","function":{"name":"f"}}],false]
	[1,[{"role":"user","content":"again"}],null,false]
	W
	test_cmp want m
'

test_expect_success 'sessions: lines grouped by session_id in file order' '
	jq -r "[.conversation_id, .turn_index, .num_turns, (.history // false)] | @tsv" r >s &&
	cat >want <<-\W &&
	session_000000	0	1	false
	m	0	2	false
	m	1	2	false
	session_000001	0	1	false
	W
	head -4 s >got &&
	test_cmp want got &&
	grep -c "^s1	" s >n && test $(cat n) -eq 3 &&
	grep -q "^s1	2	3	true" s
'

test_expect_success 'fixed schedule (auto-enabled for mooncake_trace with timestamps): at_ns from 0 ms' '
	test "$(gen --input-file t.jsonl --custom-dataset-type mooncake_trace \
		--isl-block-size 8 --print-timing-mode)" = fixed_schedule &&
	jq -c "[.conversation_id, .turn_index, .at_ns, .delay_ns]" r >a &&
	cat >want <<-\W &&
	["session_000000",0,1000000000,null]
	["m",0,1050000000,null]
	["m",1,1700000000,650000000]
	["session_000001",0,1100000000,null]
	["session_000002",0,1250500000,null]
	["s1",0,1300000000,null]
	["s1",1,null,50000000]
	["s1",2,1600000000,300000000]
	W
	test_cmp want a
'

test_expect_success 'auto offset: zero is the first timestamp; default count = lines' '
	gen --input-file t.jsonl --isl-block-size 8 --fixed-schedule \
		--fixed-schedule-auto-offset >r2 &&
	test $(wc -l <r2) -eq 8 &&
	jq -c ".at_ns" r2 | head -2 | tr "\n" " " >a &&
	test "$(cat a)" = "0 50000000 "
'

test_expect_success 'start/end offsets: inclusive window, zero at the start offset' '
	gen --input-file t.jsonl --isl-block-size 8 --fixed-schedule \
		--fixed-schedule-start-offset 1100 --fixed-schedule-end-offset 1300 >r3 &&
	jq -c "[.conversation_id, .at_ns]" r3 >a &&
	cat >want <<-\W &&
	["session_000000",0]
	["session_000001",150500000]
	["s1",200000000]
	["s1",null]
	W
	test_cmp want a
'

test_expect_success 'explicit --request-count stops early in schedule order' '
	gen --input-file t.jsonl --isl-block-size 8 --fixed-schedule --request-count 2 >r4 &&
	jq -c "[.conversation_id, .turn_index]" r4 | tr -d "\n" >a &&
	test "$(cat a)" = "[\"session_000000\",0][\"m\",0]"
'

test_expect_success 'without a named type: detected, not fixed; sequential, wraps, trace delays' '
	test "$(gen --input-file t.jsonl --isl-block-size 8 --print-timing-mode)" = concurrency &&
	test "$(gen --input-file t.jsonl --custom-dataset-type mooncake_trace \
		--isl-block-size 8 --no-fixed-schedule --print-timing-mode)" = concurrency &&
	gen --input-file t.jsonl --isl-block-size 8 --request-count 12 >r5 &&
	jq -r ".conversation_id" r5 | uniq | tr "\n" " " >a &&
	test "$(cat a)" = "session_000000 session_000001 session_000002 s1 m session_000000 session_000001 session_000002 s1 " &&
	! grep -q at_ns r5 &&
	test "$(jq -c "select(.conversation_id == \"s1\") | .delay_ns" r5 | tr "\n" " ")" = "null 50000000 null null "
'

test_expect_success 'same seed, same bytes; .zst input reads the same' '
	gen --input-file t.jsonl --custom-dataset-type mooncake_trace --isl-block-size 8 >x1 &&
	gen --input-file t.jsonl --custom-dataset-type mooncake_trace --isl-block-size 8 >x2 &&
	cmp x1 x2 &&
	if command -v zstd >/dev/null; then
		zstd -q t.jsonl -o t.jsonl.zst &&
		gen --input-file t.jsonl.zst --custom-dataset-type mooncake_trace \
			--isl-block-size 8 >x3 && cmp x1 x3
	fi
'

test_expect_success 'block size incompatible: the original error, file:line, status 1' '
	printf "{\"input_length\": 20, \"hash_ids\": [1, 2]}\n" >bad.jsonl &&
	test_expect_code 1 gen --input-file bad.jsonl --isl-block-size 8 >/dev/null 2>err &&
	cat >want <<-\W &&
	aiperf-gen: bad.jsonl:1: Input length: 20, Hash IDs: [1, 2], Block size: 8 are not compatible. The final hash block size: 12 must be greater than 0 and less than or equal to 8.
	W
	test_cmp want err
'

bad_line() {	# line want-substring
	printf "%s\n" "$1" >b.jsonl
	st=0
	gen --input-file b.jsonl --custom-dataset-type mooncake_trace \
		>/dev/null 2>err || st=$?
	[ $st -eq 1 ] && grep -q "b.jsonl:1: $2" err && return 0
	echo "want $2 (status $st)"
	cat err
	return 1
}

test_expect_success 'line validation: the original messages' '
	bad_line "{\"output_length\": 3}" "Exactly one of .input_length., .text_input., .messages., or .payload. must be provided" &&
	bad_line "{\"input_length\": 3, \"text_input\": \"x\"}" ".input_length., .text_input., .messages., and .payload. are mutually exclusive" &&
	bad_line "{\"text_input\": \"x\", \"hash_ids\": [1]}" ".hash_ids. is only allowed when" &&
	bad_line "{\"input_length\": 3, \"tools\": [{}]}" ".tools. is only allowed when .messages. is provided" &&
	bad_line "{\"messages\": []}" ".messages. must be a non-empty list" &&
	bad_line "{\"messages\": [{\"content\": \"x\"}]}" "Each message must have a .role. key" &&
	bad_line "{\"input_length\": \"x\"}" "input_length: expected an integer" &&
	bad_line "{\"input_length\": 3" "invalid JSON"
'

test_expect_success 'messages need the chat endpoint' '
	test_expect_code 1 gen --input-file t.jsonl --isl-block-size 8 --endpoint-type completions >/dev/null 2>err &&
	grep -q "t.jsonl:7: .messages. lines need --endpoint-type chat" err
'

test_expect_success 'a session mixing messages and prompts is an error' '
	printf "%s\n" "{\"session_id\": \"a\", \"input_length\": 3}" \
		"{\"session_id\": \"a\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}" >mix.jsonl &&
	test_expect_code 1 gen --input-file mix.jsonl >/dev/null 2>err &&
	grep -q "Mixed Mooncake sessions" err
'

test_expect_success 'fixed schedule: a first turn without timestamp is an error' '
	printf "%s\n" "{\"timestamp\": 5, \"input_length\": 3}" "{\"input_length\": 4}" >nots.jsonl &&
	test_expect_code 1 gen --input-file nots.jsonl --fixed-schedule >/dev/null 2>err &&
	grep -q "nots.jsonl:2: First turn of session_000001 missing timestamp_ms" err &&
	head -1 nots.jsonl >one.jsonl &&
	test_expect_code 1 gen --input-file one.jsonl --fixed-schedule --fixed-schedule-start-offset 9 >/dev/null 2>err &&
	grep -q "No conversations with valid first-turn timestamps found" err
'

usage_err() {	# want-substring args...
	want=$1
	shift
	test_expect_code 2 gen "$@" >/dev/null 2>err && grep -q -- "$want" err
}

test_expect_success 'option validation: the original messages, status 2' '
	usage_err "Fixed schedule requires a file to be provided" --fixed-schedule &&
	usage_err "Custom dataset type requires --input-file" --custom-dataset-type mooncake_trace &&
	usage_err "^aiperf-gen: --fixed-schedule-auto-offset, --fixed-schedule-end-offset can only be used with --fixed-schedule. Either add --fixed-schedule or remove these options.$" \
		--input-file t.jsonl --fixed-schedule-auto-offset --fixed-schedule-end-offset 5 &&
	usage_err "start-offset and --fixed-schedule-auto-offset options cannot be used together" \
		--input-file t.jsonl --fixed-schedule --fixed-schedule-auto-offset --fixed-schedule-start-offset 1 &&
	usage_err "must be less than or equal to the --fixed-schedule-end-offset" \
		--input-file t.jsonl --fixed-schedule --fixed-schedule-start-offset 9 --fixed-schedule-end-offset 1 &&
	usage_err "cannot be used together" --input-file t.jsonl --fixed-schedule --no-fixed-schedule &&
	usage_err "invalid value for --custom-dataset-type" --input-file t.jsonl --custom-dataset-type nope
'

test_expect_success 'offsets with an auto-enabled schedule need --fixed-schedule (as the original)' '
	usage_err "can only be used with --fixed-schedule" --input-file t.jsonl \
		--custom-dataset-type mooncake_trace --fixed-schedule-auto-offset
'

test_expect_success 'an unrecognizable first line needs --custom-dataset-type' '
	printf "{\"prompt\": \"x\"}\n" >st.jsonl &&
	test_expect_code 1 gen --input-file st.jsonl >/dev/null 2>err &&
	grep -q "cannot infer the dataset type" err
'

test_expect_success 'a mooncake file named single_turn is read as one (as the original)' '
	test_expect_code 1 gen --input-file t.jsonl --custom-dataset-type single_turn >/dev/null 2>err &&
	grep -q "t.jsonl:1: At least one modality must be provided" err
'

# ISL: re-encode every prompt of the real mooncake sample with a tokenizer
# that has a BOS token (the block separator); the blocks never merge, and a
# slice loses at most a token where it crosses a corpus chunk join.
TRACE=$SHARED/data/mooncake/mooncake_trace.arxiv.first20.jsonl
LLAMA=$SHARED/tokenizers/llama3
if [ -f "$TRACE" ] && [ -d "$LLAMA" ] && command -v aiperf-tok >/dev/null; then
	test_expect_success 'ISL of hash-id prompts re-encodes to input_length (llama3)' '
		aiperf-gen -m m --tokenizer "$LLAMA" --random-seed 3 --input-file "$TRACE" \
			--custom-dataset-type mooncake_trace >r6 &&
		test $(wc -l <r6) -eq 20 &&
		jq -c ".payload.messages[0].content" r6 |
			aiperf-tok --tokenizer "$LLAMA" --json --count >n &&
		jq -r "[.input_length, (.hash_ids | length)] | @tsv" "$TRACE" | paste n - |
			awk "{ d = \$1 - \$2; if (d > 1 || d < -(2 + \$3 / 8)) bad++ } END { exit bad > 0 }"
	'
else
	test_skip 'ISL of hash-id prompts re-encodes to input_length (llama3)' \
		"no ../shared mooncake sample or llama3 tokenizer"
fi

test_done
