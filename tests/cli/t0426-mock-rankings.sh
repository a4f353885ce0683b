#!/bin/sh
# aiperf-mock's rankings routes: /v1/ranking (NIM), /v2/rerank (Cohere v2)
# and /rerank (HF TEI) answer with bodies shaped as those servers' API
# references show them, best passage first, a deterministic score per
# (query, passage), Cohere's top_n, the original mock's latency model
# (--ranking-base-latency + --ranking-per-passage-latency per passage),
# and 400 for requests the servers' schemas refuse.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

curl() {
	command curl --max-time 30 "$@"
}

start_mock --ranking-base-latency 0 --ranking-per-passage-latency 0

NIM='{"model":"m","query":{"text":"which way"},"passages":[{"text":"two roads"},{"text":"then took"},{"text":"and both"}]}'
COH='{"model":"m","query":"which way","documents":["two roads","then took","and both"]}'
TEI='{"query":"which way","texts":["two roads","then took","and both"]}'

test_expect_success '/v1/ranking: rankings of index and logit, best first, usage' '
	curl -sf -d "$NIM" "$MOCK_URL/v1/ranking" >out &&
	jq -e "(.rankings | length) == 3 and (.rankings | map(.index) | sort) == [0,1,2] and
		(.rankings | map(.logit)) == (.rankings | map(.logit) | sort | reverse) and
		(.rankings | all(keys == [\"index\", \"logit\"])) and
		.usage.prompt_tokens > 0 and .usage.total_tokens == .usage.prompt_tokens" out >/dev/null
'

test_expect_success '/v2/rerank: results of index and relevance_score, id, meta; top_n' '
	curl -sf -d "$COH" "$MOCK_URL/v2/rerank" >out &&
	jq -e "(.results | length) == 3 and
		(.results | all(keys == [\"index\", \"relevance_score\"])) and
		(.results | all(.relevance_score >= 0 and .relevance_score <= 1)) and
		(.results | map(.relevance_score)) == (.results | map(.relevance_score) | sort | reverse) and
		(.id | type) == \"string\" and .meta.api_version.version == \"2\" and
		.meta.billed_units.search_units == 1" out >/dev/null &&
	curl -sf -d "{\"model\":\"m\",\"query\":\"which way\",\"documents\":[\"two roads\",\"then took\",\"and both\"],\"top_n\":2}" \
		"$MOCK_URL/v2/rerank" >top &&
	jq -c "[.results[].index]" top >got &&
	jq -c "[.results[:2][].index]" out >expect &&
	test_cmp expect got
'

test_expect_success '/rerank: a list of index and score, the same order as Cohere for the same texts' '
	curl -sf -d "$TEI" "$MOCK_URL/rerank" >out &&
	jq -e "type == \"array\" and length == 3 and all(keys == [\"index\", \"score\"])" out >/dev/null &&
	jq -c "map(.index)" out >got &&
	curl -sf -d "$COH" "$MOCK_URL/v2/rerank" | jq -c "[.results[].index]" >expect &&
	test_cmp expect got &&
	curl -sf -d "$TEI" "$MOCK_URL/rerank" >again &&
	test_cmp out again
'

test_expect_success 'bad requests: 400 with the reason' '
	for x in "/v1/ranking {\"query\":\"q\",\"passages\":[{\"text\":\"p\"}]}" \
		"/v1/ranking {\"query\":{\"text\":\"q\"},\"passages\":[\"p\"]}" \
		"/v1/ranking {\"query\":{\"text\":\"q\"},\"passages\":[]}" \
		"/v2/rerank {\"query\":\"q\"}" \
		"/v2/rerank {\"query\":7,\"documents\":[\"d\"]}" \
		"/rerank {\"query\":\"q\",\"texts\":[1]}" \
		"/rerank [1]" "/rerank {nope"; do
		code=$(curl -s -o out -w "%{http_code}" -d "${x#* }" "$MOCK_URL${x%% *}") &&
		test "$code" = 400 &&
		jq -e ".error.type == \"invalid_request_error\" and (.error.message | length) > 0" out >/dev/null ||
			{ echo "$x: $code"; cat out; exit 1; }
	done &&
	test "$(curl -s -o /dev/null -w "%{http_code}" "$MOCK_URL/rerank")" = 405
'

test_expect_success 'the route counters name the rankings routes' '
	curl -sf "$MOCK_URL/metrics" >m &&
	grep -q "aiperf_mock_requests_total{route=\"ranking\"} [1-9]" m &&
	grep -q "aiperf_mock_requests_total{route=\"v2_rerank\"} [1-9]" m &&
	grep -q "aiperf_mock_requests_total{route=\"rerank\"} [1-9]" m
'

kill "$MOCK_PID"; wait "$MOCK_PID" 2>/dev/null || :
start_mock --ranking-base-latency 100 --ranking-per-passage-latency 50

test_expect_success 'latency: base + per passage (the original mock model)' '
	t=$(curl -sf -o /dev/null -w "%{time_total}" -d "$TEI" "$MOCK_URL/rerank") &&
	awk -v t="$t" "BEGIN { exit !(t >= 0.25 && t < 5) }" &&
	t=$(curl -sf -o /dev/null -w "%{time_total}" -d "{\"query\":\"q\",\"texts\":[\"a\"]}" "$MOCK_URL/rerank") &&
	awk -v t="$t" "BEGIN { exit !(t >= 0.15 && t < 0.25 + 5) }"
'

test_done
