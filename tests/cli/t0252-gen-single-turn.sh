#!/bin/sh
# aiperf-gen --input-file with single_turn records (the original's
# SingleTurn): text and texts, role, output_length, session_id grouping
# without history, delays, timestamps and the fixed schedule.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

cat >"$TMP/st.jsonl" <<'T'
{"text": "What is deep learning?", "output_length": 5}
{"texts": ["Who are you?", "Hello world"], "role": "system"}

{"texts": [{"name": "a", "contents": ["x", ""]}, {"name": "b", "contents": ["y"]}], "session_id": "s1", "delay": 20}
{"text": "second of s1", "session_id": "s1", "delay": 30.5, "extra_field": [1]}
{"type": "single_turn", "text": "typed", "timestamp": null, "delay": null, "role": null}
T

test_expect_success 'one line, one conversation; lines with a session_id form one, in file order' '
	gen --input-file st.jsonl --request-count 5 >out &&
	jq -r "[.conversation_id, .turn_index, .num_turns] | @tsv" out >got &&
	printf "%s\t%s\t%s\n" session_000000 0 1 session_000001 0 1 s1 0 2 s1 1 2 \
		session_000002 0 1 >want &&
	test_cmp want got
'

test_expect_success 'text is the content; texts (strings or {name, contents}) are parts; role kept' '
	jq -c ".payload.messages" out >got &&
	cat >want <<-\EOF &&
	[{"role":"user","content":"What is deep learning?"}]
	[{"role":"system","content":[{"type":"text","text":"Who are you?"},{"type":"text","text":"Hello world"}]}]
	[{"role":"user","content":[{"type":"text","text":"x"},{"type":"text","text":"y"}]}]
	[{"role":"user","content":"second of s1"}]
	[{"role":"user","content":"typed"}]
	EOF
	test_cmp want got
'

test_expect_success 'output_length sets max_tokens for its line only; --osl fills the others' '
	jq -c "[.max_tokens, .payload.max_completion_tokens]" out >got &&
	printf "%s\n" "[5,5]" "[null,null]" "[null,null]" "[null,null]" "[null,null]" >want &&
	test_cmp want got &&
	gen --input-file st.jsonl --request-count 5 --osl 9 | jq -c .max_tokens >got &&
	printf "%s\n" 5 9 9 9 9 >want &&
	test_cmp want got
'

test_expect_success 'a session is replayed without history; a later turn keeps its delay' '
	jq -c "[.history, .delay_ns]" out >got &&
	printf "%s\n" "[null,null]" "[null,null]" "[null,null]" "[null,30500000]" "[null,null]" >want &&
	test_cmp want got
'

test_expect_success 'sequential sampling wraps around the conversations' '
	gen --input-file st.jsonl --request-count 7 | jq -r .conversation_id | tail -2 >got &&
	printf "%s\n" session_000000 session_000001 >want &&
	test_cmp want got
'

test_expect_success 'completions: the texts are the prompt list' '
	gen --input-file st.jsonl --endpoint-type completions --request-count 3 |
		jq -c .payload.prompt >got &&
	printf "%s\n" "[\"What is deep learning?\"]" "[\"Who are you?\",\"Hello world\"]" "[\"x\",\"y\"]" >want &&
	test_cmp want got
'

cat >"$TMP/ts.jsonl" <<'T'
{"timestamp": 1000, "text": "a"}
{"timestamp": 1250.5, "text": "b", "session_id": "s"}
{"timestamp": 1400, "text": "c", "session_id": "s"}
{"timestamp": 900, "text": "d"}
T

test_expect_success 'fixed schedule: timestamps are at_ns, a session keeps its gaps' '
	gen --input-file ts.jsonl --fixed-schedule >out &&
	jq -c "[.conversation_id, .at_ns, .delay_ns]" out >got &&
	cat >want <<-\EOF &&
	["session_000001",900000000,null]
	["session_000000",1000000000,null]
	["s",1250500000,null]
	["s",1400000000,149500000]
	EOF
	test_cmp want got &&
	gen --input-file ts.jsonl --fixed-schedule --fixed-schedule-auto-offset |
		jq -c .at_ns | head -1 >got && echo 0 >want && test_cmp want got
'

test_expect_success 'timestamps without --fixed-schedule: not a trace, no schedule' '
	gen --input-file ts.jsonl --print-timing-mode >got && echo concurrency >want &&
	test_cmp want got &&
	gen --input-file ts.jsonl --custom-dataset-type single_turn --print-timing-mode >got &&
	test_cmp want got
'

test_expect_success 'fixed schedule: a first turn without a timestamp is an error' '
	printf "{\"text\": \"a\"}\n" >nots.jsonl &&
	test_expect_code 1 gen --input-file nots.jsonl --fixed-schedule >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: nots.jsonl:1: First turn of session_000000 missing timestamp_ms" >want &&
	test_cmp want err
'

test_expect_success 'a delay of 0 with a timestamp is allowed (both must be truthy to clash)' '
	printf "{\"text\": \"a\", \"timestamp\": 5, \"delay\": 0}\n" >z.jsonl &&
	gen --input-file z.jsonl --request-count 1 >/dev/null
'

test_expect_success 'inputs.json holds every conversation' '
	gen --input-file st.jsonl --request-count 1 --inputs-json in.json >/dev/null &&
	jq -r ".data[].session_id" in.json >got &&
	printf "%s\n" session_000000 session_000001 s1 session_000002 >want &&
	test_cmp want got
'

test_done
