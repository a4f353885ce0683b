#!/bin/sh
# aiperf-mock's image routes (issue #17): POST /v1/images/generations
# answers as the OpenAI images API (data[] of b64_json, a real PNG, or url,
# n images, the settings, usage), streams image_generation.partial_image
# and image_generation.completed events (each with a top-level b64_json,
# what the original parses); POST /v1/infer (and /v1/image/infer) answers
# as NIM image retrieval, deterministic boxes per image; bad requests get
# 400, --error-rate the injected 500.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
$PY -c 'import PIL' 2>/dev/null || test_skip_all "no python3-pil"

curl() {
	command curl --max-time 30 "$@"
}

start_mock --fast

test_expect_success 'generations: n PNG images as b64_json, revised_prompt, settings, usage' '
	curl -sf -d "{\"prompt\":\"a red fox\",\"model\":\"m\",\"n\":3,\"size\":\"256x256\"}" \
		"$MOCK_URL/v1/images/generations" >out &&
	$PY -c "
import base64, io, json
from PIL import Image
b = json.load(open(\"out\"))
assert list(b) == [\"created\", \"data\", \"background\", \"output_format\", \"quality\",
                   \"size\", \"usage\", \"aiperf_send_ns\"], list(b)
assert len(b[\"data\"]) == 3 and b[\"size\"] == \"256x256\" and b[\"output_format\"] == \"png\"
for d in b[\"data\"]:
    assert d[\"revised_prompt\"] == \"a red fox\" and \"url\" not in d
    im = Image.open(io.BytesIO(base64.b64decode(d[\"b64_json\"])))
    im.load()
    assert im.format == \"PNG\" and im.size == (8, 8), (im.format, im.size)
u = b[\"usage\"]
assert u[\"output_tokens\"] == 3 * 272 and u[\"total_tokens\"] == u[\"input_tokens\"] + u[\"output_tokens\"]
assert u[\"input_tokens\"] == u[\"input_tokens_details\"][\"text_tokens\"] > 0
"
'

test_expect_success 'generations: response_format url gives urls' '
	curl -sf -d "{\"prompt\":\"x\",\"response_format\":\"url\",\"n\":2}" \
		"$MOCK_URL/v1/images/generations" >out &&
	jq -e "(.data | length) == 2 and (.data | all(has(\"url\") and (has(\"b64_json\") | not))) and
		(.data[0].url | test(\"^https://aiperf-mock.invalid/images/[0-9]+-0.png\$\"))" out >/dev/null
'

test_expect_success 'generations, streamed: partial images then completed, per image; usage last' '
	curl -sf -D head -d "{\"prompt\":\"x\",\"stream\":true,\"n\":2,\"partial_images\":2}" \
		"$MOCK_URL/v1/images/generations" >out &&
	grep -qi "^content-type: text/event-stream" head &&
	grep "^event: " out | sed "s/^event: //" >got &&
	printf "%s\n" image_generation.partial_image image_generation.partial_image \
		image_generation.completed image_generation.partial_image \
		image_generation.partial_image image_generation.completed >expect &&
	test_cmp expect got &&
	sed -n "s/^data: //p" out >events &&
	jq -s -c "[.[] | [.type == (if has(\"partial_image_index\") then \"image_generation.partial_image\" else \"image_generation.completed\" end), .partial_image_index, (.b64_json | length > 0), has(\"usage\")]]" events >got &&
	echo "[[true,0,true,false],[true,1,true,false],[true,null,true,false],[true,0,true,false],[true,1,true,false],[true,null,true,true]]" >expect &&
	test_cmp expect got
'

test_expect_success 'generations, streamed without partial_images: one completed event per image' '
	curl -sf -d "{\"prompt\":\"x\",\"stream\":true}" "$MOCK_URL/v1/images/generations" >out &&
	test "$(grep -c "^event: image_generation.completed" out)" -eq 1 &&
	! grep -q partial_image out
'

test_expect_success 'generations: requests the API refuses get 400' '
	for b in "{\"model\":\"m\"}" "{\"prompt\":7}" "{\"prompt\":\"x\",\"n\":0}" \
		"{\"prompt\":\"x\",\"n\":11}" "{\"prompt\":\"x\",\"response_format\":\"gif\"}" \
		"{\"prompt\":\"x\",\"partial_images\":4}" "[1]" "not json"; do
		code=$(curl -s -o out -w "%{http_code}" -d "$b" "$MOCK_URL/v1/images/generations") &&
		test "$code" = 400 && jq -e ".error.type == \"invalid_request_error\"" out >/dev/null ||
			{ echo "$b -> $code"; cat out; exit 1; }
	done
'

IMGS='{"input":[{"type":"image_url","url":"data:image/png;base64,AAAA"},{"type":"image_url","url":"http://x/b.png"}]}'

test_expect_success '/v1/infer: data per image, index and bounding boxes in [0,1], usage' '
	curl -sf -d "$IMGS" "$MOCK_URL/v1/infer" >out &&
	$PY -c "
import json
b = json.load(open(\"out\"))
assert [d[\"index\"] for d in b[\"data\"]] == [0, 1]
for d in b[\"data\"]:
    assert 1 <= len(d[\"bounding_boxes\"]) <= 3
    for cat, boxes in d[\"bounding_boxes\"].items():
        assert cat in (\"title\", \"table\", \"figure\", \"text\", \"header\", \"footer\"), cat
        for x in boxes:
            assert 0 <= x[\"x_min\"] < x[\"x_max\"] <= 1 and 0 <= x[\"y_min\"] < x[\"y_max\"] <= 1, x
            assert 0.7 <= x[\"confidence\"] <= 1
assert b[\"usage\"][\"images_size_mb\"] >= 0
"
'

test_expect_success '/v1/infer: the same image, the same boxes; /v1/image/infer is the same route' '
	curl -sf -d "$IMGS" "$MOCK_URL/v1/infer" | jq -c .data >a &&
	curl -sf -d "$IMGS" "$MOCK_URL/v1/image/infer" | jq -c .data >b &&
	test_cmp a b
'

test_expect_success '/v1/infer: an empty or malformed input gets 400' '
	for b in "{\"input\":[]}" "{}" "{\"input\":[{\"type\":\"image_url\"}]}" "{\"input\":[5]}"; do
		code=$(curl -s -o out -w "%{http_code}" -d "$b" "$MOCK_URL/v1/infer") &&
		test "$code" = 400 || { echo "$b -> $code"; exit 1; }
	done
'

test_expect_success '/metrics counts the image routes' '
	curl -sf "$MOCK_URL/metrics" >m &&
	grep -q "^aiperf_mock_requests_total{route=\"images_generations\"} [1-9]" m &&
	grep -q "^aiperf_mock_requests_total{route=\"infer\"} [1-9]" m &&
	kill $MOCK_PID
'

test_expect_success '--error-rate 100: both routes answer the injected 500' '
	start_mock --fast --error-rate 100 &&
	code=$(curl -s -o out -w "%{http_code}" -d "{\"prompt\":\"x\"}" "$MOCK_URL/v1/images/generations") &&
	test "$code" = 500 && grep -q "Simulated error" out &&
	code=$(curl -s -o out -w "%{http_code}" -d "$IMGS" "$MOCK_URL/v1/infer") &&
	test "$code" = 500 &&
	kill $MOCK_PID
'

test_done
