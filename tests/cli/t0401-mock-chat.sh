#!/bin/sh
# aiperf-mock: chat and completions, streaming and not, usage and reasoning.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# a broken mock must fail the test, not hang it
curl() {
	command curl --max-time 30 "$@"
}

chat='{"model":"m1","messages":[{"role":"user","content":"hello there, how are you"}],"max_tokens":4'

# start_mock again with other options (the URL file must not be stale)
restart_mock() {
	kill "$MOCK_PID"
	wait "$MOCK_PID" 2>/dev/null
	rm -f "$TMP/.mock.url"
	start_mock "$@"
}

# data lines of an SSE body, without the prefix
events() {
	sed -n "s/^data: //p" "$1"
}

start_mock --fast

test_expect_success 'streaming chat: one token per chunk, role first, finish last, [DONE]' '
	curl -sfN -d "$chat,\"stream\":true}" "$MOCK_URL/v1/chat/completions" >out &&
	events out >ev &&
	test "$(wc -l <ev)" -eq 5 &&
	test "$(tail -1 ev)" = "[DONE]" &&
	head -4 ev >chunks &&
	test "$(jq -r .object chunks | sort -u)" = chat.completion.chunk &&
	test "$(jq -r .model chunks | sort -u)" = m1 &&
	test "$(jq -c "[.choices[0].delta.role]" chunks | tr -d "\n")" = "[\"assistant\"][null][null][null]" &&
	test "$(jq -c "[.choices[0].finish_reason]" chunks | tr -d "\n")" = "[null][null][null][\"length\"]" &&
	jq -r ".choices[0].delta.content" chunks >words &&
	test "$(grep -c "^ [a-z]*$" words)" -eq 4 &&
	test "$(jq -r ".aiperf_send_ns | type" chunks | sort -u)" = number &&
	jq -r .id chunks | sort -u | grep -q "^chatcmpl-[0-9]*$"
'

test_expect_success 'the body is framed as SSE events separated by blank lines' '
	test "$(grep -c "^$" out)" -eq 5
'

test_expect_success 'no usage chunk unless asked' '
	! grep -q usage out
'

test_expect_success 'include_usage adds a usage chunk with empty choices before [DONE]' '
	curl -sfN -d "$chat,\"stream\":true,\"stream_options\":{\"include_usage\":true}}" \
		"$MOCK_URL/v1/chat/completions" >out &&
	events out >ev &&
	test "$(wc -l <ev)" -eq 6 &&
	sed -n 5p ev >usage &&
	test "$(jq -c .choices usage)" = "[]" &&
	test "$(jq .usage.completion_tokens usage)" = 4 &&
	test "$(jq .usage.prompt_tokens usage)" -gt 0 &&
	test "$(jq ".usage.total_tokens - .usage.prompt_tokens" usage)" = 4
'

test_expect_success 'non-streaming chat has message and usage' '
	curl -sf -d "$chat}" "$MOCK_URL/v1/chat/completions" >out &&
	test "$(jq -r .object out)" = chat.completion &&
	test "$(jq -r .choices[0].message.role out)" = assistant &&
	test "$(jq -r .choices[0].message.content out | wc -w)" -eq 4 &&
	test "$(jq .usage.completion_tokens out)" = 4 &&
	test "$(jq -r .choices[0].finish_reason out)" = length &&
	test "$(jq -r ".aiperf_send_ns | type" out)" = number
'

test_expect_success 'max_completion_tokens wins over max_tokens' '
	curl -sf -d "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_completion_tokens\":2,\"max_tokens\":9}" \
		"$MOCK_URL/v1/chat/completions" >out &&
	test "$(jq .usage.completion_tokens out)" = 2
'

test_expect_success 'completions stream text chunks' '
	curl -sfN -d "{\"model\":\"m\",\"prompt\":\"once upon a time\",\"max_tokens\":3,\"stream\":true}" \
		"$MOCK_URL/v1/completions" >out &&
	events out >ev &&
	test "$(wc -l <ev)" -eq 4 &&
	head -3 ev >chunks &&
	test "$(jq -r .object chunks | sort -u)" = text_completion &&
	test "$(jq -r ".choices[0].text" chunks | grep -c "^ [a-z]*$")" -eq 3 &&
	test "$(jq -r ".choices[0].finish_reason" chunks | tr "\n" " ")" = "null null length "
'

test_expect_success 'non-streaming completions' '
	curl -sf -d "{\"prompt\":[\"a b\",\"c d\"],\"max_tokens\":5}" "$MOCK_URL/v1/completions" >out &&
	test "$(jq -r .object out)" = text_completion &&
	test "$(jq -r .choices[0].text out | wc -w)" -eq 5
'

test_expect_success 'the same prompt gives the same words' '
	curl -sf -d "$chat}" "$MOCK_URL/v1/chat/completions" | jq -r .choices[0].message.content >a &&
	curl -sf -d "$chat}" "$MOCK_URL/v1/chat/completions" | jq -r .choices[0].message.content >b &&
	test "$(wc -w <a)" -eq 4 && test_cmp a b
'

restart_mock --fast --output-tokens 7
test_expect_success 'without max_tokens --output-tokens sets the length' '
	curl -sf -d "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}" "$MOCK_URL/v1/chat/completions" >out &&
	test "$(jq .usage.completion_tokens out)" = 7 &&
	test "$(jq -r .choices[0].finish_reason out)" = stop &&
	curl -sf -d "{\"prompt\":\"x\",\"min_tokens\":9}" "$MOCK_URL/v1/completions" >out &&
	test "$(jq .usage.completion_tokens out)" = 9
'

restart_mock --fast --reasoning-tokens 2
test_expect_success 'reasoning tokens come first and are counted' '
	curl -sfN -d "$chat,\"stream\":true,\"stream_options\":{\"include_usage\":true}}" \
		"$MOCK_URL/v1/chat/completions" >out &&
	events out | head -4 >chunks &&
	test "$(jq -r ".choices[0].delta | keys | join(\",\")" chunks | tr "\n" " ")" = "reasoning_content,role reasoning_content content content " &&
	events out | sed -n 5p >usage &&
	test "$(jq .usage.completion_tokens_details.reasoning_tokens usage)" = 2 &&
	test "$(jq .usage.completion_tokens usage)" = 4 &&
	curl -sf -d "$chat}" "$MOCK_URL/v1/chat/completions" >out &&
	test "$(jq -r .choices[0].message.reasoning_content out | wc -w)" -eq 2 &&
	test "$(jq -r .choices[0].message.content out | wc -w)" -eq 2
'

restart_mock --ttft-ms 1 --itl-ms 1 --jitter-ms 0.5
test_expect_success 'default latencies still answer (no timing asserted)' '
	curl -sfN -d "$chat,\"stream\":true}" "$MOCK_URL/v1/chat/completions" >out &&
	test "$(events out | wc -l)" -eq 5
'

# A server under load (--ttft-per-request-ms): TTFT grows with the other
# requests in flight; bounds wide enough for any machine's own delays.
restart_mock --ttft-ms 5 --itl-ms 1 --ttft-per-request-ms 30
test_expect_success 'TTFT grows by --ttft-per-request-ms per other request in flight' '
	for c in 1 4; do
		aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming --isl 8 --osl 4 \
			--concurrency $c --request-count $((c * 10)) --ui-type none --artifact-dir load$c \
			>/dev/null 2>&1 || return 1
	done &&
	jq -e ".time_to_first_token.avg < 40" load1/profile_export_aiperf.json &&
	jq -e ".time_to_first_token.avg > 60" load4/profile_export_aiperf.json
'

test_done
