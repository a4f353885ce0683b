#!/bin/sh
# aiperf profile --endpoint-type template against aiperf-mock, end to end:
# a Jinja2 template translated (the original's tutorial shape) streaming
# from /v1/completions, a jq program from a file, nv-embedqa with a
# JMESPath response_field against the URL as given (no default path); a
# response_field that never matches fails every request with its reason,
# and an unsupported Jinja2 form stops the run before it starts.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {
	aiperf profile --model test/model --tokenizer builtin --random-seed 7 \
		--isl 16 --osl 6 --request-count 3 --endpoint-type template "$@"
}

# run NAME [options]: 3 requests, no errors, under "LLM Metrics"
run() {
	name=$1
	shift
	prof --artifact-dir "$name" "$@" >out 2>err || { cat err; return 1; }
	grep -q "NVIDIA AIPerf | LLM Metrics *\$" out || { cat out; return 1; }
	j=$name/profile_export_aiperf.json
	test "$(jq .request_count.avg "$j")" = 3 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	test "$(wc -l <"$name/profile_export.jsonl")" -eq 3
}

test_expect_success 'a Jinja2 template, streaming: TTFT, ITL, the output tokens' '
	run j --url "$MOCK_URL" --endpoint /v1/completions --streaming --extra-inputs "payload_template:
	  {
	    \"model\": {{ model|tojson }},
	    \"prompt\": {{ texts|tojson }},
	    \"max_tokens\": {{ max_tokens }},
	    \"stream\": {{ stream|lower }}
	  }" --extra-inputs temperature:0.5 &&
	jq -e ".time_to_first_token.avg > 0 and .inter_token_latency.avg > 0 and
		.output_sequence_length.avg == 6 and .input_sequence_length.avg == 16" \
		j/profile_export_aiperf.json >/dev/null &&
	jq -e "[.data[].payloads[0] | .temperature == 0.5 and .stream == true] | all" \
		j/inputs.json >/dev/null
'

test_expect_success 'a jq program from a file, non-streaming, choices auto-detected' '
	printf "%s\n" "{model, prompt: .texts, max_tokens}" >p.jq &&
	run f --url "$MOCK_URL" --endpoint /v1/completions --extra-inputs payload_template:p.jq &&
	jq -e ".output_sequence_length.avg == 6" f/profile_export_aiperf.json >/dev/null
'

test_expect_success 'nv-embedqa and a JMESPath response_field, the URL as given' '
	run e --url "$MOCK_URL/v1/embeddings" --extra-inputs payload_template:nv-embedqa \
		--extra-inputs "response_field:data[0].embedding" &&
	jq -e ".output_sequence_length == null and .request_latency.avg > 0" \
		e/profile_export_aiperf.json >/dev/null
'

test_expect_success 'a response_field that never matches: every request an error, with its reason' '
	test_expect_code 3 prof --artifact-dir m --url "$MOCK_URL" --endpoint /v1/embeddings \
		--extra-inputs payload_template:nv-embedqa --extra-inputs "response_field:.vectors" >out 2>err &&
	test "$(jq .error_request_count.avg m/profile_export_aiperf.json)" = 3 &&
	jq -r .error.message m/profile_export.jsonl | sort -u >got &&
	echo "ValueError(\"response_field '"'"'.vectors'"'"' did not match any value in a 200 OK response (top-level keys: ['"'"'aiperf_send_ns'"'"', '"'"'data'"'"', '"'"'model'"'"', '"'"'object'"'"', '"'"'usage'"'"'])\")" >expect &&
	test_cmp expect got
'

test_expect_success 'an unsupported Jinja2 form: refused with the jq equivalent, nothing sent' '
	test_expect_code 2 prof --artifact-dir r --url "$MOCK_URL" \
		--extra-inputs "payload_template:{\"t\": {{ texts|join(\" \") }}}" >out 2>err &&
	grep -qF "where it reads (.texts | join(\" \"))" err
'

test_done
