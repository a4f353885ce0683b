#!/bin/sh
# genai-perf analyze: GenAI-Perf's sweep (--sweep-type, --sweep-range,
# --sweep-list) as aiperf profile's list value of the matching option,
# checked on the command line it builds (--dry-run) with the examples of
# GenAI-Perf's docs/analyze.md; then run against aiperf-mock, once aiperf
# profile sweeps list values (skipped, naming that, until then).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# dry CMD...: the aiperf command line genai-perf would run, into "got".
dry() {
	genai-perf "$@" --dry-run >got 2>err
}

test_expect_success 'concurrency 1:256: the powers of two (docs/analyze.md)' '
	dry analyze -m gpt2 --sweep-type concurrency --sweep-range 1:256 &&
	test "$(cat got)" = "aiperf profile --model gpt2 --concurrency 1,2,4,8,16,32,64,128,256"
'

test_expect_success 'request_rate 100:500:50: every step' '
	dry analyze -m gpt2 --sweep-type request_rate --sweep-range 100:500:50 &&
	test "$(cat got)" = "aiperf profile --model gpt2 --request-rate 100,150,200,250,300,350,400,450,500"
'

test_expect_success 'input_sequence_length with a list' '
	dry analyze -m gpt2 --sweep-type input_sequence_length --sweep-list 100,150,200,400 &&
	test "$(cat got)" = "aiperf profile --model gpt2 --isl 100,150,200,400"
'

test_expect_success 'num_dataset_entries 100:200:50; with --backend vllm refused by name' '
	dry analyze -m gpt2 --sweep-type num_dataset_entries --sweep-range 100:200:50 &&
	test "$(cat got)" = "aiperf profile --model gpt2 --num-dataset-entries 100,150,200" &&
	test_expect_code 2 genai-perf analyze -m gpt2 --backend vllm --sweep-type num_dataset_entries \
		--sweep-range 100:200:50 2>err &&
	grep -q "'"'"'--backend'"'"' has no counterpart" err
'

test_expect_success 'no sweep given: GenAI-Perf'"'"'s default, concurrency 1 to 1024' '
	dry analyze -m gpt2 &&
	test "$(cat got)" = "aiperf profile --model gpt2 --concurrency 1,2,4,8,16,32,64,128,256,512,1024" &&
	dry analyze -m gpt2 --sweep-type request_rate &&
	test "$(cat got)" = "aiperf profile --model gpt2 --request-rate 16,32,64,128,256,512,1024,2048,4096,8192"
'

test_expect_success 'the profile options go with the sweep, which replaces its own option' '
	dry analyze -m gpt2 --service-kind openai --endpoint-type chat --streaming --concurrency 8 \
		--sweep-type concurrency --sweep-list 1,2 --generate-plots --artifact-dir sw &&
	test "$(sed -n 1p got)" = "aiperf profile --model gpt2 --endpoint-type chat --streaming --concurrency 1,2 --artifact-dir sw --auto-plot" &&
	test "$(wc -l <got)" -eq 1
'

test_expect_success 'bad sweeps are usage errors that say why' '
	for s in "--sweep-range 0:8" "--sweep-range 8:1" "--sweep-range 1:8:0" "--sweep-range 1:x" \
		"--sweep-list 1,,2" "--sweep-list a" "--sweep-range 1:2 --sweep-list 1"; do
		# shellcheck disable=SC2086 # the words of s
		test_expect_code 2 genai-perf analyze -m gpt2 $s 2>err &&
		grep -q "^genai-perf: --sweep-" err || return 1
	done &&
	test_expect_code 2 genai-perf analyze -m gpt2 --sweep-type batch_size 2>err &&
	grep -q "'"'"'--sweep-type batch_size'"'"' has no counterpart" err &&
	test_expect_code 2 genai-perf analyze -m gpt2 --sweep-type colour 2>err &&
	grep -q "unknown --sweep-type '"'"'colour'"'"'" err &&
	test_expect_code 2 genai-perf profile -m gpt2 --sweep-type concurrency 2>err &&
	grep -q "an option of genai-perf analyze" err
'

start_mock --ttft-ms 1 --itl-ms 1
test_expect_success 'analyze runs the sweep (aiperf profile with a list value)' '
	st=0 && aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --request-count 1 \
		--concurrency 1,2 --artifact-dir probe >probe.out 2>probe.err || st=$?
	if test $st -eq 2 && grep -q -- "--concurrency" probe.err; then
		skip_because "aiperf profile does not sweep list values yet (--concurrency 1,2 refused)"
	fi
	genai-perf analyze -m gpt2 --service-kind openai --endpoint-type chat --url "$MOCK_URL" \
		--tokenizer builtin --request-count 4 --sweep-type concurrency --sweep-range 1:2 \
		--artifact-dir sw >out 2>err &&
	test -s sw/concurrency_1/profile_export_aiperf.json &&
	test -s sw/concurrency_2/profile_export_aiperf.json &&
	test "$(jq .request_count.avg sw/concurrency_2/profile_export_aiperf.json)" -eq 4
'
test_done
