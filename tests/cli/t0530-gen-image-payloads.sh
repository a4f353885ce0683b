#!/bin/sh
# aiperf-gen payloads of the image endpoints (issue #17), byte for byte as
# the original builds them (spec 6.3; src/aiperf/endpoints/
# openai_image_generation.py, nim_image_retrieval.py): image_generation
# sends the first text as the prompt with response_format b64_json and n 1
# (extras override them) and "stream" only when streaming; image_retrieval
# sends every image as an image_url item, no model, and stops on turns
# without images, on a second turn, and warns once about max_tokens.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1"

# the record's own fields: path, stream, max_tokens
head_of() {
	sed -e 's/.*"endpoint_type"/"endpoint_type"/' -e 's/,"payload".*//'
}

test_expect_success 'image_generation: prompt, model, response_format, n; the path' '
	$G --endpoint-type image_generation | payload_t >got &&
	echo "{\"prompt\":\"T\",\"model\":\"m\",\"response_format\":\"b64_json\",\"n\":1}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type image_generation | head_of >got &&
	echo "\"endpoint_type\":\"image_generation\",\"path\":\"/v1/images/generations\",\"stream\":false" >expect &&
	test_cmp expect got
'

test_expect_success 'image_generation: streaming adds stream true; extras come after and override' '
	$G --endpoint-type image_generation --streaming --extra-inputs n:2 \
		--extra-inputs size:512x512 --extra-inputs response_format:url | payload_t >got &&
	echo "{\"prompt\":\"T\",\"model\":\"m\",\"response_format\":\"url\",\"n\":2,\"stream\":true,\"size\":\"512x512\"}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type image_generation --streaming | head_of >got &&
	echo "\"endpoint_type\":\"image_generation\",\"path\":\"/v1/images/generations\",\"stream\":true" >expect &&
	test_cmp expect got
'

test_expect_success 'image_generation: no max_tokens in the body or the record, even with --osl' '
	$G --endpoint-type image_generation --osl 9 >r &&
	! grep -q max_tokens r
'

test_expect_success 'image_generation: the first text of a dataset entry is the prompt' '
	printf "%s\n" "{\"texts\":[\"a red fox\",\"ignored\"]}" >ds.jsonl &&
	aiperf-gen -m m --tokenizer builtin --input-file ds.jsonl --custom-dataset-type single_turn \
		--endpoint-type image_generation --request-count 1 | sed "s/.*\"payload\"://; s/}\$//" >got &&
	echo "{\"prompt\":\"a red fox\",\"model\":\"m\",\"response_format\":\"b64_json\",\"n\":1}" >expect &&
	test_cmp expect got
'

# the same images as t0505 sends in its chat payload (seed 42)
test_expect_success 'image_retrieval (golden, seed 42): image_url items, no model, no stream' '
	aiperf-gen -m m --tokenizer builtin --random-seed 42 --num-dataset-entries 1 \
		--request-count 1 --isl 3 --image-width-mean 4 --image-height-mean 3 \
		--image-batch-size 2 --endpoint-type image_retrieval >r &&
	sed "s/.*\"payload\"://; s/}\$//" <r >got &&
	cat >want <<-\EOT &&
	{"input":[{"type":"image_url","url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAAXNSR0IArs4c6QAAADBJREFUCJljbKhqYOZRZWBg/PvlNgurkOzP1wYMDAzsoj9Yfr97wsp/kYGR8ff7JwD4UA5jfG/KTQAAAABJRU5ErkJggg=="},{"type":"image_url","url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAAXNSR0IArs4c6QAAACxJREFUCJkFwYENgCAAA7CykJjwiZ7jEVzC3dN27PcsvVg68/QDlZm7ZFD5Ab0RCLI5EFHGAAAAAElFTkSuQmCC"}]}
	EOT
	test_cmp want got &&
	head_of <r >got &&
	echo "\"endpoint_type\":\"image_retrieval\",\"path\":\"/v1/infer\",\"stream\":false" >expect &&
	test_cmp expect got &&
	grep -q "^{\"schema\":\"aiperf.request/1\",.*\"model\":\"m\",\"endpoint_type\"" r
