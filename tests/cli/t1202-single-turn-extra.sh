#!/bin/sh
# single_turn's fields since 0.7 through aiperf profile, bodies as the
# server got them (tests/cli/body-log.py): a line's output_length is its
# max_completion_tokens, its "extra" members are merged into the body last
# (over --extra-inputs, a key kept in its place), lines sharing a
# session_id go as one session with no history; an "extra" that is not an
# object stops the run at file:line.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"
start_body_log || test_skip_all "the body-log server did not start"

test_expect_success 'output_length, extra and session_id as sent' '
	cat >st.jsonl <<-\EOF &&
	{"text": "first", "session_id": "s1", "output_length": 7, "extra": {"temperature": 0.25, "model": "other", "ignore_eos": true}}
	{"text": "second", "session_id": "s1", "extra": null}
	{"text": "third"}
	EOF
	aiperf profile --model m --url "$URL" --tokenizer builtin --random-seed 1 \
		--concurrency 1 --no-server-metrics --input-file st.jsonl \
		--custom-dataset-type single_turn --conversation-num 2 \
		--extra-inputs temperature:0.9 --artifact-dir art >out 2>err &&
	cat >want <<-\EOF &&
	{"messages":[{"role":"user","content":"first"}],"model":"other","stream":false,"max_completion_tokens":7,"temperature":0.25,"ignore_eos":true}
	{"messages":[{"role":"user","content":"second"}],"model":"m","stream":false,"temperature":0.9}
	{"messages":[{"role":"user","content":"third"}],"model":"m","stream":false,"temperature":0.9}
	EOF
	test_cmp want "$BODY_LOG"
'

test_expect_success 'an extra that is not an object: file:line' '
	printf "{\"text\": \"a\"}\n{\"text\": \"b\", \"extra\": \"hot\"}\n" >bad.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file bad.jsonl >out 2>err &&
	grep -q -F "bad.jsonl:2: extra: expected an object" err
'

test_done
