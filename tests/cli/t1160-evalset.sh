#!/bin/sh
# aiperf-evalset: the problem records of each benchmark, byte for byte those
# tests/accuracy/prompts-ref.py (a second implementation of the original's
# loaders) builds from the same hub folder (tests/data/accuracy/hub), and
# the original's errors.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

HUB=$TOP/tests/data/accuracy/hub
REF=$TOP/tests/accuracy/prompts-ref.py
export HUB REF

# same_as_ref [options]: aiperf-evalset and the reference agree on every byte
same_as_ref() {
	aiperf-evalset --dataset-dir "$HUB" "$@" >got &&
	python3 "$REF" --dataset-dir "$HUB" "$@" >want &&
	test -s want &&
	test_cmp want got
}

# a_split ID CONFIG SPLIT: stdin as the rows of that split under ./hub
a_split() {
	mkdir -p "hub/$1/$2" &&
	cat >"hub/$1/$2/$3.jsonl"
}

test_expect_success 'the reference checks out against the original'"'"'s unit-test prompts' '
	python3 "$REF" --self-test >out &&
	! grep "^not ok" out
'

test_expect_success 'mmlu: 5-shot (the default), two subjects, chat and completions forms' '
	same_as_ref --benchmark mmlu --tasks abstract_algebra,anatomy &&
	test "$(wc -l <got)" -eq 7 &&
	head -1 got | jq -e ".gold == \" B\" and .max_tokens == 5 and
		(.messages | length) == 11 and .messages[1] == {role: \"assistant\", content: \" B\"} and
		(.prompt | startswith(\"The following are multiple choice questions (with answers) about abstract algebra.\n\nQuestion: \"))"
'

test_expect_success 'mmlu: --tasks repeated and in the order given, CoT, 3 shots' '
	same_as_ref --benchmark mmlu --tasks anatomy --tasks " abstract_algebra" --enable-cot --n-shots 3 &&
	head -1 got | jq -e ".task == \"anatomy\" and (.prompt | endswith(\"\nLet'"'"'s think step by step.\nAnswer:\"))"
'

test_expect_success 'mmlu: zero-shot puts the instruction in the one user message' '
	same_as_ref --benchmark mmlu --tasks anatomy --n-shots 0 &&
	jq -e "(.messages | length) == 1 and .messages[0].content == .prompt" got >/dev/null
'

test_expect_success 'mmlu: --tasks subset: only those subjects' '
	aiperf-evalset --dataset-dir "$HUB" --benchmark mmlu --tasks anatomy >got &&
	test "$(jq -r .task got | sort -u)" = anatomy &&
	test "$(jq -r .index got | tr "\n" " ")" = "0 1 2 "
'

test_expect_success 'aime: 8 shots with CoT (its defaults) and its system prompt' '
	same_as_ref --benchmark aime &&
	test "$(wc -l <got)" -eq 10 &&
	head -1 got | jq -e ".messages[0] == {role: \"system\", content: \"Please reason step by step, and put your final answer within \\\\boxed{}.\"} and
		(.prompt | startswith(\"Please reason step by step, and put your final answer within \\\\boxed{}.\n\nThe following are problems\")) and
		.max_tokens == 32768 and .gold == \"204\""
'

test_expect_success 'aime: no CoT, 2 shots, --system-prompt "" means none' '
	same_as_ref --benchmark aime --no-enable-cot --n-shots 2 --system-prompt "" &&
	head -1 got | jq -e "(.messages | length) == 1 and .messages[0].role == \"user\" and
		(.prompt | endswith(\"No explanation needed. Just return a number.\"))"
'

test_expect_success 'aime: the original'"'"'s zero-shot prompt, literally' '
	printf "%s\n" "{\"Problem\":\"Compute 2+2.\",\"Answer\":4}" |
		a_split Maxwell-Jia/AIME_2024 default train &&
	aiperf-evalset --dataset-dir hub --benchmark aime --n-shots 0 --no-enable-cot --system-prompt "" |
		jq -r .prompt >got &&
	printf "**Problem**: Compute 2+2.\n**Answer**: \n\nNo explanation needed. Just return a number.\n" >want &&
	test_cmp want got
'

test_expect_success 'aime: more than 8 shots is refused, as the original does' '
	test_expect_code 2 aiperf-evalset --dataset-dir "$HUB" --benchmark aime --n-shots 9 2>err &&
	grep "at most 8 few-shot examples (got 9)" err
'

test_expect_success '--n-shots past 32 is a usage error' '
	test_expect_code 2 aiperf-evalset --dataset-dir "$HUB" --benchmark mmlu --n-shots 33 2>err &&
	grep -e "--n-shots" err
'

for b in gpqa_diamond gsm8k aime24 aime25 math_500; do
	test_expect_success "$b: as the reference builds it" "
		same_as_ref --benchmark $b &&
		test \"\$(wc -l <got)\" -ge 3
	"
done

test_expect_success 'gsm8k and mmlu: --system-prompt overrides, first in both forms' '
	same_as_ref --benchmark gsm8k --system-prompt "Be brief." &&
	head -1 got | jq -e ".messages[0].content == \"Be brief.\" and (.prompt | startswith(\"Be brief.\n\nQuestion: \"))" &&
	same_as_ref --benchmark mmlu --tasks abstract_algebra --system-prompt "Answer with one letter." &&
	head -1 got | jq -e "(.messages | length) == 12 and .messages[0].role == \"system\""
'

test_expect_success 'math_500: the subject is the task, the full solution the gold' '
	aiperf-evalset --dataset-dir "$HUB" --benchmark math_500 | jq -r "[.task, (.gold | length > 0)] | @tsv" >got &&
	printf "Precalculus\ttrue\nAlgebra\ttrue\nmath_500\tfalse\n" >want &&
	test_cmp want got
'

test_expect_success 'str() of an answer as Python writes it (int, float, bool, null)' '
	for a in 7 -0 1.5 1e16 1e-5 0.0001 123.0 1e22 2.5e-7 100.0 12345678901234567890 true null \"025\"; do
		printf "{\"problem\":\"p\",\"answer\":%s}\n" "$a"
	done | a_split HuggingFaceH4/aime_2024 default train &&
	aiperf-evalset --dataset-dir hub --benchmark aime24 >got &&
	python3 "$REF" --dataset-dir hub --benchmark aime24 >want &&
	test_cmp want got &&
	jq -r .gold got | tr "\n" " " >golds &&
	test "$(cat golds)" = "7 0 1.5 1e+16 1e-05 0.0001 123.0 1e+22 2.5e-07 100.0 12345678901234567890 True None 025 "
'

test_expect_success 'an unknown benchmark is a usage error naming the known ones' '
	test_expect_code 2 aiperf-evalset --dataset-dir "$HUB" --benchmark nope 2>err &&
	grep "invalid value for --benchmark: '"'"'nope'"'"' (mmlu, aime, hellaswag, bigbench, aime24, aime25, math_500, gsm8k, gpqa_diamond, lcb_codegeneration)" err
'

test_expect_success 'an unknown MMLU subject names the known ones' '
	test_expect_code 1 aiperf-evalset --dataset-dir "$HUB" --benchmark mmlu --tasks anatomy,nope 2>err &&
	grep "unknown MMLU subject '"'"'nope'"'"'; the 57 valid subjects: abstract_algebra, anatomy, " err
'

test_expect_success 'no problems: the original'"'"'s message' '
	: | a_split openai/gsm8k main test &&
	test_expect_code 1 aiperf-evalset --dataset-dir hub --benchmark gsm8k --tasks "a,b'"'"'c" 2>err &&
	grep "benchmark '"'"'gsm8k'"'"' returned 0 problems (tasks=\[.a., \"b'"'"'c\"\], n_shots=None)" err &&
	test_expect_code 1 aiperf-evalset --dataset-dir hub --benchmark gsm8k --n-shots 0 2>err &&
	grep "(tasks=None, n_shots=0)" err
'

test_expect_success 'a row without a column names the split and the row' '
	printf "%s\n" "{\"question\":\"q\",\"answer\":\"a\"}" "{\"answer\":\"b\"}" |
		a_split openai/gsm8k main test &&
	test_expect_code 1 aiperf-evalset --dataset-dir hub --benchmark gsm8k 2>err &&
	grep "openai/gsm8k/main/test: row 1: no column '"'"'question'"'"'" err
'

test_expect_success 'a missing split names the path it looked for' '
	test_expect_code 1 aiperf-evalset --dataset-dir hub --benchmark gpqa_diamond 2>err &&
	grep "hub/Idavidrein/gpqa/gpqa_diamond/train.jsonl" err
'

test_expect_success '--list: name, grader, n-shots, CoT' '
	aiperf-evalset --list >got &&
	grep -x "mmlu	multiple_choice	5	false" got &&
	grep -x "aime	math	8	true" got &&
	grep -x "gpqa_diamond	lighteval_gpqa	0	false" got
'

test_expect_success '--benchmark is required' '
	test_expect_code 2 aiperf-evalset --dataset-dir "$HUB" 2>err &&
	grep -e "--benchmark is required" err
'

test_done
