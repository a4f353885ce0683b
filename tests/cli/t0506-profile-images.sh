#!/bin/sh
# Images end to end (issue #17): aiperf profile with --image-width-mean 64
# --image-height-mean 64 against aiperf-mock (which takes chat content
# arrays), and single_turn / multi_turn files whose image fields hold local
# paths (read, typed from their content, sent as data: URLs) and URLs
# (passed through); a missing file and a file that is no image stop the
# run with the line named; random_pool files carry images too.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
CHECK=$TOP/tests/cli/image-check.py
$PY -c 'import PIL' 2>/dev/null || test_skip_all "no python3-pil"

start_mock --ttft-ms 1 --itl-ms 1

prof() {
	aiperf profile --model test/model --tokenizer builtin --random-seed 7 \
		--url "$MOCK_URL" --isl 16 --osl 6 "$@"
}

test_expect_success 'profile --image-width-mean 64 --image-height-mean 64: no errors' '
	prof --request-count 4 --image-width-mean 64 --image-height-mean 64 \
		--image-format jpeg --artifact-dir p >out 2>err || { cat err; exit 1; } &&
	j=p/profile_export_aiperf.json &&
	test "$(jq .request_count.avg "$j")" = 4 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	jq -e ".input_config.input.image.width.mean == 64 and
		.input_config.input.image.format == \"jpeg\"" "$j" >/dev/null &&
	test "$(jq "[.data[].payloads[0].messages[0].content[1].image_url.url |
		startswith(\"data:image/jpeg;base64,<elided: \")] | all" p/inputs.json)" = true
'

test_expect_success 'the same with --inputs-json-full-media: 64x64 JPEGs in inputs.json' '
	prof --request-count 2 --image-width-mean 64 --image-height-mean 64 \
		--image-format jpeg --inputs-json-full-media --artifact-dir f >out 2>err ||
		{ cat err; exit 1; } &&
	$PY "$CHECK" <f/inputs.json | sort -u >got &&
	echo "image/jpeg JPEG 64x64" >want &&
	test_cmp want got
'

mkimages() {
	$PY -c '
from PIL import Image
Image.new("RGB", (8, 6), (255, 0, 0)).save("red.png")
Image.new("RGB", (5, 4), (0, 0, 255)).save("blue.jpg")
Image.new("RGB", (3, 3), (0, 255, 0)).save("green.gif")
'
}

test_expect_success 'single_turn file: paths encoded from their content, URLs as they are' '
	mkimages &&
	cp red.png red.bin &&
	cat >st.jsonl <<-\EOT &&
	{"text": "what is this", "image": "red.png"}
	{"text": "and these", "images": ["blue.jpg", "https://example.com/cat.png", "red.bin"]}
	{"images": [{"name": "x", "contents": ["green.gif"]}]}
	EOT
	aiperf-gen -m m --tokenizer builtin --input-file st.jsonl \
		--custom-dataset-type single_turn --request-count 3 >r.jsonl &&
	jq -c "[.payload.messages[0].content[] | .text // (.image_url.url | .[0:22])]" r.jsonl >got &&
	cat >want <<-\EOT &&
	["what is this","data:image/png;base64,"]
	["and these","data:image/jpeg;base64","https://example.com/ca","data:image/png;base64,"]
	["data:image/gif;base64,"]
	EOT
	test_cmp want got &&
	jq -r "[.payload.messages[0].content[].image_url.url | select(. and startswith(\"data:\"))] | .[]" \
		r.jsonl | while read -r u; do printf %s "${u#*,}" | base64 -d | sha256sum; done |
		cut -d" " -f1 >got &&
	for f in red.png blue.jpg red.png green.gif; do sha256sum <"$f"; done | cut -d" " -f1 >want &&
	test_cmp want got
'

test_expect_success 'multi_turn file with images, end to end against the mock' '
	mkimages &&
	cat >mt.jsonl <<-\EOT &&
	{"session_id": "a", "turns": [{"text": "one", "image": "red.png"}, {"text": "two", "images": ["blue.jpg", "https://example.com/x.jpg"]}]}
	EOT
	prof --input-file mt.jsonl --custom-dataset-type multi_turn --request-count 2 \
		--artifact-dir m >out 2>err || { cat err; exit 1; } &&
	test "$(jq ".error_request_count.avg // 0" m/profile_export_aiperf.json)" = 0 &&
	test "$(jq .request_count.avg m/profile_export_aiperf.json)" = 2 &&
	jq -e ".data[0].payloads[1].messages[0].content[2].image_url.url ==
		\"https://example.com/x.jpg\"" m/inputs.json >/dev/null
'

test_expect_success 'random_pool file with images, end to end against the mock' '
	mkimages &&
	echo "{\"type\": \"random_pool\", \"text\": \"x\", \"image\": \"red.png\"}" >c.jsonl &&
	prof --input-file c.jsonl --num-sessions 3 --artifact-dir rp >out 2>err ||
		{ cat err; exit 1; } &&
	test "$(jq ".error_request_count.avg // 0" rp/profile_export_aiperf.json)" = 0 &&
	test "$(jq .request_count.avg rp/profile_export_aiperf.json)" = 3 &&
	jq -e "[.data[].payloads[0].messages[0].content[1].image_url.url |
		startswith(\"data:image/png;base64,\")] | all" rp/inputs.json >/dev/null
'

test_expect_success 'hostile files: missing, not an image, random_pool missing image' '
	echo "not an image" >notimg.txt &&
	echo "{\"text\": \"x\", \"image\": \"missing.png\"}" >a.jsonl &&
	echo "{\"text\": \"x\", \"images\": [\"notimg.txt\"]}" >b.jsonl &&
	echo "{\"type\": \"random_pool\", \"text\": \"x\", \"image\": \"missing.png\"}" >c.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file a.jsonl \
		--custom-dataset-type single_turn --request-count 1 2>err &&
	grep -q "a.jsonl:1: image .missing.png.: No such file or directory" err &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file b.jsonl \
		--custom-dataset-type single_turn --request-count 1 2>err &&
	grep -q "b.jsonl:1: image .notimg.txt.: not an image" err &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file c.jsonl \
		--request-count 1 2>err &&
	grep -q "c.jsonl:1: image .missing.png.: No such file or directory" err
'

test_done
