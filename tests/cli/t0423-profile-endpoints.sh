#!/bin/sh
# run.sh: long
# aiperf profile against aiperf-mock for each of the responses,
# chat_embeddings, nim_embeddings, huggingface_generate and solido_rag
# endpoints: every request succeeds, the console title and the metric set
# are the original's for the endpoint (no token output metrics for the
# embeddings ones), streaming where the endpoint streams.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --osl 6 --request-count 3 "$@"
}

# run NAME TITLE [options]: a run whose summary counts 3 requests, no errors, under TITLE
run() {
	name=$1 title=$2
	shift 2
	prof --artifact-dir "$name" "$@" >out 2>err || { cat err; return 1; }
	grep -q "NVIDIA AIPerf | $title *\$" out || { cat out; return 1; }
	j=$name/profile_export_aiperf.json
	test "$(jq .request_count.avg "$j")" = 3 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	test "$(wc -l <"$name/profile_export.jsonl")" -eq 3
}

test_expect_success 'responses: LLM Metrics, output tokens' '
	run r "LLM Metrics" --endpoint-type responses &&
	test "$(jq .output_sequence_length.avg r/profile_export_aiperf.json)" = 6 &&
	jq -e ".time_to_first_token == null" r/profile_export_aiperf.json >/dev/null
'

# The mock streams 6 deltas and output_text.done repeats their text: the
# original counts both (12), and its server count is the 6 of usage.
test_expect_success 'responses streaming: TTFT, ITL; output_text.done counted again' '
	run rs "LLM Metrics" --endpoint-type responses --streaming &&
	jq -e ".time_to_first_token.avg > 0 and .inter_token_latency.avg > 0" \
		rs/profile_export_aiperf.json >/dev/null &&
	test "$(jq .output_sequence_length.avg rs/profile_export_aiperf.json)" = 12 &&
	run rsu "LLM Metrics" --endpoint-type responses --streaming --use-server-token-count &&
	test "$(jq .output_sequence_length.avg rsu/profile_export_aiperf.json)" = 6
'

test_expect_success 'chat_embeddings and nim_embeddings: their titles, no output tokens' '
	run ce "Embeddings Metrics" --endpoint-type chat_embeddings &&
	run ne "NIM Embeddings Metrics" --endpoint-type nim-embeddings &&
	for d in ce ne; do
		jq -e ".output_sequence_length == null and .output_token_throughput == null and
			.input_sequence_length.avg > 0 and .request_latency.avg > 0" \
			$d/profile_export_aiperf.json >/dev/null || exit 1
	done
'

test_expect_success 'huggingface_generate: /generate and /generate_stream' '
	run hf "LLM Metrics" --endpoint-type huggingface-generate &&
	test "$(jq .output_sequence_length.avg hf/profile_export_aiperf.json)" = 6 &&
	run hfs "LLM Metrics" --endpoint-type huggingface_generate --streaming &&
	test "$(jq .output_sequence_length.avg hfs/profile_export_aiperf.json)" = 6 &&
	jq -e ".time_to_first_token.avg > 0" hfs/profile_export_aiperf.json >/dev/null
'

test_expect_success 'solido_rag: SOLIDO RAG Metrics, streaming and not' '
	run so "SOLIDO RAG Metrics" --endpoint-type solido_rag &&
	jq -e ".output_sequence_length.avg > 0" so/profile_export_aiperf.json >/dev/null &&
	run sos "SOLIDO RAG Metrics" --endpoint-type solido_rag --streaming &&
	jq -e ".time_to_first_token.avg > 0" sos/profile_export_aiperf.json >/dev/null
'

# A misbehaving server: every request gives one error record, the run goes on.
test_expect_success 'faults on the new routes: one error record per request, nothing lost' '
	kill $MOCK_PID
	for f in sse-error bad-chunk reset; do
		start_mock --ttft-ms 1 --itl-ms 1 --fault $f &&
		for e in "responses --streaming" "huggingface_generate --streaming" "solido_rag --streaming"; do
			d=f-$f-${e%% *} &&
			st=0 && prof --artifact-dir $d --endpoint-type $e >out 2>err || st=$?
			test $st -eq 3 && grep -q "every request failed (3 of 3)" err &&
			test -s $d/profile_export.jsonl || { cat err; exit 1; }
			test "$(wc -l <$d/profile_export.jsonl)" -eq 3 &&
			test "$(jq -c "select(.error != null)" $d/profile_export.jsonl | wc -l)" -eq 3 ||
				{ echo "$f $e"; cat $d/profile_export.jsonl; exit 1; }
		done
		kill $MOCK_PID
		wait $MOCK_PID 2>/dev/null || :
	done
'

test_expect_success 'endpoint types in any case name the artifact directory canonically' '
	start_mock --fast &&
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin --request-count 1 \
		--isl 8 --osl 2 --endpoint-type Responses >out 2>err &&
	test -s artifacts/test_model-openai-responses-concurrency1/profile_export_aiperf.json &&
	grep -q "^CLI Command: .*--endpoint-type responses" out &&
	kill $MOCK_PID
'

test_expect_success 'image_retrieval: Image Retrieval Metrics, image metrics, no token metrics' '
	start_mock --fast &&
	run ir "Image Retrieval Metrics" --endpoint-type image_retrieval \
		--image-width-mean 8 --image-height-mean 8 &&
	grep -q "Image Throughput (images/sec)" out &&
	test "$(jq .num_images.avg ir/profile_export_aiperf.json)" = 1 &&
	test "$(jq ".input_sequence_length // 0" ir/profile_export_aiperf.json)" = 0 &&
	kill $MOCK_PID
'

test_expect_success 'image_retrieval without images: the run stops, nothing sent' '
	mkdir ir0 && cd ir0 &&
	test_expect_code 1 prof --endpoint-type image_retrieval >out 2>err &&
	grep -q "requires at least one image" err
'

test_done
