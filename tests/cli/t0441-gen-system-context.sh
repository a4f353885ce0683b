#!/bin/sh
# The shared system prompt and the user context prompt on the endpoints
# beyond chat, byte for byte as the original builds them: responses sends
# the system prompt as top-level "instructions" (after "stream") and the
# user context as a leading {"role":"user"} input item, on every turn
# (src/aiperf/endpoints/openai_responses.py, spec 6.3); completions ignores
# both, its prompt is the turn's texts only (openai_completions.py).
# aiperf-metrics counts instructions and the context item in the ISL.
# The corpus is only "a" words, so prompt text is T.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1"
SC="--shared-system-prompt-length 3 --user-context-prompt-length 2"

test_expect_success 'responses: instructions after stream, the user context a first input item' '
	$G --endpoint-type responses $SC --osl 7 --extra-inputs temperature:0.5 | payload_t >got &&
	echo "{\"input\":[{\"role\":\"user\",\"content\":\"T\"},{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false,\"instructions\":\"T\",\"max_output_tokens\":7,\"temperature\":0.5}" >expect &&
	test_cmp expect got
'

test_expect_success 'responses: the prompts themselves, of their lengths' '
	$G --endpoint-type responses $SC | sed "s/.*\"payload\"://" >p &&
	test "$(jq -r ".instructions" p)" = " a a a" &&
	test "$(jq -r ".input[0].content" p)" = " a a" &&
	test "$(jq -r ".input[1].content" p)" = " a a a a a"
'

test_expect_success 'responses: each alone, streaming, a batch of parts' '
	$G --endpoint-type responses --shared-system-prompt-length 3 --streaming \
		--use-server-token-count | payload_t >got &&
	echo "{\"input\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":true,\"instructions\":\"T\",\"stream_options\":{\"include_usage\":true}}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type responses --user-context-prompt-length 2 -b 2 | payload_t >got &&
	echo "{\"input\":[{\"role\":\"user\",\"content\":\"T\"},{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"T\"},{\"type\":\"input_text\",\"text\":\"T\"}]}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got
'

# Responses sends no history: every turn carries both, as the original's
# RequestInfo does for every request of the conversation.
test_expect_success 'responses: every turn of a session carries both' '
	$G --endpoint-type responses $SC --session-turns-mean 3 --request-count 3 | payload_t >got &&
	test "$(wc -l <got)" -eq 3 &&
	test "$(sort -u got)" = "{\"input\":[{\"role\":\"user\",\"content\":\"T\"},{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false,\"instructions\":\"T\"}"
'

test_expect_success 'completions: neither prompt is sent, only the turn texts' '
	$G --endpoint-type completions $SC --osl 4 | payload_t >got &&
	echo "{\"prompt\":[\"T\"],\"model\":\"m\",\"stream\":false,\"max_tokens\":4}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type completions $SC | sed "s/.*\"payload\"://; s/}\$//" | jq -r ".prompt[0]" >got &&
	echo " a a a a a" >expect &&
	test_cmp expect got
'

# ISL of a responses record: instructions, context item and the turn's text
# joined by spaces, 3 + 2 + 5 words.
test_expect_success 'aiperf-metrics: the ISL counts instructions and the context item' '
	$G --endpoint-type responses $SC | sed "s/.*\"payload\"://; s/}\$//" >p &&
	jq -c "{metadata: {benchmark_phase: \"profiling\"}, start_perf_ns: 1000,
		aiperf: {endpoint_type: \"responses\", stream: false}, payload: .,
		responses: [{perf_ns: 9000, text: \"{\\\"object\\\":\\\"response\\\",\\\"output_text\\\":\\\"b c\\\"}\"}]}" p |
		aiperf-metrics --tokenizer test:words >out &&
	jq -e ".error == null and .metrics.input_sequence_length.value == 10 and
		.metrics.output_sequence_length.value == 2" out >/dev/null || { cat out; exit 1; }
'

test_done
