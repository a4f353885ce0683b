#!/bin/sh
# The image endpoints end to end (issue #17): aiperf profile
# --endpoint-type image_generation (streamed and not) and image_retrieval
# against aiperf-mock write every artifact with the original's metric set:
# Image Generation Metrics has no token output metrics and, as the
# original's TTFT needs an endpoint that produces tokens, no streaming
# metrics; Image Retrieval Metrics has Image Throughput (ord 860) and Image
# Latency (861) after Request Latency, each record's values checked against
# its num_images and request latency in Python; chat with images shows
# them too; --goodput takes the image metrics only where they apply; an
# endpoint failing every request gives error records.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3

start_mock --ttft-ms 2 --itl-ms 1 --image-retrieval-base-latency 3 \
	--image-retrieval-per-image-latency 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --request-count 3 "$@"
}

# rows DIR: the console table's metric names, in order
rows() {
	sed -n "s/^│ *\([A-Z][^│]*[^ ]\) *│.*/\1/p" "$1"
}

test_expect_success 'image_generation: Image Generation Metrics, latency, ISL, no token metrics' '
	prof --endpoint-type image_generation --artifact-dir g >out 2>err || { cat err; exit 1; } &&
	grep -q "NVIDIA AIPerf | Image Generation Metrics *\$" out &&
	rows out >got &&
	printf "%s\n" "Request Latency (ms)" "Input Sequence Length (tokens)" \
		"Request Throughput (requests/sec)" "Request Count (requests)" >expect &&
	test_cmp expect got &&
	for f in profile_export_aiperf.json profile_export_aiperf.csv profile_export.jsonl inputs.json; do
		test -s g/$f || { echo "no $f"; exit 1; }
	done &&
	test "$(jq .request_count.avg g/profile_export_aiperf.json)" = 3 &&
	test "$(jq .input_sequence_length.avg g/profile_export_aiperf.json)" = 16 &&
	jq -e "[.data[].payloads[0] | keys_unsorted] | all(. == [\"prompt\", \"model\", \"response_format\", \"n\"])" \
		g/inputs.json >/dev/null &&
	! grep -q "Output\|Time to" g/profile_export_aiperf.csv
'

test_expect_success 'image_generation streamed with partial images: still no TTFT or ITL' '
	prof --endpoint-type image_generation --streaming --extra-inputs partial_images:2 \
		--artifact-dir gs >out 2>err || { cat err; exit 1; } &&
	rows out >got &&
	printf "%s\n" "Request Latency (ms)" "Input Sequence Length (tokens)" \
		"Request Throughput (requests/sec)" "Request Count (requests)" >expect &&
	test_cmp expect got &&
	jq -e ".time_to_first_token == null and .inter_chunk_latency == null and
		.error_request_count == null" gs/profile_export_aiperf.json >/dev/null &&
	jq -e "[.data[].payloads[0].stream] | all" gs/inputs.json >/dev/null
'

test_expect_success 'image_retrieval: image metrics after request latency, in every artifact' '
	prof --endpoint-type image_retrieval --image-width-mean 8 --image-height-mean 8 \
		--image-batch-size 2 --artifact-dir r >out 2>err || { cat err; exit 1; } &&
	grep -q "NVIDIA AIPerf | Image Retrieval Metrics *\$" out &&
	rows out >got &&
	printf "%s\n" "Request Latency (ms)" "Image Throughput (images/sec)" \
		"Image Latency (ms/image)" "Request Throughput (requests/sec)" \
		"Request Count (requests)" >expect &&
	test_cmp expect got &&
	grep -q "^Image Throughput (images/sec),[0-9]" r/profile_export_aiperf.csv &&
	grep -q "^Image Latency (ms/image),[0-9]" r/profile_export_aiperf.csv &&
	grep -q "^Number of Images (images),2.00," r/profile_export_aiperf.csv &&
	jq -e ".num_images.unit == \"images\" and .image_throughput.unit == \"images/sec\" and
		.image_latency.unit == \"ms/image\" and .input_sequence_length == null" \
		r/profile_export_aiperf.json >/dev/null
'

test_expect_success 'image_retrieval: each record as num_images / latency; the summary their mean' '
	$PY -c "
import json
recs = [json.loads(l)[\"metrics\"] for l in open(\"r/profile_export.jsonl\")]
assert len(recs) == 3
for m in recs:
    n, lat = m[\"num_images\"][\"value\"], m[\"request_latency\"][\"value\"]
    assert n == 2
    assert abs(m[\"image_throughput\"][\"value\"] - n / (lat / 1e3)) <= 1e-9 * n / (lat / 1e3), m
    assert abs(m[\"image_latency\"][\"value\"] - lat / n) <= 1e-12 * lat, m
s = json.load(open(\"r/profile_export_aiperf.json\"))
for k in (\"image_throughput\", \"image_latency\", \"num_images\"):
    want = sum(m[k][\"value\"] for m in recs) / 3
    assert abs(s[k][\"avg\"] - want) <= 1e-9 * want, (k, s[k][\"avg\"], want)
"
'

test_expect_success 'chat with images: image metrics between token throughput and request throughput' '
	prof --image-width-mean 8 --image-height-mean 8 --osl 4 --artifact-dir c >out 2>err ||
		{ cat err; exit 1; } &&
	rows out >got &&
	sed -n "/^Output Token Throughput/,/^Request Throughput/p" got >mid &&
	printf "%s\n" "Output Token Throughput (tokens/sec)" "Image Throughput (images/sec)" \
		"Image Latency (ms/image)" "Request Throughput (requests/sec)" >expect &&
	test_cmp expect mid
'

test_expect_success '--goodput on the image metrics: endpoints taking images only' '
	aiperf-export --check --endpoint-type image_retrieval --goodput image_latency:50 </dev/null &&
	aiperf-export --check --endpoint-type chat --goodput "image_throughput:1 num_images:1" </dev/null &&
	test_expect_code 2 aiperf-export --check --endpoint-type image_generation \
		--goodput image_latency:50 </dev/null 2>err &&
	grep -q "Invalid --goodput: metric(s) image_latency are not applicable" err
'

test_expect_success 'every request failing: error records, exit status 3' '
	kill $MOCK_PID &&
	start_mock --fast --error-rate 100 &&
	st=0 && prof --endpoint-type image_generation --artifact-dir e >out 2>err || st=$?
	test $st -eq 3 && grep -q "every request failed (3 of 3)" err &&
	test "$(jq -c "select(.error.code == 500)" e/profile_export.jsonl | wc -l)" -eq 3 &&
	kill $MOCK_PID
'

test_done
