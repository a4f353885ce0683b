#!/bin/sh
# mooncake_trace's "payload" and "extra" (MooncakeTrace since 0.7) through
# aiperf profile, bodies as the server got them (tests/cli/body-log.py): a
# payload line's object is the body, byte for byte as a raw_payload line's,
# a session of them goes without history at the trace's times; "extra" is
# merged into a built body last; the validators' messages at file:line.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"
start_body_log || test_skip_all "the body-log server did not start"

test_expect_success 'payload lines verbatim, extra merged, at the trace times' '
	cat >mc.jsonl <<-\EOF &&
	{"payload": {"messages": [{"role": "user", "content": "Hello"}], "model": "x", "max_tokens": 50}, "timestamp": 0, "session_id": "a", "extra": {"ignored": 1}}
	{"payload": {"messages": [{"role": "user", "content": "Hello"}, {"role": "assistant", "content": "Hi"}, {"role": "user", "content": "More"}], "model": "x"}, "timestamp": 300, "session_id": "a", "output_length": 9}
	{"text_input": "Plain", "output_length": 4, "extra": {"temperature": 0.3, "model": "y"}, "timestamp": 600}
	EOF
	aiperf profile --model m --url "$URL" --tokenizer builtin --random-seed 1 \
		--concurrency 1 --no-server-metrics --input-file mc.jsonl \
		--custom-dataset-type mooncake_trace --artifact-dir art >out 2>err &&
	cat >want <<-\EOF &&
	{"messages":[{"role":"user","content":"Hello"}],"model":"x","max_tokens":50}
	{"messages":[{"role":"user","content":"Hello"},{"role":"assistant","content":"Hi"},{"role":"user","content":"More"}],"model":"x"}
	{"messages":[{"role":"user","content":"Plain"}],"model":"y","stream":false,"max_completion_tokens":4,"temperature":0.3}
	EOF
	test_cmp want "$BODY_LOG" &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --input-file mc.jsonl \
		--custom-dataset-type mooncake_trace >recs &&
	jq -r "[.turn_index, .at_ns, .delay_ns, .history] | @tsv" recs >got &&
	printf "0\t0\t\tfalse\n1\t300000000\t300000000\tfalse\n0\t600000000\t\t\n" >want &&
	test_cmp want got
'

test_expect_success 'payload and extra validation: the messages, file:line' '
	for l in "{\"payload\": {}}|'"'"'payload'"'"' must be a non-empty dict" \
		"{\"payload\": [1]}|payload: expected an object" \
		"{\"payload\": {\"a\": 1}, \"text_input\": \"x\"}|'"'"'input_length'"'"', '"'"'text_input'"'"', '"'"'messages'"'"', and '"'"'payload'"'"' are mutually exclusive. Use only one of them." \
		"{\"payload\": {\"a\": 1}, \"hash_ids\": [1]}|'"'"'hash_ids'"'"' is only allowed when '"'"'input_length'"'"' is provided, not when '"'"'text_input'"'"', '"'"'messages'"'"', or '"'"'payload'"'"' are provided" \
		"{\"text_input\": \"x\", \"extra\": 3}|extra: expected an object"; do
		printf "%s\n" "${l%%|*}" >h.jsonl &&
		test_expect_code 1 aiperf-gen -m m --tokenizer builtin \
			--custom-dataset-type mooncake_trace --input-file h.jsonl >out 2>err &&
		if ! grep -q -F "h.jsonl:1: ${l#*|}" err; then cat err; return 1; fi
	done &&
	printf "{\"payload\": {\"a\": 1}, \"session_id\": \"s\"}\n{\"text_input\": \"x\", \"session_id\": \"s\"}\n" >mix.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file mix.jsonl >out 2>err &&
	grep -q -F "Mixed Mooncake sessions with both raw \`messages\`/\`payload\` and synthesized prompts are unsupported." err
'

test_done
