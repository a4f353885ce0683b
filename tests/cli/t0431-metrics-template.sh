#!/bin/sh
# aiperf-metrics on --endpoint-type template responses: the record's
# aiperf.response_field (a jq program) strictly, else the original's
# auto-detection (embeddings, rankings, text fields, choices); non-JSON
# bodies are text, and so are falsy JSON bodies ({} is the text "{}", as
# the original's get_json() falsy falls back to the text). Hostile bodies and fields give one clear error record
# each and the run goes on, nothing lost. Word counts with test:words.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

REC="python3 $TOP/tests/cli/endpoint-record.py"

# rec MODE [FIELD]: a template raw record per body line on stdin
rec() {
	while IFS= read -r body; do
		printf "%s\n" "$body" | $REC template "$1" - |
			if [ $# -gt 1 ]; then
				jq -c --arg f "$2" ".aiperf.response_field = \$f"
			else
				cat
			fi
	done
}

# osl: OSL and error type of each record
osl() {
	aiperf-metrics --tokenizer test:words | jq -c "[.metrics.output_sequence_length.value, .error.type]"
}

test_expect_success 'auto-detection: text fields, choices, embeddings, rankings, non-JSON text' '
	printf "%s\n" "{\"text\":\"a b c\"}" "{\"content\":\"a b\"}" "{\"response\":[\"a \",\"b\"]}" \
		"{\"output\":\"x\",\"result\":\"y z\"}" "{\"choices\":[{\"text\":\"a b c d\"}]}" \
		"{\"choices\":[{\"message\":{\"content\":\"a\"}}]}" "{\"choices\":[{\"delta\":{\"content\":\"a b\"}}]}" \
		"{\"data\":[{\"object\":\"embedding\",\"embedding\":[0.1]}]}" "{\"embeddings\":[[1,2]]}" \
		"{\"embedding\":[0.5]}" "{\"rankings\":[]}" "{\"results\":[{\"index\":0}]}" \
		"[[0.1,0.2]]" "[{\"index\":1}]" "\"a b\"" "plain text answer" "0" | rec body | osl >got &&
	printf "%s\n" "[3,null]" "[2,null]" "[2,null]" "[1,null]" "[4,null]" "[1,null]" "[2,null]" \
		"[null,null]" "[null,null]" "[null,null]" "[null,null]" "[null,null]" \
		"[null,null]" "[null,null]" "[2,null]" "[3,null]" "[1,null]" >expect &&
	test_cmp expect got
'

test_expect_success 'embeddings and rankings are valid records with no output tokens' '
	printf "%s\n" "{\"embeddings\":[[1,2]]}" | rec body | aiperf-metrics --tokenizer test:words |
		jq -e ".error == null and .metrics.request_latency.value > 0 and .metrics.input_sequence_length.value == 3" >/dev/null
'

test_expect_success 'streaming: each SSE event parsed, TTFT from the first with text' '
	printf "%s\n" "data: {\"choices\":[{\"delta\":{\"content\":\"a b\"}}]}" "data: {\"choices\":[]}" \
		"data: {\"out\":\"c\"}" "data: [DONE]" >s.sse &&
	$REC template stream s.sse | aiperf-metrics --tokenizer test:words |
		jq -c "[.metrics.output_sequence_length.value, .metrics.time_to_first_token.value, .error]" >got &&
	echo "[2,0.001,null]" >expect && test_cmp expect got &&
	$REC template stream s.sse | jq -c ".aiperf.response_field = \".out\"" |
		aiperf-metrics --tokenizer test:words | jq -c "[.metrics.output_sequence_length.value, .error]" >got &&
	echo "[1,null]" >expect && test_cmp expect got
'

test_expect_success 'response_field: the value converted (text, embeddings, rankings)' '
	printf "%s\n" "{\"gen\":{\"t\":\"a b c\"},\"text\":\"no\"}" | rec body .gen.t | osl >got &&
	echo "[3,null]" >expect && test_cmp expect got &&
	printf "%s\n" "{\"data\":[{\"vector\":[0.1,0.2]}]}" | rec body ".data?[0]?.vector?" | osl >got &&
	echo "[null,null]" >expect && test_cmp expect got &&
	printf "%s\n" "{\"hits\":[{\"id\":1}]}" | rec body "[.hits[]]" | osl >got &&
	test_cmp expect got
'

test_expect_success 'response_field is strict: a miss is a clear error, never auto-detection' '
	printf "%s\n" "{\"text\":\"a b\",\"z\":1}" | rec body .gen.t | aiperf-metrics --tokenizer test:words >out &&
	jq -r .error.message out >got &&
	echo "ValueError(\"response_field '"'"'.gen.t'"'"' did not match any value in a 200 OK response (top-level keys: ['"'"'text'"'"', '"'"'z'"'"'])\")" >expect &&
	test_cmp expect got
'

test_expect_success 'hostile bodies and fields: one error record each, nothing lost' '
	{
		printf "%s\n" "{\"x\":1}" "{\"choices\":[\"x\"]}" "{\"choices\":[{\"message\":\"hi\"}]}" \
			"{\"choices\":[{\"delta\":[1]}]}" "{\"text\":\"\"}" "{\"text\":[1,\"a\"]}" \
			"{\"embeddings\":[]}" "{}" "[true]" "" | rec body &&
		printf "%s\n" "{\"a\":\"s\"}" "{\"a\":{\"b\":false}}" "[1,2]" "{\"a\":{\"b\":7}}" | rec body .a.b &&
		printf "%s\n" "{\"a\":1}" | rec body "{" &&
		printf "%s\n" "{\"a\":1}" | rec body "error(\"boom\")" &&
		python3 -c "import json; print(json.dumps({\"k%d\" % i: i for i in range(100000)}))" | rec body .missing
	} >in &&
	test "$(wc -l <in)" -eq 17 &&
	aiperf-metrics --tokenizer test:words <in >out &&
	test "$(wc -l <out)" -eq 17 &&
	jq -r "select(.error == null) | .metrics.output_sequence_length.value" out >ok &&
	echo 1 >expect && test_cmp expect ok &&
	test "$(jq -c "select(.error.type != null)" out | wc -l)" -eq 16 &&
	jq -r .error.type out | sort | uniq -c >types &&
	grep -q "AttributeError" types && grep -q "ValueError" types &&
	grep -q "InvalidInferenceResultError" types &&
	grep -q "does not compile: jq: error: syntax error" out &&
	grep -q "failed on a 200 OK response: jq: error: boom" out &&
	test "$(jq -r .error.message out | awk "{ if (length > m) m = length } END { print m }")" -lt 6000
'

test_expect_success 'threads: the same records, the same metrics' '
	for i in 1 2 3 4 5 6 7 8; do cat in; done >in8 &&
	aiperf-metrics --tokenizer test:words <in8 >one &&
	aiperf-metrics --tokenizer test:words --threads 4 <in8 >four &&
	test_cmp one four
'

test_done
