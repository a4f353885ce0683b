#!/bin/sh
# The exact request payloads of an accuracy run, chat and completions: for
# MMLU 5-shot (two subjects), AIME 8-shot with CoT (and its system prompt),
# GPQA and GSM8K, aiperf-gen --accuracy-problems sends what the reference
# (tests/accuracy/prompts-ref.py, a second implementation of the original's
# loaders) says the original sends: the chat body's messages are the
# problem's messages, the completions body's prompt its flat text, in
# problem order, with the benchmark's generation size as the token limit
# (max_completion_tokens for chat, max_tokens for completions, as the
# original's endpoints name it), and request k of a longer run is problem
# k mod n, after a warmup too.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

HUB=$TOP/tests/data/accuracy/hub
REF=$TOP/tests/accuracy/prompts-ref.py
export HUB REF

# bodies ENDPOINT PROBLEMS [aiperf-gen options]: the profiling requests'
# payloads, one a line
bodies() {
	ep=$1 p=$2
	shift 2
	aiperf-gen -m m --endpoint-type "$ep" --tokenizer builtin --random-seed 1 \
		--accuracy-problems "$p" "$@" | jq -c "select(.phase == \"profiling\") | .payload"
}

# golden NAME [benchmark options]: the reference's problems, then both
# endpoints' bodies checked field by field against them
golden() {
	name=$1
	shift
	python3 "$REF" --dataset-dir "$HUB" "$@" >"$name.ref" &&
	n=$(wc -l <"$name.ref") &&
	test "$n" -gt 0 &&
	bodies chat "$name.ref" --request-count "$n" >"$name.chat" &&
	jq -c ".messages" "$name.ref" >want && jq -c ".messages" "$name.chat" >got &&
	test_cmp want got &&
	jq -c ".max_tokens" "$name.ref" >want && jq -c ".max_completion_tokens" "$name.chat" >got &&
	test_cmp want got &&
	jq -e -s "all(.[]; .model == \"m\" and (keys - [\"max_completion_tokens\", \"messages\", \"model\", \"stream\"]) == [])" \
		"$name.chat" &&
	bodies completions "$name.ref" --request-count "$n" >"$name.comp" &&
	jq -c "[.prompt]" "$name.ref" >want && jq -c ".prompt" "$name.comp" >got &&
	test_cmp want got &&
	jq -c ".max_tokens" "$name.ref" >want && jq -c ".max_tokens" "$name.comp" >got &&
	test_cmp want got
}

test_expect_success 'mmlu, 5-shot, two subjects: the shots as turns (chat), one text (completions)' '
	golden mmlu --benchmark mmlu --tasks abstract_algebra,anatomy --n-shots 5 &&
	jq -e ".messages | length == 11 and .[10].role == \"user\"" mmlu.chat >/dev/null &&
	head -1 mmlu.comp | jq -e ".max_tokens == 5 and (.prompt[0] | endswith(\"\nAnswer:\"))"
'

test_expect_success 'aime, 8-shot with CoT: the system prompt first, the flat text after it' '
	golden aime --benchmark aime &&
	head -1 aime.chat | jq -e ".messages[0] == {role: \"system\",
		content: \"Please reason step by step, and put your final answer within \\\\boxed{}.\"}" &&
	head -1 aime.comp | jq -e ".prompt[0] | startswith(\"Please reason step by step, and put your final answer within \\\\boxed{}.\n\n\")" &&
	head -1 aime.comp | jq -e ".max_tokens == 32768"
'

test_expect_success 'gpqa_diamond and gsm8k: zero-shot' '
	golden gpqa --benchmark gpqa_diamond &&
	golden gsm8k --benchmark gsm8k &&
	head -1 gsm8k.comp | jq -e ".max_tokens == 256 and (.prompt[0] | startswith(\"Question: \") and endswith(\"\nAnswer:\"))"
'

test_expect_success 'request k is problem k mod n, a warmup before it or not' '
	n=$(wc -l <gsm8k.ref) &&
	bodies chat gsm8k.ref --request-count $((n * 2 + 1)) >long &&
	jq -c ".messages" gsm8k.ref >one &&
	cat one one >want && head -1 one >>want &&
	jq -c ".messages" long >got && test_cmp want got &&
	bodies chat gsm8k.ref --request-count "$n" --warmup-request-count 2 >warm &&
	jq -c ".messages" warm >got && test_cmp one got
'

test_expect_success 'the order is the problems'"'"': another sampling, a fixed schedule, a dataset file refused' '
	test_expect_code 2 aiperf-gen -m m --accuracy-problems gsm8k.ref --dataset-sampling-strategy shuffle 2>err &&
	grep -q "Accuracy mode requires sequential request order; .shuffle. sampling is not supported" err &&
	test_expect_code 2 aiperf-gen -m m --accuracy-problems gsm8k.ref --input-file gsm8k.ref 2>err &&
	grep -q "cannot be used with --input-file" err &&
	printf "{\"schema\":\"aiperf.problem/1\",\"index\":0}\n" >bad &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --accuracy-problems bad 2>err &&
	grep -q "bad: line 1" err
'

test_done