'

test_expect_success 'image_retrieval: every image decodes as the PNG asked for; extras after input' '
	aiperf-gen -m m --tokenizer builtin --random-seed 5 --num-dataset-entries 2 \
		--request-count 2 --isl 3 --image-width-mean 12 --image-height-mean 7 \
		--image-batch-size 3 --endpoint-type image_retrieval \
		--extra-inputs threshold:0.5 >r &&
	$PY -c "
import base64, io, json, sys
from PIL import Image
for line in open(\"r\"):
    p = json.loads(line)[\"payload\"]
    assert list(p) == [\"input\", \"threshold\"] and p[\"threshold\"] == 0.5, p.keys()
    assert len(p[\"input\"]) == 3
    for it in p[\"input\"]:
        assert list(it) == [\"type\", \"url\"] and it[\"type\"] == \"image_url\"
        head, b64 = it[\"url\"].split(\",\", 1)
        assert head == \"data:image/png;base64\", head
        im = Image.open(io.BytesIO(base64.b64decode(b64)))
        print(im.format, im.size)
" >got &&
	printf "PNG (12, 7)\n%.0s" 1 2 3 4 5 6 >want &&
	test_cmp want got
'

test_expect_success 'image_retrieval: a dataset image file becomes a data URL' '
	$PY -c "
from PIL import Image
Image.new(\"RGB\", (5, 4), (9, 8, 7)).save(\"pic.png\")" &&
	printf "%s\n" "{\"text\":\"find the table\",\"image\":\"pic.png\"}" >ds.jsonl &&
	aiperf-gen -m m --tokenizer builtin --input-file ds.jsonl --custom-dataset-type single_turn \
		--endpoint-type image_retrieval --request-count 1 >r &&
	$PY -c "
import base64, json
p = json.loads(open(\"r\").read())[\"payload\"]
url = p[\"input\"][0][\"url\"]
assert url == \"data:image/png;base64,\" + base64.b64encode(open(\"pic.png\", \"rb\").read()).decode(), url[:60]
assert len(p[\"input\"]) == 1 and \"model\" not in p
"
'

test_expect_success 'image_retrieval: no image stops with the original message' '
	test_expect_code 1 $G --endpoint-type image_retrieval >out 2>err &&
	grep -q "^aiperf-gen: Image Retrieval request requires at least one image" err &&
	test ! -s out
'

test_expect_success 'image_retrieval: a second turn stops; max_tokens is warned about once' '
	test_expect_code 1 $G --endpoint-type image_retrieval --conversation-turn-mean 2 \
		--image-width-mean 4 --image-height-mean 3 >out 2>err &&
	grep -q "Image Retrieval endpoint only supports one turn" err &&
	aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 \
		--request-count 3 --num-dataset-entries 3 --endpoint-type image_retrieval \
		--image-width-mean 4 --image-height-mean 3 --osl 4 >out 2>err &&
	test "$(grep -c "Max_tokens is provided but is not supported for Image Retrieval" err)" -eq 1 &&
	! grep -q max_tokens out
'

test_expect_success 'image_generation: an entry without text stops with the original message' '
	$PY -c "
from PIL import Image
Image.new(\"RGB\", (5, 4)).save(\"pic.png\")" &&
	printf "%s\n" "{\"image\":\"pic.png\"}" >ds.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file ds.jsonl \
		--custom-dataset-type single_turn --endpoint-type image_generation \
		--request-count 1 >out 2>err &&
	grep -q "Image generation endpoint requires text prompt in first turn" err
'

test_expect_success 'image_retrieval does not stream: --streaming is ignored with a warning' '
	$G --endpoint-type image_retrieval --streaming --image-width-mean 4 \
		--image-height-mean 3 2>err | head_of >got &&
	grep -q "does not stream; ignoring --streaming" err &&
	echo "\"endpoint_type\":\"image_retrieval\",\"path\":\"/v1/infer\",\"stream\":false" >expect &&
	test_cmp expect got
'

test_done
