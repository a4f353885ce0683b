#!/bin/sh
# aiperf-gen reads bailian_trace JSONL and BurstGPT CSV files directly:
# sessions from parent_chat_id chains, seconds to ms, 16-token blocks,
# rows without history; BurstGPT rows one session each, bad rows skipped.
# The same files through aiperf-trace convert give the same schedule.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

cat >"$TMP/bl.jsonl" <<'T'
{"chat_id": 159, "parent_chat_id": -1, "timestamp": 61.114, "input_length": 40, "output_length": 13, "type": "text", "turn": 1, "hash_ids": [1089, 1090, 1091]}
{"chat_id": 7, "timestamp": 61.5, "input_length": 20, "output_length": 5, "type": "search", "hash_ids": [5, 6]}
{"chat_id": 161, "parent_chat_id": 160, "timestamp": 63.0, "input_length": 50, "output_length": 8, "type": "text", "turn": 3, "hash_ids": [1089, 1090, 1091, 1092]}

{"chat_id": 160, "parent_chat_id": 159, "timestamp": 62.5, "input_length": 45, "output_length": 8, "type": "text", "turn": 2, "hash_ids": [1089, 1090, 1091]}
{"chat_id": 900, "parent_chat_id": 901, "timestamp": 64, "input_length": 16, "output_length": 1, "turn": 1}
{"chat_id": 901, "parent_chat_id": 900, "timestamp": 65, "input_length": 16, "output_length": 1, "turn": 1}
T

test_expect_success 'bailian: sessions are the chains of parent_chat_id, turns sorted by turn' '
	gen --input-file bl.jsonl --custom-dataset-type bailian_trace >out &&
	jq -c "[.conversation_id, .turn_index, .at_ns, .delay_ns, .history, .max_tokens]" out >got &&
	cat >want <<-\EOF &&
	["159",0,61114000000,null,null,13]
	["159",1,62500000000,1386000000,null,8]
	["159",2,63000000000,500000000,null,8]
	["7",0,61500000000,null,null,5]
	["900",0,64000000000,null,null,1]
	["900",1,65000000000,1000000000,null,1]
	EOF
	test_cmp want got
'

test_expect_success 'bailian: 16-token blocks, shared ids share text' '
	jq -r "select(.conversation_id == \"159\") | .payload.messages[0].content" out >p &&
	test "$(sed -n 1p p)" = "$(sed -n 2p p)" &&
	case "$(sed -n 3p p)" in "$(sed -n 1p p)"*) ;; *) false ;; esac
'

test_expect_success 'bailian: a type is inferred from the fields; its "type" is the request type' '
	gen --input-file bl.jsonl --print-timing-mode >got && echo concurrency >want &&
	test_cmp want got &&
	gen --input-file bl.jsonl --custom-dataset-type bailian_trace --print-timing-mode >got &&
	echo fixed_schedule >want && test_cmp want got &&
	gen --input-file bl.jsonl --request-count 2 | jq -r .conversation_id >got &&
	printf "%s\n" 159 159 >want && test_cmp want got
'

test_expect_success 'bailian: the schedule aiperf-trace convert gives (auto offset)' '
	aiperf-trace convert --from bailian --no-rebase bl.jsonl >conv.jsonl &&
	gen --input-file conv.jsonl --custom-dataset-type mooncake_trace --isl-block-size 16 \
		--fixed-schedule-auto-offset | jq -c "[.conversation_id, .at_ns, .max_tokens]" >a &&
	gen --input-file bl.jsonl --custom-dataset-type bailian_trace \
		--fixed-schedule-auto-offset | jq -c "[.conversation_id, .at_ns, .max_tokens]" >b &&
	test_cmp a b
'

test_expect_success 'bailian: a line without its fields is an error, nothing written' '
	printf "%s\n" "{\"chat_id\": 1, \"timestamp\": 1, \"input_length\": 3, \"output_length\": 1}" \
		"{\"chat_id\": 2, \"timestamp\": \"soon\", \"input_length\": 3, \"output_length\": 1}" >b.jsonl &&
	test_expect_code 1 gen --input-file b.jsonl --custom-dataset-type bailian_trace >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: b.jsonl:2: timestamp: expected a number" >want &&
	test_cmp want err &&
	printf "%s\n" "{\"chat_id\": 1, \"timestamp\": 1, \"input_length\": 3}" >c.jsonl &&
	test_expect_code 1 gen --input-file c.jsonl --custom-dataset-type bailian_trace >out 2>err &&
	grep -q "c.jsonl:1: not a bailian_trace record" err
'

cat >"$TMP/burst.csv" <<'T'
Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type
5,ChatGPT,47,175,222,Conversation log
6.5,GPT-4,20,10,30,API log
bad,GPT-4,20,10,30,API log
7," GPT,4 ", 30 ,0,30,API log
8,GPT-4,1.5,0,30,API log
T

test_expect_success 'BurstGPT: the header names the columns; a row is a session; bad rows skipped' '
	gen --input-file burst.csv --custom-dataset-type burst_gpt_trace >out &&
	jq -c "[.conversation_id, .at_ns, .max_tokens]" out >got &&
	cat >want <<-\EOF &&
	["session_000000",5000000000,175]
	["session_000001",6500000000,10]
	["session_000002",7000000000,0]
	EOF
	test_cmp want got
'

test_expect_success 'BurstGPT: inferred from the header (no schedule unless named)' '
	gen --input-file burst.csv --request-count 4 | jq -r .conversation_id >got &&
	printf "%s\n" session_000000 session_000001 session_000002 session_000000 >want &&
	test_cmp want got
'

test_expect_success 'BurstGPT: the same schedule as aiperf-trace convert' '
	aiperf-trace convert --from burstgpt --no-rebase burst.csv >conv.jsonl &&
	gen --input-file conv.jsonl --custom-dataset-type mooncake_trace |
		jq -c "[.at_ns, .max_tokens]" >a &&
	jq -c "[.at_ns, .max_tokens]" out >b &&
	test_cmp a b
'

test_expect_success 'BurstGPT: a missing column is an error' '
	printf "Timestamp,Request tokens\n1,2\n" >b2.csv &&
	test_expect_code 1 gen --input-file b2.csv --custom-dataset-type burst_gpt_trace >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: b2.csv:1: Missing required column '"'"'Response tokens'"'"'" >want &&
	test_cmp want err
'

test_done
