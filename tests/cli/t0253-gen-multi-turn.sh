#!/bin/sh
# aiperf-gen --input-file with multi_turn records (the original's
# MultiTurn): sessions with history, per-turn delays and timestamps, a
# leading system turn hoisted into the system message, lines sharing a
# session_id.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

cat >"$TMP/mt.jsonl" <<'T'
{"session_id": "a", "turns": [{"role": "system", "text": "Be brief."}, {"text": "hi"}, {"texts": ["more", "and more"], "delay": 50}]}
{"turns": [{"text": "solo", "output_length": 3}]}
{"type": "multi_turn", "session_id": "a", "turns": [{"text": "third", "delay": 10.25, "output_length": 7}]}
{"session_id": "sys-only", "turns": [{"role": "system", "text": "alone"}]}
{"session_id": "sys-timed", "turns": [{"role": "system", "text": "kept", "delay": 5}, {"text": "q"}]}
T

test_expect_success 'sessions: turns of lines with one session_id join, in file order' '
	gen --input-file mt.jsonl --request-count 8 >out &&
	jq -r "[.conversation_id, .turn_index, .num_turns] | @tsv" out >got &&
	printf "%s\t%s\t%s\n" a 0 3 a 1 3 a 2 3 session_000000 0 1 sys-only 0 1 \
		sys-timed 0 2 sys-timed 1 2 a 0 3 >want &&
	test_cmp want got
'

test_expect_success 'every later turn takes the history; the first carries the system message' '
	jq -c "[.history, .delay_ns, .max_tokens, .payload.messages]" out | head -7 >got &&
	cat >want <<-\EOF &&
	[null,null,null,[{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}]]
	[true,50000000,null,[{"role":"user","content":[{"type":"text","text":"more"},{"type":"text","text":"and more"}]}]]
	[true,10250000,7,[{"role":"user","content":"third"}]]
	[null,null,3,[{"role":"user","content":"solo"}]]
	[null,null,null,[{"role":"system","content":"alone"}]]
	[null,null,null,[{"role":"system","content":"kept"}]]
	[true,null,null,[{"role":"user","content":"q"}]]
	EOF
	test_cmp want got
'

test_expect_success 'the same conversation sampled again is a new session (own correlation id)' '
	jq -r "select(.conversation_id == \"a\") | .x_correlation_id" out | sort -u >c &&
	test "$(wc -l <c)" -eq 2
'

test_expect_success 'fixed schedule: every timestamped turn gets at_ns, gaps as delays' '
	cat >fs.jsonl <<-\EOF &&
	{"session_id": "x", "turns": [{"timestamp": 100, "text": "a"}, {"timestamp": 350, "text": "b"}, {"text": "c", "delay": 40}]}
	{"session_id": "y", "turns": [{"timestamp": 50, "text": "d"}]}
	EOF
	gen --input-file fs.jsonl --fixed-schedule --request-count 4 |
		jq -c "[.conversation_id, .at_ns, .delay_ns, .history]" >got &&
	cat >want <<-\EOF &&
	["y",50000000,null,null]
	["x",100000000,null,null]
	["x",350000000,250000000,true]
	["x",null,40000000,true]
	EOF
	test_cmp want got
'

test_expect_success 'completions: turns are sent as prompts, no history' '
	gen --input-file mt.jsonl --endpoint-type completions --request-count 2 |
		jq -c "[.history, .payload.prompt]" >got &&
	printf "%s\n" "[null,[\"hi\"]]" "[null,[\"more\",\"and more\"]]" >want &&
	test_cmp want got
'

test_expect_success 'the usage guide'"'"'s recipe: a shared system prompt and a user context per session' '
	cat >sys.jsonl <<-\EOF &&
	{"session_id": "a", "turns": [{"text": "hi"}, {"text": "more", "delay": 10}]}
	{"session_id": "b", "turns": [{"text": "yo"}]}
	EOF
	gen --input-file sys.jsonl --custom-dataset-type multi_turn --shared-system-prompt-length 5 \
		--user-context-prompt-length 3 --num-dataset-entries 2 --request-count 3 >rec &&
	jq -c "[.payload.messages[] | .role]" rec >got &&
	printf "%s\n" "[\"system\",\"user\",\"user\"]" "[\"user\"]" \
		"[\"system\",\"user\",\"user\"]" >want && test_cmp want got &&
	test "$(jq -r "select(.turn_index == 0) | .payload.messages[0].content" rec | sort -u | wc -l)" -eq 1 &&
	test "$(jq -r "select(.turn_index == 0) | .payload.messages[1].content" rec | sort -u | wc -l)" -eq 2 &&
	jq -r "select(.turn_index == 0) | .payload.messages[2].content" rec >texts &&
	printf "hi\nyo\n" >want && test_cmp want texts
'

test_expect_success 'the mock replays it through aiperf profile, history and all' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --input-file mt.jsonl \
		--custom-dataset-type multi_turn --request-count 7 --random-seed 1 \
		--artifact-dir art >log 2>&1 &&
	jq -e ".request_count.avg == 7 and (.error_request_count.avg // 0) == 0" \
		art/profile_export_aiperf.json >/dev/null
'

test_done
