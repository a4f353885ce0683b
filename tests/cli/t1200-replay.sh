#!/bin/sh
# Verbatim replay through aiperf profile against a loopback server that
# logs each request body as it came (tests/cli/body-log.py):
#   - a run's inputs.json (--custom-dataset-type inputs_json) sends the
#     bodies inputs.json holds, byte for byte and in order: a single-turn
#     run's bodies exactly; a multi-turn run's first turns exactly and its
#     later turns as inputs.json holds them, without the live history the
#     first run added (the original's inputs.json has none either, and
#     replays every payload as written);
#   - the original's own inputs.json (tests/data/replay/original-inputs.json,
#     pretty-printed, \u escapes) sends its payloads compact, as
#     original-inputs.bodies says;
#   - raw_payload: a file (one conversation a line, non-compact JSON sent
#     compact), a directory (a conversation a file, sorted, turns as
#     written with no history added);
#   - sagemaker_data_capture: the fixture tree (JSON and BASE64 lines)
#     sent in time order with the captured messages and tools, at their
#     zero-aligned times under --fixed-schedule, cut by the end offset.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"
DATA=$TOP/tests/data/replay
export DATA
start_body_log || test_skip_all "the body-log server did not start"

# prof NAME [options]: one run at concurrency 1 (bodies in send order) into
# artifact dir NAME; its bodies are left in NAME.wire.
prof() {
	name=$1
	shift
	rm -f "$BODY_LOG"
	aiperf profile --model m --url "$URL" --tokenizer builtin --random-seed 3 \
		--concurrency 1 --no-server-metrics --artifact-dir "$name" "$@" \
		>"$name.out" 2>"$name.err" || { cat "$name.err"; return 1; }
	mv "$BODY_LOG" "$name.wire"
}

# payloads FILE: an inputs.json's payloads, compact, one a line (python's
# separators; the texts here need no escapes, so it is jw's form too).
payloads() {
	python3 -c '
import json, sys
for s in json.load(open(sys.argv[1]))["data"]:
    for p in s["payloads"]:
        print(json.dumps(p, separators=(",", ":"), ensure_ascii=False))' "$1"
}

test_expect_success 'the log server runs' '
	test -n "$URL"
'

test_expect_success 'single-turn run, then its inputs.json: the same bodies, byte for byte' '
	prof one --num-dataset-entries 4 --request-count 4 \
		--dataset-sampling-strategy sequential --isl 12 --osl 5 &&
	test "$(wc -l <one.wire)" = 4 &&
	prof one-again --custom-dataset-type inputs_json --input-file one/inputs.json \
		--request-count 4 &&
	cmp one.wire one-again.wire
'

test_expect_success 'multi-turn run, then its inputs.json: the bodies of inputs.json, in order' '
	prof multi --num-dataset-entries 3 --conversation-num 3 \
		--dataset-sampling-strategy sequential --conversation-turn-mean 2 \
		--isl 8 --osl 4 &&
	test "$(wc -l <multi.wire)" = 6 &&
	prof multi-again --custom-dataset-type inputs_json \
		--input-file multi/inputs.json --conversation-num 3 &&
	payloads multi/inputs.json >want &&
	test_cmp want multi-again.wire &&
	# first turns as the first run sent them; later ones without its history
	sed -n "1p;3p;5p" multi.wire >first && sed -n "1p;3p;5p" multi-again.wire >again &&
	cmp first again &&
	grep -c "\"role\":\"assistant\"" multi.wire >n && test "$(cat n)" = 3 &&
	! grep -q "\"role\":\"assistant\"" multi-again.wire &&
	# the records say so: no history for the sender to add
	aiperf-gen -m m --tokenizer builtin --custom-dataset-type inputs_json \
		--input-file multi/inputs.json --conversation-num 3 >recs &&
	jq -r "[.turn_index, .history] | @tsv" recs | sort | uniq -c >got &&
	printf "      3 0\tfalse\n      3 1\tfalse\n" >want && test_cmp want got
'

