#!/bin/sh
# aiperf-metrics on the responses, huggingface_generate, nim_embeddings,
# chat_embeddings and solido_rag endpoints: response bodies from the public
# API references (tests/cli/bodies/, where each comes from in its SOURCES)
# give the output, reasoning and server token counts the original's parsers
# read from them (word counts by hand with the test:words tokenizer); hostile
# bodies give one error record each and the run goes on, nothing lost.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

B=$TOP/tests/cli/bodies
REC="python3 $TOP/tests/cli/endpoint-record.py"

# counts ET MODE FILE [metrics options]: OSL, reasoning, output tokens, TTFT (ms), error type
counts() {
	et=$1 mode=$2 f=$3
	shift 3
	$REC "$et" "$mode" "$B/$f" | aiperf-metrics --tokenizer test:words "$@" |
		jq -c "[.metrics.output_sequence_length.value, .metrics.reasoning_token_count.value,
			.metrics.output_token_count.value, .metrics.time_to_first_token.value, .error.type]"
}

test_expect_success 'every body file has its source' '
	for f in "$B"/*.json "$B"/*.sse; do
		grep -q "^$(basename "$f")	." "$B/SOURCES" || { echo "no source: $f"; exit 1; }
	done
'

test_expect_success 'responses, non-streaming: the message text' '
	echo "[71,null,71,null,null]" >expect &&
	counts responses body responses.json >got &&
	test_cmp expect got
'

test_expect_success 'responses, non-streaming: reasoning summary and message' '
	echo "[22,16,6,null,null]" >expect &&
	counts responses body responses-reasoning.json >got &&
	test_cmp expect got
'

# "Hi there! How can I assist you today?" in three deltas (8 words), then
# output_text.done repeats it, joined without a space: 8 + 8 - 1 words.
test_expect_success 'responses, streaming: output_text.done counted again (the original quirk)' '
	echo "[15,null,15,0.005,null]" >expect &&
	counts responses stream responses-stream.sse >got &&
	test_cmp expect got
'

test_expect_success 'responses, streaming: reasoning_text deltas are reasoning, TTFT from the first' '
	echo "[9,6,3,0.001,null]" >expect &&
	counts responses stream responses-reasoning-stream.sse >got &&
	test_cmp expect got
'

test_expect_success 'responses: server token counts from response.completed usage' '
	$REC responses stream "$B/responses-reasoning-stream.sse" |
		aiperf-metrics --use-server-token-count |
		jq -c "[.metrics.input_sequence_length.value, .metrics.output_sequence_length.value,
			.metrics.reasoning_token_count.value]" >got &&
	echo "[12,9,7]" >expect &&
	test_cmp expect got &&
	$REC responses body "$B/responses.json" | aiperf-metrics --use-server-token-count |
		jq -c "[.metrics.input_sequence_length.value, .metrics.output_sequence_length.value]" >got &&
	echo "[36,87]" >expect &&
	test_cmp expect got
'

test_expect_success 'huggingface_generate: generated_text, as an object or a list' '
	echo "[15,null,15,null,null]" >expect &&
	counts huggingface_generate body tgi-generate.json >got &&
	test_cmp expect got &&
	counts huggingface_generate body tgi-generate-list.json >got &&
	test_cmp expect got
'

test_expect_success 'huggingface_generate, streaming: token.text only, never generated_text' '
	echo "[4,null,4,0.001,null]" >expect &&
	counts huggingface_generate stream tgi-stream.sse >got &&
	test_cmp expect got
'

test_expect_success 'nim_embeddings, chat_embeddings: valid, no output token metrics' '
	for x in nim_embeddings:nim-embeddings.json chat_embeddings:chat-embeddings.json; do
		$REC "${x%%:*}" body "$B/${x#*:}" | aiperf-metrics --tokenizer test:words >out &&
		jq -e ".error == null and .metrics.request_latency.value == 0.008 and
			.metrics.input_sequence_length.value == 3 and
			.metrics.output_sequence_length == null" out >/dev/null || { cat out; exit 1; }
	done
'

test_expect_success 'solido_rag: content is the output' '
	echo "[10,null,10,null,null]" >expect &&
	counts solido_rag body solido.json >got &&
	test_cmp expect got
'

test_expect_success 'endpoint types with dashes and in any case' '
	$REC huggingface-generate body "$B/tgi-generate.json" | aiperf-metrics --tokenizer test:words |
		jq -e ".metrics.output_sequence_length.value == 15" >/dev/null &&
	$REC x body "$B/solido.json" | jq -c "del(.aiperf.endpoint_type)" |
		aiperf-metrics --tokenizer test:words --endpoint-type Solido-RAG |
		jq -e ".metrics.output_sequence_length.value == 10" >/dev/null
'

# hostile ET MODE BODY: one line per body, read from stdin
hostile() {
	while IFS= read -r body; do
		printf "%s\n" "$body" | $REC "$1" "$2" -
	done
}

test_expect_success 'hostile bodies: one error record each, nothing lost' '
	python3 -c "
import json
big = json.dumps({\"object\": \"response\", \"output\": [{\"type\": \"web_search_call\"}] * 200000})
print(big)
print(json.dumps([{\"no\": 1}] + [{\"generated_text\": \"x\"}] * 200000))
print(json.dumps({\"object\": \"list\", \"data\": [{\"object\": \"embedding\", \"embedding\": [0.1]}] * 100000 + [{\"object\": \"list\"}]}))
" >big &&
	{
		printf "%s\n" "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}" \
			"{}" "<html>oops</html>" "[1,2]" "{\"object\":\"response\",\"output\":[{\"type\":\"message\",\"content\":7}]}" |
			hostile responses body &&
		printf "%s\n" "data: {\"type\":\"response.output_text.delta\"}" "data: {\"type\":\"response.output_text.delta\",\"delta\":5}" \
			"data: not json" | hostile responses stream &&
		printf "%s\n" "{}" "{\"generated_text\":\"\"}" "[]" "\"text\"" "{\"generated_text\":[\"x\"]}" |
			hostile huggingface_generate body &&
		printf "%s\n" "data: {\"token\":\"x\"}" "data: {\"token\":{\"text\":7}}" "data: [1]" |
			hostile huggingface_generate stream &&
		printf "%s\n" "{\"object\":\"list\",\"data\":[{\"object\":\"chat\"}]}" "{}" "nope" "{\"embedding\":[]}" |
			hostile chat_embeddings body &&
		printf "%s\n" "{\"object\":\"list\",\"data\":[{\"object\":\"text\",\"embedding\":[1]}]}" "{\"data\":[]}" "nope" |
			hostile nim_embeddings body &&
		printf "%s\n" "{\"sources\":[]}" "{\"content\":\"\"}" "[\"content\"]" "nope" | hostile solido_rag body &&
		sed -n 1p big | hostile responses body &&
		sed -n 2p big | hostile huggingface_generate body &&
		sed -n 3p big | hostile nim_embeddings body
	} >in &&
	test "$(wc -l <in)" -eq 30 &&
	aiperf-metrics --tokenizer test:words <in >out &&
	test "$(wc -l <out)" -eq 30 &&
	test "$(jq -c "select(.error.type != null)" out | wc -l)" -eq 30 &&
	jq -r .error.type out | sort | uniq -c >types &&
	grep -q "AttributeError" types && grep -q "ValueError" types &&
	grep -q "InvalidInferenceResultError" types
'

test_expect_success 'wrong objects name themselves' '
	printf "%s\n" "{\"object\":\"list\",\"data\":[{\"object\":\"text\",\"embedding\":[1]}]}" |
		hostile nim_embeddings body | aiperf-metrics --tokenizer test:words |
		jq -r .error.message | grep -q "^ValueError(\"Received invalid list in response: " &&
	printf "%s\n" "[\"content\"]" | hostile solido_rag body | aiperf-metrics --tokenizer test:words |
		jq -r .error.message | grep -qF "AttributeError(\"'"'"'list'"'"' object has no attribute '"'"'get'"'"'\")"
'

test_done
