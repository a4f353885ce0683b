#!/bin/sh
# A server's usage block that no server could have sent fails its record
# (InvalidUsageError, naming the field and its value) instead of becoming
# ISL, OSL or a usage_* metric: a count that is not a whole number from 0
# to 10^9, always; with --use-server-token-count also counts that
# contradict each other or the response (a total under prompt and
# completion, no completion tokens for output text). Null is no count.
# Streamed chunks read by the fast path and by the general one
# (AIPERF_NO_FASTPATH=1) give the same records.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

REC="python3 $TOP/tests/cli/endpoint-record.py"

# body USAGE: a chat.completion body with the text "a b c" and USAGE
body() {
	echo "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"a b c\"}}],\"usage\":$1}" |
		$REC chat body -
}

# stream USAGE: the same streamed, USAGE in a usage-only last chunk
stream() {
	printf "%s\n" "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"a b c\"}}]}" \
		"data: {\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":$1}" "data: [DONE]" >s.sse &&
	$REC chat stream s.sse
}

# row [OPTION]: error message, else ISL, OSL and usage_prompt_tokens
row() {
	aiperf-metrics --tokenizer test:words "$@" |
		jq -r "if .error then .error.message else [.metrics.input_sequence_length.value,
			.metrics.output_sequence_length.value, .metrics.usage_prompt_tokens.value] | @tsv end"
}

NOTCOUNT="not a token count (a whole number from 0 to 1000000000)"

test_expect_success 'the issue: input_tokens -5 is an error, not ISL -5' '
	body "{\"input_tokens\":-5,\"output_tokens\":3}" | row --use-server-token-count >got &&
	echo "InvalidUsageError('"'"'usage.input_tokens is -5, $NOTCOUNT'"'"')" >expect &&
	test_cmp expect got &&
	body "{\"input_tokens\":-5,\"output_tokens\":3}" | row >got &&
	test_cmp expect got
'

test_expect_success 'what is not a count, in each field, with and without server counts' '
	for u in "{\"prompt_tokens\":2.5}" "{\"prompt_tokens\":\"4\"}" "{\"prompt_tokens\":true}" \
		"{\"prompt_tokens\":1e30}" "{\"prompt_tokens\":1000000001}" "{\"completion_tokens\":-1}" \
		"{\"output_tokens\":[3]}" "{\"total_tokens\":-7}" \
		"{\"completion_tokens_details\":{\"reasoning_tokens\":-2}}" \
		"{\"output_tokens_details\":{\"reasoning_tokens\":0.5}}"; do
		body "$u" | row --use-server-token-count &&
		body "$u" | row || exit 1
	done | sed "s/, $NOTCOUNT//" >got &&
	for m in "prompt_tokens is 2.5" "prompt_tokens is a string" "prompt_tokens is true" \
		"prompt_tokens is 1e30" "prompt_tokens is 1000000001" "completion_tokens is -1" \
		"output_tokens is an array" "total_tokens is -7" \
		"completion_tokens_details.reasoning_tokens is -2" \
		"output_tokens_details.reasoning_tokens is 0.5"; do
		echo "InvalidUsageError('"'"'usage.$m'"'"')" && echo "InvalidUsageError('"'"'usage.$m'"'"')"
	done >expect &&
	test_cmp expect got
'

test_expect_success 'server counts: counts that contradict each other or the response' '
	body "{\"prompt_tokens\":4,\"completion_tokens\":3,\"total_tokens\":6}" | row --use-server-token-count >got &&
	body "{\"prompt_tokens\":4,\"completion_tokens\":0}" | row --use-server-token-count >>got &&
	printf "%s\n" "InvalidUsageError('"'"'usage.total_tokens is 6, less than prompt_tokens + completion_tokens (4 + 3)'"'"')" \
		"InvalidUsageError('"'"'usage.completion_tokens is 0, but the response carried output text'"'"')" >expect &&
	test_cmp expect got
'

test_expect_success 'without server counts a contradiction is data (the usage diff metrics)' '
	body "{\"prompt_tokens\":4,\"completion_tokens\":0,\"total_tokens\":1}" | row >got &&
	printf "3\t3\t4\n" >expect && test_cmp expect got
'

test_expect_success 'possible counts are read: whole floats, null as none, 10^9, echo, reasoning' '
	body "{\"prompt_tokens\":4.0,\"completion_tokens\":3,\"total_tokens\":7}" | row --use-server-token-count >got &&
	body "{\"prompt_tokens\":null,\"input_tokens\":5,\"completion_tokens\":3}" | row --use-server-token-count >>got &&
	body "{\"prompt_tokens\":1000000000,\"completion_tokens\":3}" | row --use-server-token-count >>got &&
	body "{\"prompt_tokens\":4,\"completion_tokens\":3,\"completion_tokens_details\":{\"reasoning_tokens\":9}}" |
		row --use-server-token-count >>got &&
	body "{\"prompt_tokens\":4,\"completion_tokens\":0}" | jq -c ".payload.echo = true" |
		row --use-server-token-count >>got &&
	printf "%s\t%s\t%s\n" 4 3 4 5 3 5 1000000000 3 1000000000 4 9 4 4 0 4 >expect &&
	test_cmp expect got
'

test_expect_success 'streamed: the same records with and without the fast paths' '
	for u in "{\"prompt_tokens\":-5,\"completion_tokens\":3}" "{\"prompt_tokens\":4,\"completion_tokens\":0}" \
		"{\"prompt_tokens\":4,\"completion_tokens\":3,\"total_tokens\":1}" \
		"{\"prompt_tokens\":4,\"completion_tokens\":3}" "{\"prompt_tokens\":\"x\"}"; do
		stream "$u" || exit 1
	done >in &&
	row --use-server-token-count <in >fast &&
	AIPERF_NO_FASTPATH=1 aiperf-metrics --tokenizer test:words --use-server-token-count <in |
		jq -r "if .error then .error.message else [.metrics.input_sequence_length.value,
			.metrics.output_sequence_length.value, .metrics.usage_prompt_tokens.value] | @tsv end" >slow &&
	test_cmp slow fast &&
	printf "%s\n" "InvalidUsageError('"'"'usage.prompt_tokens is -5, $NOTCOUNT'"'"')" \
		"InvalidUsageError('"'"'usage.completion_tokens is 0, but the response carried output text'"'"')" \
		"InvalidUsageError('"'"'usage.total_tokens is 1, less than prompt_tokens + completion_tokens (4 + 3)'"'"')" \
		"4	3	4" "InvalidUsageError('"'"'usage.prompt_tokens is a string, $NOTCOUNT'"'"')" >expect &&
	test_cmp expect fast
'

test_done