test_expect_success 'the original'"'"'s inputs.json: its payloads sent compact, session ids kept' '
	prof orig --custom-dataset-type inputs_json --input-file "$DATA/original-inputs.json" \
		--conversation-num 2 &&
	test_cmp "$DATA/original-inputs.bodies" orig.wire &&
	aiperf-gen -m m --tokenizer builtin --custom-dataset-type inputs_json \
		--input-file "$DATA/original-inputs.json" --conversation-num 2 >recs &&
	jq -r ".conversation_id" recs | uniq >ids &&
	printf "session-001\nsession-002\n" >want && test_cmp want ids &&
	jq -r "[.turn_index, .num_turns, .history] | @tsv" recs >got &&
	printf "0\t2\tfalse\n1\t2\tfalse\n0\t1\tfalse\n" >want && test_cmp want got
'

test_expect_success 'raw_payload file: a conversation a line, re-serialized compact' '
	cat >p.jsonl <<-\EOF &&
	{"messages": [{"role": "user", "content": "What is machine learning?"}], "model": "Qwen/Qwen3-0.6B", "max_tokens": 100}

	  {"messages":[{"role":"user","content":"caf\u00e9 \/ \"q\""}],"temperature":0.70,"stream":true}
	EOF
	prof raw --custom-dataset-type raw_payload --input-file p.jsonl --request-count 2 &&
	cat >want <<-\EOF &&
	{"messages":[{"role":"user","content":"What is machine learning?"}],"model":"Qwen/Qwen3-0.6B","max_tokens":100}
	{"messages":[{"role":"user","content":"café / \"q\""}],"temperature":0.70,"stream":true}
	EOF
	test_cmp want raw.wire
'

test_expect_success 'raw_payload directory: a conversation a .jsonl file, turns as written' '
	prof rawdir --custom-dataset-type raw_payload --input-file "$DATA/payloads" \
		--conversation-num 2 &&
	cat "$DATA/payloads/session_001.jsonl" "$DATA/payloads/session_002.jsonl" |
		grep . | python3 -c "
import json, sys
for l in sys.stdin:
    print(json.dumps(json.loads(l), separators=(\",\", \":\")))" >want &&
	test_cmp want rawdir.wire &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --custom-dataset-type raw_payload \
		--input-file "$DATA/payloads" --conversation-num 2 >recs &&
	jq -r "[.conversation_id, .turn_index, .num_turns] | @tsv" recs >got &&
	printf "session_000000\t0\t2\nsession_000000\t1\t2\nsession_000001\t0\t2\nsession_000001\t1\t2\n" >want &&
	test_cmp want got
'

test_expect_success 'sagemaker_data_capture: time order, captured messages, fixed-schedule times' '
	aiperf-gen -m m --tokenizer builtin --random-seed 1 \
		--custom-dataset-type sagemaker_data_capture --input-file "$DATA/capture" \
		--fixed-schedule --fixed-schedule-auto-offset >recs &&
	jq -r "[.at_ns, (.payload.messages | map(.content) | join(\"|\")), .payload.max_completion_tokens, (.payload.tools | length)] | @tsv" recs >got &&
	printf "0\tWhat is AI?\t50\t0\n1000000000\tCafé?\t\t0\n2000000000\tBe brief.|Name a prime.\t8\t1\n3500000000\tLast one\t5\t0\n" >want &&
	test_cmp want got &&
	aiperf-gen -m m --tokenizer builtin --custom-dataset-type sagemaker_data_capture \
		--input-file "$DATA/capture" --print-timing-mode >mode &&
	echo fixed_schedule >want && test_cmp want mode
'

test_expect_success 'sagemaker_data_capture through profile: the window sent at its times' '
	prof sm --custom-dataset-type sagemaker_data_capture --input-file "$DATA/capture" \
		--fixed-schedule --fixed-schedule-auto-offset --fixed-schedule-end-offset 2000 &&
	cat >want <<-\EOF &&
	{"messages":[{"role":"user","content":"What is AI?"}],"model":"m","stream":false,"max_completion_tokens":50}
	{"messages":[{"role":"user","content":"Café?"}],"model":"m","stream":false}
	{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Name a prime."}],"model":"m","stream":false,"tools":[{"type":"function","function":{"name":"lookup","parameters":{"type":"object"}}}],"max_completion_tokens":8}
	EOF
	test_cmp want sm.wire &&
	# sent 1 s apart (the mock-free log server answers at once)
	jq -s -e "map(.metadata.request_start_ns) | sort | [.[1] - .[0], .[2] - .[0]] |
		.[0] > 0.9e9 and .[0] < 1.6e9 and .[1] > 1.9e9 and .[1] < 2.6e9" \
		sm/profile_export.jsonl
'

test_done
