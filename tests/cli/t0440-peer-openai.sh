#!/bin/sh
# aiperf profile against a second OpenAI-compatible server that others wrote
# (tests/peer: @copilotkit/aimock, installed by scripts/install-peer.sh):
# chat streaming and not (with and without reasoning_content), responses
# streaming and not, embeddings; every request succeeds, the token metrics are
# there where the endpoint has them and TTFT <= latency. The peer has no
# legacy /v1/completions: that run fails every request, cleanly. Skips when
# node or the peer package is not installed.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PEER=$TOP/tests/peer
CLI=$PEER/node_modules/@copilotkit/aimock/dist/cli.js
command -v node >/dev/null 2>&1 ||
	test_skip_all "no node: the peer server (tests/peer) cannot run"
[ -f "$CLI" ] ||
	test_skip_all "peer server not installed (sh scripts/install-peer.sh; tests/peer/README)"
node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' ||
	test_skip_all "node $(node --version) is older than the peer server needs (20)"

# The peer on a free loopback port, 2 ms between SSE chunks; its first line
# on stdout names its URL. MOCK_PID: lib.sh's cleanup stops it.
node "$CLI" --host 127.0.0.1 -p 0 -f "$PEER/fixtures.json" -l 2 -c 12 \
	>"$TMP/.peer.out" 2>"$TMP/.peer.err" </dev/null &
MOCK_PID=$!
i=0
while ! grep -q "listening on http://" "$TMP/.peer.out" 2>/dev/null && [ $i -lt 300 ]; do
	kill -0 $MOCK_PID 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
URL=$(grep -o "http://127\.0\.0\.1:[0-9]*" "$TMP/.peer.out" | head -1)
if [ -z "$URL" ]; then
	echo "# the peer server did not start:" >&2
	sed 's/^/# /' "$TMP/.peer.out" "$TMP/.peer.err" >&2
	echo "not ok 1 - the peer server starts"
	echo "1..1"
	exit 1
fi

# run NAME [options]: 4 requests against the peer, all of them good
run() {
	name=$1
	shift
	timeout 120 aiperf profile --model test/model --url "$URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --osl 6 --request-count 4 --concurrency 2 \
		--artifact-dir "$name" "$@" >"$name.out" 2>"$name.err" ||
		{ cat "$name.err"; return 1; }
	j=$name/profile_export_aiperf.json
	jq -e ".request_count.avg == 4 and (.error_request_count.avg // 0) == 0 and
		.request_latency.avg > 0" "$j" >/dev/null || { cat "$j"; return 1; }
	test "$(wc -l <"$name/profile_export.jsonl")" -eq 4 &&
	test "$(jq -c "select(.error != null)" "$name/profile_export.jsonl" | wc -l)" -eq 0
}

# has NAME JQ: the summary of run NAME satisfies JQ
has() {
	jq -e "$2" "$1/profile_export_aiperf.json" >/dev/null ||
		{ jq -c . "$1/profile_export_aiperf.json"; return 1; }
}

# ttft_le_latency NAME: every record's TTFT is positive and at most its latency
ttft_le_latency() {
	test "$(jq -c "select(.metrics.time_to_first_token.value > 0 and
		.metrics.time_to_first_token.value <= .metrics.request_latency.value)" \
		"$1/profile_export.jsonl" | wc -l)" -eq 4
}

test_expect_success 'chat: output tokens, no TTFT' '
	run c --endpoint-type chat &&
	has c ".output_sequence_length.avg > 0 and .output_token_throughput.avg > 0 and
		.time_to_first_token == null and .reasoning_token_count == null"
'

test_expect_success 'chat streaming: the same tokens, TTFT <= latency, ITL' '
	run cs --endpoint-type chat --streaming &&
	has cs ".time_to_first_token.avg > 0 and .inter_token_latency.avg > 0" &&
	test "$(jq .output_sequence_length.avg cs/profile_export_aiperf.json)" = \
		"$(jq .output_sequence_length.avg c/profile_export_aiperf.json)" &&
	ttft_le_latency cs
'

test_expect_success 'chat streaming: the usage chunk gives the server token counts' '
	run csu --endpoint-type chat --streaming --use-server-token-count &&
	has csu ".output_sequence_length.avg > 0 and .input_sequence_length.avg > 0"
'

test_expect_success 'chat with reasoning_content, streaming and not' '
	run r --endpoint-type chat --model think/model &&
	run rs --endpoint-type chat --model think/model --streaming &&
	for d in r rs; do
		has $d ".reasoning_token_count.avg > 0 and .output_token_count.avg > 0" || exit 1
	done &&
	test "$(jq -c "[.reasoning_token_count.avg, .output_token_count.avg]" r/profile_export_aiperf.json)" = \
		"$(jq -c "[.reasoning_token_count.avg, .output_token_count.avg]" rs/profile_export_aiperf.json)" &&
	ttft_le_latency rs
'

test_expect_success 'responses: the message text, streaming and not' '
	run re --endpoint-type responses &&
	run res --endpoint-type responses --streaming &&
	has re ".output_sequence_length.avg > 0 and .time_to_first_token == null" &&
	has res ".output_sequence_length.avg > 0 and .time_to_first_token.avg > 0" &&
	ttft_le_latency res
'

test_expect_success 'embeddings: Embeddings Metrics, no output tokens' '
	run e --endpoint-type embeddings &&
	grep -q "NVIDIA AIPerf | Embeddings Metrics" e.out &&
	has e ".input_sequence_length.avg > 0 and .output_sequence_length == null and
		.time_to_first_token == null"
'

test_expect_success 'completions: the peer has no /v1/completions, every request an error' '
	st=0 &&
	timeout 120 aiperf profile --model test/model --url "$URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --osl 6 --request-count 2 --endpoint-type completions \
		--artifact-dir x >x.out 2>x.err || st=$? &&
	test $st -eq 3 && grep -q "every request failed (2 of 2)" x.err &&
	test "$(jq -r .error.code x/profile_export.jsonl | sort -u)" = 404
'

test_expect_success 'the peer saw every request and is still up' '
	kill -0 $MOCK_PID &&
	curl -sf --max-time 5 "$URL/v1/models" >/dev/null
'

test_done
