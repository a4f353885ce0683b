#!/bin/sh
# aiperf-metrics on the image endpoints (issue #17), from response bodies of
# the public API references (tests/cli/bodies/SOURCES): image_generation
# bodies (data[] of b64_json or url, streamed partial-image events) are
# content with no token output metrics, no TTFT even streamed (the
# original's TTFT needs an endpoint that produces tokens), ISL from the
# prompt and usage_prompt_tokens from input_tokens; image_retrieval gives
# num_images, image_throughput and image_latency (checked against numbers
# computed here with Python), no ISL; chat and Responses image parts count
# too. Hostile bodies give one clear error record each, nothing lost.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
B=$TOP/tests/cli/bodies
REC="python3 $TOP/tests/cli/endpoint-record.py"
GENP='{"prompt":"a red fox","model":"m","response_format":"b64_json","n":1}'
IMGS='{"input":[{"type":"image_url","url":"data:image/png;base64,AA"},{"type":"image_url","url":"http://x/b.png"}]}'

# rec ET MODE FILE PAYLOAD: the raw record with that request body
rec() {
	$REC "$1" "$2" "$3" | jq -c ".payload = $4"
}

# tags: the metric tags of each record, in order
tags() {
	jq -c "[.metrics | keys_unsorted[]]"
}

test_expect_success 'image_generation, b64_json body: request latency, ISL, usage; no token or image metrics' '
	rec image_generation body "$B/images.json" "$GENP" | aiperf-metrics --tokenizer test:words >m &&
	tags <m >got &&
	echo "[\"input_sequence_length\",\"request_latency\",\"usage_prompt_tokens\",\"usage_prompt_tokens_diff_pct\"]" >expect &&
	test_cmp expect got &&
	jq -c "[.metrics.input_sequence_length.value, .metrics.request_latency.value,
		.metrics.usage_prompt_tokens.value]" m >got &&
	echo "[3,0.008,50]" >expect &&
	test_cmp expect got &&
	$PY -c "
