#!/bin/sh
# A response whose JSON nests arrays and objects deeper than the parser's
# limit (512) fails its record with a message that says so, on every
# endpoint type and both ways through the chunk reader (fast path and
# AIPERF_NO_FASTPATH=1): it is not silently no data (a streamed chunk's
# text lost) nor a bare InvalidInferenceResultError. 512 levels are read.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

REC="python3 $TOP/tests/cli/endpoint-record.py"
MSG="InvalidInferenceResultError(\"response 0 is JSON nested deeper than 512 arrays and objects (the limit of aiperf-metrics' parser)\")"

# nest N: N arrays, one in another
nest() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]" }'
}

# both FILE: error message and OSL of aiperf-metrics on FILE, the same
# with the fast paths off
both() {
	aiperf-metrics --tokenizer test:words <"$1" | jq -r "[.error.message, .metrics.output_sequence_length.value] | @tsv" >"$1.fast" &&
	AIPERF_NO_FASTPATH=1 aiperf-metrics --tokenizer test:words <"$1" |
		jq -r "[.error.message, .metrics.output_sequence_length.value] | @tsv" >"$1.slow" &&
	test_cmp "$1.slow" "$1.fast" && cat "$1.fast"
}

test_expect_success 'a chat body past the limit names it' '
	echo "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"a\"}}],\"x\":$(nest 600)}" |
		$REC chat body - >in &&
	both in >got &&
	printf "%s\t\n" "$MSG" >expect && test_cmp expect got
'

test_expect_success 'a streamed chunk past the limit fails the record, its text is not lost' '
	printf "%s\n" "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"a b\"}}]}" \
		"data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"c\"}}],\"x\":$(nest 600)}" \
		"data: [DONE]" >s.sse &&
	$REC chat stream s.sse >in &&
	both in >got &&
	printf "%s\t\n" "$(echo "$MSG" | sed "s/response 0/response 1/")" >expect && test_cmp expect got
'

test_expect_success 'every endpoint type that reads JSON says so' '
	for et in completions embeddings responses nim_rankings cohere_rankings hf_tei_rankings \
		huggingface_generate solido_rag chat_embeddings template image_generation \
		image_retrieval video_generation; do
		nest 513 | $REC $et body - >in.$et &&
		both in.$et >got.$et &&
		printf "%s\t\n" "$MSG" >expect && test_cmp expect got.$et || exit 1
	done
'

test_expect_success '512 levels are read' '
	echo "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"a b\"}}],\"x\":$(nest 511)}" |
		$REC chat body - >in &&
	both in >got &&
	printf "\t2\n" >expect && test_cmp expect got
'

test_expect_success 'a raw record line past the limit: the message names the limit' '
	echo "{\"metadata\":$(nest 600)}" >in &&
	test_expect_code 1 aiperf-metrics <in 2>err &&
	grep -q "nested deeper than 512 arrays and objects" err
'

test_done
