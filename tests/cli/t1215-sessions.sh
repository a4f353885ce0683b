#!/bin/sh
# --shared-system-prompt-length and --user-context-prompt-length over a
# multi_turn file with --num-sessions and no --num-dataset-entries (the
# usage guide's example; 0.7 refused it, 0.11 runs it): every request sent
# (the raw export's payloads, histories included) starts with the one
# shared system prompt of the asked length, then its conversation's own
# user context prompt, one for each conversation of the file, as the
# original's _inject_context_prompts draws them in conversation order;
# sessions that replay a conversation send its context again, later turns
# keep both ahead of their history, and a seed makes them the same.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 0 --output-tokens 2 || exit 1
export MOCK_URL

cd "$TMP" || exit 1
printf '%s\n' '{"session_id": "a", "turns": [{"text": "first a"}, {"text": "more a"}]}' \
	'{"session_id": "b", "turns": [{"text": "first b"}]}' \
	'{"session_id": "c", "turns": [{"text": "first c"}, {"text": "more c"}, {"text": "last c"}]}' \
	>conversations.jsonl

# run DIR [options]: the example at small counts, its sent payloads in
# DIR.sent (one a line, in the order sent)
run() {
	d=$1
	shift
	aiperf profile --model my-model --url "$MOCK_URL" --endpoint-type chat --streaming \
		--tokenizer builtin --input-file conversations.jsonl --custom-dataset-type multi_turn \
		--shared-system-prompt-length 100 --user-context-prompt-length 20 \
		--num-sessions 9 --concurrency 3 --export-level raw --ui-type none \
		--artifact-dir "$d" "$@" >"$d.out" 2>"$d.err" || { cat "$d.err"; return 1; }
	jq -c .payload "$d/profile_export_raw.jsonl" >"$d.sent"
}

test_expect_success 'the usage guide example runs without --num-dataset-entries' '
	run r1 --random-seed 5 &&
	test "$(jq .request_count.avg r1/profile_export_aiperf.json)" -gt 9 &&
	test "$(jq ".error_request_count.avg // 0" r1/profile_export_aiperf.json)" = 0
'

test_expect_success 'every request: the shared system prompt, then its context prompt' '
	jq -e -s "all(.[]; .messages[0].role == \"system\" and .messages[1].role == \"user\")
		and (map(.messages[0].content) | unique | length == 1)" r1.sent >/dev/null &&
	jq -r ".messages[0].content" r1.sent | head -1 | aiperf-tok --tokenizer builtin --count >n &&
	test "$(cat n)" -ge 99 && test "$(cat n)" -le 101
'

test_expect_success 'one context prompt a conversation, the same for each of its sessions' '
	jq -r "[.messages[2].content, .messages[1].content] | @tsv" r1.sent | sort -u >pairs &&
	test "$(cut -f1 pairs | sort -u | wc -l)" = 3 &&
	test "$(wc -l <pairs)" = 3 &&
	test "$(cut -f2 pairs | sort -u | wc -l)" = 3 &&
	jq -r ".messages[1].content" r1.sent | head -1 | aiperf-tok --tokenizer builtin --count >n &&
	test "$(cat n)" -ge 19 && test "$(cat n)" -le 21
'

test_expect_success 'later turns: system and context ahead of the history' '
	jq -e -s "map(select(.messages | length > 3)) | length > 0 and all(.[];
		(.messages | map(.role))[0:4] == [\"system\", \"user\", \"user\", \"assistant\"])" \
		r1.sent >/dev/null
'

test_expect_success 'inputs.json: one payload list a conversation, each first turn prefixed' '
	jq -e "[.data[].payloads[0].messages] | length == 3 and
		all(.[]; map(.role)[0:2] == [\"system\", \"user\"]) and
		(map(.[1].content) | unique | length == 3)" r1/inputs.json >/dev/null
'

test_expect_success 'the same seed, the same prompts' '
	run r2 --random-seed 5 &&
	jq -r ".messages[0:2][].content" r1.sent | sort -u >a &&
	jq -r ".messages[0:2][].content" r2.sent | sort -u >b &&
	test_cmp a b
'

test_expect_success 'still exclusive with the prefix prompt pool (the original message)' '
	test_expect_code 2 aiperf profile --model my-model --url "$MOCK_URL" --tokenizer builtin \
		--user-context-prompt-length 20 --prefix-prompt-length 10 --prefix-prompt-pool-size 2 \
		--request-count 1 >out 2>err &&
	grep -q "mutually exclusive prompt configuration modes" err
'

test_done