import json
m = json.load(open(\"m\"))[\"metrics\"]
assert m[\"usage_prompt_tokens_diff_pct\"][\"value\"] == abs(50 - 3) / 3 * 100.0
assert m[\"request_latency\"][\"value\"] == 8000 * (1e3 / 1e9)
"
'

test_expect_success 'image_generation, url body with two images: the same metrics' '
	rec image_generation body "$B/images-url.json" "$GENP" | aiperf-metrics --tokenizer test:words |
		tags >got &&
	echo "[\"input_sequence_length\",\"request_latency\"]" >expect &&
	test_cmp expect got
'

test_expect_success 'image_generation streamed: latency to the completed event, no TTFT, ITL or ICL' '
	rec image_generation stream "$B/images-stream.sse" "$GENP" |
		jq -c ".aiperf.stream = true" | aiperf-metrics --tokenizer test:words >m &&
	tags <m >got &&
	echo "[\"input_sequence_length\",\"request_latency\",\"usage_prompt_tokens\",\"usage_prompt_tokens_diff_pct\"]" >expect &&
	test_cmp expect got &&
	test "$(jq .metrics.request_latency.value m)" = 0.003
'

test_expect_success 'image_generation with server token counts: ISL from usage input_tokens' '
	rec image_generation stream "$B/images-stream.sse" "$GENP" |
		aiperf-metrics --use-server-token-count |
		jq -c "[.metrics.input_sequence_length.value, .metrics.output_sequence_length.value]" >got &&
	echo "[50,null]" >expect &&
	test_cmp expect got
'

test_expect_success 'image_retrieval: num_images, image_throughput, image_latency as computed here' '
	rec image_retrieval body "$B/nim-image-retrieval.json" "$IMGS" |
		aiperf-metrics --tokenizer test:words >m &&
	tags <m >got &&
	echo "[\"request_latency\",\"num_images\",\"image_throughput\",\"image_latency\"]" >expect &&
	test_cmp expect got &&
	$PY -c "
import json
m = json.load(open(\"m\"))[\"metrics\"]
lat_ns, n = 9000 - 1000, 2
want = {\"num_images\": (n, \"images\"),
        \"image_throughput\": (n / (lat_ns * (1 / 1e9)), \"images/sec\"),
        \"image_latency\": (lat_ns * (1e3 / 1e9) / n, \"ms/image\")}
for k, (v, u) in want.items():
    assert (m[k][\"value\"], m[k][\"unit\"]) == (v, u), (k, m[k], v)
    assert type(m[k][\"value\"]) is type(v), k
"
'

test_expect_success 'image metrics for chat image_url and Responses input_image parts' '
	rec chat body "$B/chat.json" "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"u\"}},{\"type\":\"image_url\",\"image_url\":{\"url\":\"v\"}},{\"type\":\"image_url\",\"image_url\":{\"url\":\"w\"}}]}],\"model\":\"m\"}" |
		aiperf-metrics --tokenizer test:words | jq -c .metrics.num_images.value >got &&
	rec responses body "$B/responses.json" "{\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"x\"},{\"type\":\"input_image\",\"image_url\":\"u\"}]}],\"model\":\"m\"}" |
		aiperf-metrics --tokenizer test:words | jq -c .metrics.num_images.value >>got &&
	rec chat body "$B/chat.json" "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"model\":\"m\"}" |
		aiperf-metrics --tokenizer test:words | jq -c .metrics.num_images >>got &&
	printf "3\n1\nnull\n" >expect &&
	test_cmp expect got
'

# The input text of a first record without a text part was cut back in an
# empty buffer (a NULL dereference): its record now, as any other's.
test_expect_success 'a chat request of images only, the first record: its record' '
	rec chat body "$B/chat.json" "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"u\"}},{\"type\":\"image_url\",\"image_url\":{\"url\":\"v\"}}]}],\"model\":\"m\"}" >only.ndjson &&
	aiperf-metrics --tokenizer test:words <only.ndjson >out &&
	test "$(jq -c .metrics.num_images.value out)" = 2 &&
	aiperf-metrics --tokenizer builtin <only.ndjson | jq -e .metrics.request_latency >/dev/null
'

test_expect_success 'image_generation never has image metrics, even with image parts sent' '
	rec image_generation body "$B/images.json" "$IMGS" | aiperf-metrics --tokenizer test:words |
		jq -c .metrics.num_images >got &&
	echo null >expect &&
	test_cmp expect got
'

# body -> error type of its record (null: valid)
test_expect_success 'hostile bodies: one clear error record each, nothing lost' '
	cat >cases <<-\EOT &&
	image_generation	{"data":null}	TypeError	TypeError("'"'"'NoneType'"'"' object is not iterable")
	image_generation	{"data":7}	TypeError	TypeError("'"'"'int'"'"' object is not iterable")
	image_generation	[{"b64_json":"x"}]	AttributeError	AttributeError("'"'"'list'"'"' object has no attribute '"'"'get'"'"'")
	image_generation	{}	InvalidInferenceResultError	InvalidInferenceResultError('"'"'Invalid inference result'"'"')
	image_generation	not json at all	InvalidInferenceResultError	InvalidInferenceResultError('"'"'Invalid inference result'"'"')
	image_generation	{"data":"abc"}	null	null
	image_retrieval	{"data":[]}	InvalidInferenceResultError	InvalidInferenceResultError('"'"'Invalid inference result'"'"')
	image_retrieval	{"data":null,"usage":{}}	InvalidInferenceResultError	InvalidInferenceResultError('"'"'Invalid inference result'"'"')
	image_retrieval	"a string"	AttributeError	AttributeError("'"'"'str'"'"' object has no attribute '"'"'get'"'"'")
	image_retrieval	{"data":{"boxes":1}}	null	null
	EOT
	: >all && : >expect &&
	while IFS="	" read -r et body type msg; do
		printf "%s" "$body" | $REC "$et" body - | jq -c ".payload = $IMGS" >>all &&
		printf "%s\t%s\n" "$type" "$msg" >>expect
	done <cases &&
	aiperf-metrics --tokenizer test:words <all >out &&
	test "$(wc -l <out)" -eq "$(wc -l <cases)" &&
	jq -r "[.error.type // \"null\", .error.message // \"null\"] | @tsv" out >got &&
	test_cmp expect got
'

test_done
