#!/bin/sh
# aiperf-mock: deterministic embedding vectors.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# a broken mock must fail the test, not hang it
curl() {
	command curl --max-time 30 "$@"
}

start_mock --fast --embedding-dim 8

test_expect_success 'one vector per input, of --embedding-dim numbers' '
	curl -sf -d "{\"model\":\"e5\",\"input\":[\"alpha\",\"beta\",\"gamma\"]}" \
		"$MOCK_URL/v1/embeddings" >out &&
	test "$(jq -r .object out)" = list &&
	test "$(jq -r .model out)" = e5 &&
	test "$(jq ".data | length" out)" = 3 &&
	test "$(jq -r "[.data[].object] | unique | .[]" out)" = embedding &&
	test "$(jq -c "[.data[].index]" out)" = "[0,1,2]" &&
	test "$(jq -c "[.data[].embedding | length] | unique" out)" = "[8]" &&
	test "$(jq ".usage.prompt_tokens > 0" out)" = true
'

test_expect_success 'vectors are unit length and depend only on the text' '
	jq ".data[0].embedding | map(. * .) | add | . > 0.999 and . < 1.001" out >ok &&
	test "$(cat ok)" = true &&
	curl -sf -d "{\"input\":\"beta\"}" "$MOCK_URL/v1/embeddings" >one &&
	test "$(jq -c .data[0].embedding one)" = "$(jq -c .data[1].embedding out)" &&
	test "$(jq -c .data[0].embedding one)" != "$(jq -c .data[0].embedding out)"
'

test_expect_success 'token-id input counts as one input' '
	curl -sf -d "{\"input\":[1,2,3,4]}" "$MOCK_URL/v1/embeddings" >out &&
	test "$(jq ".data | length" out)" = 1 &&
	test "$(jq .usage.prompt_tokens out)" = 4
'

test_expect_success 'missing input is a 400' '
	code=$(curl -s -o out -w "%{http_code}" -d "{\"model\":\"e\"}" "$MOCK_URL/v1/embeddings") &&
	test "$code" = 400
'

test_done
