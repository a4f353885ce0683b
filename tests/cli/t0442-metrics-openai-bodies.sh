#!/bin/sh
# aiperf-metrics on OpenAI-style response bodies copied from the public API
# references (tests/cli/bodies/, sources in SOURCES): chat completions and
# their chunks, a DeepSeek/vLLM reasoning_content body and stream, legacy
# completions, embeddings, and the Responses API streaming events. Expected
# values are the text and token counts the original's parsers give (word
# counts by hand with the test:words tokenizer; server counts from usage).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

B=$TOP/tests/cli/bodies
REC="python3 $TOP/tests/cli/endpoint-record.py"

# counts ET MODE FILE [metrics options]: ISL, OSL, reasoning, output tokens,
# TTFT (ms), error type. The record's prompt is "one two three" (ISL 3); a
# stream's data lines come 1 us apart from 1 us after the start.
counts() {
	et=$1 mode=$2 f=$3
	shift 3
	$REC "$et" "$mode" "$B/$f" | aiperf-metrics --tokenizer test:words "$@" |
		jq -c "[.metrics.input_sequence_length.value, .metrics.output_sequence_length.value,
			.metrics.reasoning_token_count.value, .metrics.output_token_count.value,
			.metrics.time_to_first_token.value, .error.type]"
}

# "Hello! How can I assist you today?": 7 words; usage 19 in, 10 out.
test_expect_success 'chat: the message content; usage for server counts' '
	echo "[3,7,null,7,null,null]" >expect &&
	counts chat body chat.json >got &&
	test_cmp expect got &&
	echo "[19,10,null,10,null,null]" >expect &&
	counts chat body chat.json --use-server-token-count >got &&
	test_cmp expect got
'

# The role chunk has content "": no data, so TTFT is the "Hello" chunk's.
test_expect_success 'chat streaming: the empty first delta is no token' '
	echo "[3,1,null,1,0.002,null]" >expect &&
	counts chat stream chat-stream.sse >got &&
	test_cmp expect got
'

test_expect_success 'chat streaming without a usage chunk: no server counts' '
	echo "[null,null,null,null,0.002,null]" >expect &&
	counts chat stream chat-stream.sse --use-server-token-count >got &&
	test_cmp expect got
'

# content 7 words, reasoning_content 30; usage 48 out of which 38 reasoning.
test_expect_success 'chat with reasoning_content (DeepSeek): reasoning and output apart' '
	echo "[3,37,30,7,null,null]" >expect &&
	counts chat body chat-reasoning.json >got &&
	test_cmp expect got &&
	echo "[10,48,38,10,null,null]" >expect &&
	counts chat body chat-reasoning.json --use-server-token-count >got &&
	test_cmp expect got
'

# reasoning deltas "is" and "thinking" join to one word, then "Hello";
# TTFT from the first reasoning delta.
test_expect_success 'chat streaming with reasoning_content (vLLM, DeepSeek chunks)' '
	echo "[3,2,1,1,0.001,null]" >expect &&
	counts chat stream chat-reasoning-stream.sse >got &&
	test_cmp expect got
'

# "\n\nThis is indeed a test": 5 words; usage 5 in, 7 out.
test_expect_success 'completions: choices[0].text; usage' '
	echo "[3,5,null,5,null,null]" >expect &&
	counts completions body completions.json >got &&
	test_cmp expect got &&
	echo "[5,7,null,7,null,null]" >expect &&
	counts completions body completions.json --use-server-token-count >got &&
	test_cmp expect got
'

test_expect_success 'completions streaming: the text_completion chunk' '
	echo "[3,1,null,1,0.001,null]" >expect &&
	counts completions stream completions-stream.sse >got &&
	test_cmp expect got
'

# The original attaches no usage to an embeddings response.
test_expect_success 'embeddings: valid, no output metrics, no server counts' '
	echo "[3,null,null,null,null,null]" >expect &&
	counts embeddings body embeddings.json >got &&
	test_cmp expect got &&
	echo "[null,null,null,null,null,null]" >expect &&
	counts embeddings body embeddings.json --use-server-token-count >got &&
	test_cmp expect got
'

# The summary delta is not read while streaming (only reasoning_text deltas
# are reasoning): "The" is 1 reasoning word. The text delta "In" and the
# output_text.done text (65 words) join as "InIn a shimmering ...": 65.
# TTFT: response.created and the summary delta carry nothing, the
# reasoning_text delta is the third data line.
test_expect_success 'responses streaming events: reasoning_text only, output_text.done again' '
	echo "[3,66,1,65,0.003,null]" >expect &&
	counts responses stream responses-events.sse >got &&
	test_cmp expect got
'

test_expect_success 'every data line of the streams parses, no error record' '
	for x in chat:chat-stream.sse chat:chat-reasoning-stream.sse \
		completions:completions-stream.sse responses:responses-events.sse; do
		$REC "${x%%:*}" stream "$B/${x#*:}" | aiperf-metrics --tokenizer test:words |
			jq -e ".error == null and .metrics.request_latency.value > 0" >/dev/null ||
			exit 1
	done
'

test_done
