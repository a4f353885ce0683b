#!/bin/sh
# aiperf-trace on hostile input: huge lines, CRLF, bad files, usage errors.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

test_expect_success 'a hash_ids list of a million ids' "
	awk 'BEGIN { printf \"{\\\"input_length\\\": 100000000, \\\"hash_ids\\\": [0\";
		for (i = 1; i < 1000000; i++) printf \",%d\", i; print \"]}\" }' >big.jsonl &&
	cat big.jsonl big.jsonl >big2.jsonl &&
	aiperf-trace analyze --json big2.jsonl >r.json &&
	grep -q '\"unique_prefixes\": 1000000,' r.json &&
	grep -q '\"cache_hit_rate\": 0.5,' r.json &&
	grep -q '\"prefix_reuse_ratio\": 1.0,' r.json
"

test_expect_success 'CRLF line ends and blank lines' "
	printf '{\"input_length\":5,\"hash_ids\":[1]}\r\n\r\n  \r\n{\"input_length\":7}\r\n' >crlf.jsonl &&
	aiperf-trace analyze --json crlf.jsonl >r.json &&
	grep -q '\"total_requests\": 2,' r.json && grep -q '\"max_isl\": 7,' r.json
"

test_expect_success 'a missing file is an error with status 1' "
	test_expect_code 1 aiperf-trace analyze nosuch.jsonl >out 2>err &&
	grep -q \"cannot open 'nosuch.jsonl'\" err && test ! -s out
"

test_expect_success 'usage errors exit 2' "
	test_expect_code 2 aiperf-trace >/dev/null 2>&1 &&
	test_expect_code 2 aiperf-trace frobnicate >/dev/null 2>&1 &&
	test_expect_code 2 aiperf-trace analyze --block-size 0 </dev/null >/dev/null 2>&1 &&
	test_expect_code 2 aiperf-trace convert </dev/null >/dev/null 2>&1 &&
	test_expect_code 2 aiperf-trace synthesize --prefix-root-multiplier 0 </dev/null >/dev/null 2>&1
"

test_expect_success '--help and --version' "
	aiperf-trace --help | grep -q '^usage: aiperf-trace analyze' &&
	aiperf-trace analyze --help | grep -q 'aiperf-trace convert' &&
	aiperf-trace --version | grep -q '^aiperf-trace '
"

# big_second_line BYTES: a valid first line, then a line of BYTES+ bytes.
big_second_line() {
	printf '{"input_length": 5}\n{"input_length": 5, "x": "'
	head -c "$1" /dev/zero | tr '\0' a
	printf '"}\n'
}

test_expect_success 'a trace with a line longer than the limit (256 MiB) is an error' '
	big_second_line 268435456 | test_expect_code 1 aiperf-trace analyze >out 2>err &&
	test_cmp /dev/null out &&
	echo "aiperf-trace: <stdin>:2: line longer than 268435456 bytes" >want &&
	test_cmp want err &&
	big_second_line 1000 | aiperf-trace analyze --json >out &&
	test "$(jq .total_requests out)" = 2
'

test_expect_success 'azure file without a final newline keeps its last row' "
	printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:47,1,2' >az.csv &&
	aiperf-trace convert --from azure az.csv >out.jsonl &&
	test \$(wc -l <out.jsonl) -eq 2 && tail -1 out.jsonl | grep -q '\"timestamp\":319.41,'
"

if [ -f "$SHARED/data/azure/AzureLLMInferenceTrace_code.csv" ]; then
	test_expect_success 'the real Azure 2023 code trace converts every row' "
		aiperf-trace convert --from azure '$SHARED/data/azure/AzureLLMInferenceTrace_code.csv' >az.jsonl &&
		test \$(wc -l <az.jsonl) -eq \$(grep -c . '$SHARED/data/azure/AzureLLMInferenceTrace_code.csv' | awk '{print \$1 - 1}') &&
		head -1 az.jsonl | grep -q '^{\"timestamp\":0,\"input_length\":4808,\"output_length\":10}\$' &&
		aiperf-trace analyze --json az.jsonl | grep -q '\"total_requests\": 8819,'
	"
fi

test_done
