#!/bin/sh
# aiperf-mock's routes for the responses, huggingface_generate, solido_rag
# and chat_embeddings endpoints: bodies and events shaped as the public APIs
# send them, the chat route's token counts and latency model.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

curl() {
	command curl --max-time 30 "$@"
}

start_mock --ttft-ms 5 --itl-ms 2 --reasoning-tokens 2

# data lines of an event stream as one JSON value a line
events() {
	sed -n "s/^data: *//p" "$1" | grep -v "^\[DONE\]"
}

test_expect_success '/v1/responses: a response object, reasoning item, usage' '
	curl -sf -d "{\"input\":[{\"role\":\"user\",\"content\":\"one two three\"}],\"model\":\"m\",\"stream\":false,\"max_output_tokens\":5}" \
		"$MOCK_URL/v1/responses" >out &&
	jq -e ".object == \"response\" and .status == \"completed\" and .model == \"m\" and
		(.output | map(.type)) == [\"reasoning\", \"message\"] and
		.output[1].content[0].type == \"output_text\" and
		.usage.output_tokens == 5 and .usage.output_tokens_details.reasoning_tokens == 2 and
		.usage.input_tokens > 0 and .usage.total_tokens == .usage.input_tokens + 5" out >/dev/null &&
	test "$(jq -r ".output[1].content[0].text" out | wc -w)" -eq 3
'

test_expect_success '/v1/responses streaming: created, deltas, done, completed' '
	curl -sfN -d "{\"input\":\"one two three\",\"instructions\":\"be brief\",\"model\":\"m\",\"stream\":true,\"max_output_tokens\":4}" \
		"$MOCK_URL/v1/responses" >out &&
	events out | jq -r .type >types &&
	printf "%s\n" response.created response.reasoning_text.delta response.reasoning_text.delta \
		response.output_text.delta response.output_text.delta response.output_text.done \
		response.completed >expect &&
	test_cmp expect types &&
	grep -c "^event: " out | grep -qx 7 &&
	events out | jq -sr "map(select(.type == \"response.output_text.delta\") | .delta) | add" >deltas &&
	events out | jq -r "select(.type == \"response.output_text.done\") | .text" >done &&
	test_cmp deltas done &&
	events out | jq -e "select(.type == \"response.completed\") | .response.usage.output_tokens == 4" >/dev/null
'

test_expect_success 'TGI /generate and /generate_stream' '
	curl -sf -d "{\"inputs\":\"one two three\",\"parameters\":{\"max_new_tokens\":3}}" "$MOCK_URL/generate" >out &&
	jq -e "(.generated_text | type) == \"string\" and .details.generated_tokens == 3 and
		.details.finish_reason == \"length\"" out >/dev/null &&
	curl -sfN -d "{\"inputs\":\"one two three\",\"parameters\":{\"max_new_tokens\":3}}" \
		"$MOCK_URL/generate_stream" >s &&
	events s >ev &&
	test "$(wc -l <ev)" -eq 3 &&
	test "$(jq -sr "map(.token.text) | add" ev)" = "$(jq -r .generated_text out)" &&
	test "$(jq -sr ".[2].generated_text" ev)" = "$(jq -r .generated_text out)" &&
	test "$(jq -sr ".[0].generated_text" ev)" = null &&
	! grep -q DONE s
'

test_expect_success 'Solido /rag/api/prompt: content and sources; an event stream when accepted' '
	curl -sf -d "{\"query\":[\"one two\"],\"filters\":{\"family\":\"Solido\",\"tool\":\"SDE\"},\"inference_model\":\"m\"}" \
		"$MOCK_URL/rag/api/prompt" >out &&
	jq -e "(.content | length) > 0 and (.sources | length) > 0" out >/dev/null &&
	curl -sfN -H "Accept: text/event-stream" -d "{\"query\":[\"one two\"]}" "$MOCK_URL/rag/api/prompt" >s &&
	test "$(events s | jq -sr "map(.content) | add")" = "$(jq -r .content out)"
'

test_expect_success '/v1/embeddings takes chat messages (chat_embeddings)' '
	curl -sf -d "{\"messages\":[{\"role\":\"user\",\"content\":\"one two\"}],\"model\":\"m\"}" \
		"$MOCK_URL/v1/embeddings" >out &&
	jq -e ".object == \"list\" and (.data | length) == 1 and .data[0].object == \"embedding\"" out >/dev/null
'

test_expect_success 'bad bodies are 400s' '
	test "$(curl -s -o /dev/null -w "%{http_code}" -d "{\"input\":5}" "$MOCK_URL/v1/responses")" = 400 &&
	test "$(curl -s -o /dev/null -w "%{http_code}" -d "{\"inputs\":[1]}" "$MOCK_URL/generate")" = 400 &&
	test "$(curl -s -o /dev/null -w "%{http_code}" -d "{\"query\":7}" "$MOCK_URL/rag/api/prompt")" = 400
'

test_expect_success 'the routes count in /metrics' '
	curl -sf "$MOCK_URL/metrics" >m &&
	grep -q "^aiperf_mock_requests_total{route=\"responses\"} [1-9]" m &&
	grep -q "^aiperf_mock_requests_total{route=\"generate_stream\"} 1" m &&
	grep -q "^aiperf_mock_requests_total{route=\"rag\"} [1-9]" m
'

test_done
