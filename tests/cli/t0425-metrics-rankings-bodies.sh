#!/bin/sh
# aiperf-metrics on the nim_rankings, cohere_rankings and hf_tei_rankings
# endpoints: response bodies from the public API references
# (tests/cli/bodies/, where each comes from in its SOURCES) are valid
# records with input tokens and no output token metrics; hostile bodies
# give one error record each (no data: InvalidInferenceResultError; a
# rankings value that is not a list of objects: ValidationError, as the
# original's RankingsResponseData raises) and the run goes on, nothing lost.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

B=$TOP/tests/cli/bodies
REC="python3 $TOP/tests/cli/endpoint-record.py"

# the record endpoint-record.py writes, with a rankings request payload
rec() {
	$REC "$@" | jq -c ".payload = {\"model\": \"m\", \"query\": {\"text\": \"which way\"},
		\"passages\": [{\"text\": \"two roads\"}, {\"text\": \"then took\"}]}"
}

test_expect_success 'the three reference bodies: valid, input tokens, no output tokens' '
	for x in nim_rankings:nim-rankings.json cohere_rankings:cohere-rerank.json \
		hf_tei_rankings:tei-rerank.json; do
		grep -q "^${x#*:}	." "$B/SOURCES" &&
		rec "${x%%:*}" body "$B/${x#*:}" | aiperf-metrics --tokenizer test:words >out &&
		jq -e ".error == null and .metrics.request_latency.value == 0.008 and
			.metrics.output_sequence_length == null and
			.metrics.output_token_count == null" out >/dev/null || { cat out; exit 1; }
	done
'

test_expect_success 'input tokens: the query and every passage (NIM objects, Cohere documents, TEI texts)' '
	rec nim_rankings body "$B/nim-rankings.json" | aiperf-metrics --tokenizer test:words |
		jq -e ".metrics.input_sequence_length.value == 6" >/dev/null &&
	$REC cohere_rankings body "$B/cohere-rerank.json" |
		jq -c ".payload = {\"model\": \"m\", \"query\": \"a b c\", \"documents\": [\"d\", \"e f\"]}" |
		aiperf-metrics --tokenizer test:words |
		jq -e ".metrics.input_sequence_length.value == 6" >/dev/null &&
	$REC hf_tei_rankings body "$B/tei-rerank.json" |
		jq -c ".payload = {\"query\": \"a\", \"texts\": [\"b c d e\"]}" |
		aiperf-metrics --tokenizer test:words |
		jq -e ".metrics.input_sequence_length.value == 5" >/dev/null
'

test_expect_success 'a body of another server: no data, an error record' '
	rec nim_rankings body "$B/cohere-rerank.json" | aiperf-metrics --tokenizer test:words |
		jq -r .error.type >got &&
	rec cohere_rankings body "$B/tei-rerank.json" | aiperf-metrics --tokenizer test:words |
		jq -r .error.type >>got &&
	rec hf_tei_rankings body "$B/nim-rankings.json" | aiperf-metrics --tokenizer test:words |
		jq -r .error.type >>got &&
	printf "InvalidInferenceResultError\n%.0s" 1 2 3 >expect &&
	test_cmp expect got
'

test_expect_success 'a TEI body with results, the older name "rankings", dashes and any case' '
	printf "%s\n" "{\"results\":[{\"index\":0,\"score\":0.5}]}" | rec HF-TEI-Rankings body - |
		aiperf-metrics --tokenizer test:words | jq -e ".error == null" >/dev/null &&
	rec rankings body "$B/nim-rankings.json" | aiperf-metrics --tokenizer test:words |
		jq -e ".error == null" >/dev/null &&
	rec x body "$B/cohere-rerank.json" | jq -c "del(.aiperf.endpoint_type)" |
		aiperf-metrics --tokenizer test:words --endpoint-type cohere-rankings |
		jq -e ".error == null and .metrics.output_sequence_length == null" >/dev/null
'

hostile() {
	while IFS= read -r body; do
		printf "%s\n" "$body" | rec "$1" body -
	done
}

test_expect_success 'hostile bodies: one error record each, nothing lost' '
	python3 -c "
import json
print(json.dumps({\"rankings\": [{\"index\": i, \"logit\": 0.5} for i in range(100000)] + [7]}))
print(json.dumps([{\"index\": i, \"score\": 0.5} for i in range(100000)] + [None]))
print(json.dumps({\"results\": [5] * 200000}))
" >big &&
	{
		printf "%s\n" "{}" "{\"rankings\":[]}" "{\"rankings\":\"x\"}" "{\"rankings\":[1]}" \
			"[{\"index\":0}]" "not json" "\"str\"" "{\"rankings\":{\"index\":0}}" |
			hostile nim_rankings &&
		printf "%s\n" "{}" "{\"results\":[]}" "{\"results\":[null,\"x\",5]}" \
			"{\"results\":{\"index\":0}}" "[{\"index\":0}]" "<html>oops</html>" "7" |
			hostile cohere_rankings &&
		printf "%s\n" "[]" "[0.9,0.1]" "{\"results\":3}" "{\"rankings\":[{}]}" "\"str\"" \
			"nope" "{\"results\":[[1]]}" | hostile hf_tei_rankings &&
		sed -n 1p big | hostile nim_rankings &&
		sed -n 2p big | hostile hf_tei_rankings &&
		sed -n 3p big | hostile cohere_rankings
	} >in &&
	test "$(wc -l <in)" -eq 25 &&
	aiperf-metrics --tokenizer test:words <in >out &&
	test "$(wc -l <out)" -eq 25 &&
	test "$(jq -c "select(.error.type != null)" out | wc -l)" -eq 25 &&
	jq -r .error.type out | sort | uniq -c | sed "s/^ *//" >types &&
	printf "%s\n" "17 InvalidInferenceResultError" "8 ValidationError" >expect &&
	test_cmp expect types
'

test_expect_success 'a ValidationError says where' '
	printf "%s\n" "{\"rankings\":[{},5]}" | hostile nim_rankings |
		aiperf-metrics --tokenizer test:words | jq -r .error.message >got &&
	printf "%s\n" "ValidationError('"'"'1 validation error for RankingsResponseData\\nrankings.1\\n  Input should be a valid dictionary'"'"')" >expect &&
	test_cmp expect got
'

test_done
