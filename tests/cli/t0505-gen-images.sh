#!/bin/sh
# aiperf-gen synthetic images (issue #17): every image decodes with PIL at
# its drawn size and asked format, is a bicubic resampling of a shipped
# source picture, sizes and formats repeat with --random-seed, the chat
# payload has spec 6.3's image_url parts (golden, fixed seed), inputs.json
# holds a digest in place of base64 unless --inputs-json-full-media, and
# bad sizes and formats stop with a clear error.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
CHECK=$TOP/tests/cli/image-check.py
$PY -c 'import PIL' 2>/dev/null || test_skip_all "no python3-pil"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 3 --isl 4 "$@"
}

test_expect_success 'PNG at a fixed size: every image opens with PIL, 64x48' '
	gen --num-dataset-entries 3 --request-count 3 --image-width-mean 64 \
		--image-height-mean 48 >r.jsonl &&
	$PY "$CHECK" --resample "$TOP/data/images" <r.jsonl >got &&
	printf "image/png PNG 64x48\n%.0s" 1 2 3 >want &&
	test_cmp want got
'

test_expect_success 'JPEG, batch of 2, drawn sizes: PIL reads JPEG at each size' '
	gen --num-dataset-entries 4 --request-count 4 --image-width-mean 90 \
		--image-width-stddev 20 --image-height-mean 60 --image-height-stddev 10 \
		--image-format jpeg --batch-size-image 2 >r.jsonl &&
	$PY "$CHECK" --resample "$TOP/data/images" <r.jsonl >got &&
	test "$(wc -l <got)" -eq 8 &&
	! grep -v "^image/jpeg JPEG [0-9]*x[0-9]*\$" got &&
	test "$(sort -u got | wc -l)" -gt 1
'

test_expect_success 'random format: both, and the same draws again with the seed' '
	gen --num-dataset-entries 12 --request-count 12 --image-width-mean 20 \
		--image-width-stddev 8 --image-height-mean 20 --image-format random >a &&
	gen --num-dataset-entries 12 --request-count 12 --image-width-mean 20 \
		--image-width-stddev 8 --image-height-mean 20 --image-format random >b &&
	cmp a b &&
	$PY "$CHECK" <a >got &&
	grep -q "^image/png PNG" got && grep -q "^image/jpeg JPEG" got &&
	gen --random-seed 4 --num-dataset-entries 12 --request-count 12 \
		--image-width-mean 20 --image-width-stddev 8 --image-height-mean 20 \
		--image-format random >c &&
	! cmp -s a c
'

test_expect_success 'the chat payload (golden, seed 42): text part, then image_url parts' '
	aiperf-gen -m m --tokenizer builtin --random-seed 42 --num-dataset-entries 1 \
		--request-count 1 --isl 3 --image-width-mean 4 --image-height-mean 3 \
		--image-batch-size 2 | sed "s/.*\"payload\"://; s/}\$//" >got &&
	cat >want <<-\EOT &&
	{"messages":[{"role":"user","content":[{"type":"text","text":" MERCUTIO"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAAXNSR0IArs4c6QAAADBJREFUCJljbKhqYOZRZWBg/PvlNgurkOzP1wYMDAzsoj9Yfr97wsp/kYGR8ff7JwD4UA5jfG/KTQAAAABJRU5ErkJggg=="}},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAAXNSR0IArs4c6QAAACxJREFUCJkFwYENgCAAA7CykJjwiZ7jEVzC3dN27PcsvVg68/QDlZm7ZFD5Ab0RCLI5EFHGAAAAAElFTkSuQmCC"}}]}],"model":"m","stream":false}
	EOT
	test_cmp want got
'

test_expect_success 'no images without both means, nor with --image-batch-size 0' '
	gen --request-count 1 --image-width-mean 64 >a &&
	gen --request-count 1 --image-width-mean 64 --image-height-mean 64 \
		--image-batch-size 0 >b &&
	! grep -q image_url a && ! grep -q image_url b
'

test_expect_success 'inputs.json: type, length and SHA-256 of each image; whole with the flag' '
	gen --num-dataset-entries 2 --request-count 2 --image-width-mean 40 \
		--image-height-mean 30 --inputs-json in.json >/dev/null &&
	gen --num-dataset-entries 2 --request-count 2 --image-width-mean 40 \
		--image-height-mean 30 --inputs-json full.json --inputs-json-full-media >/dev/null &&
	$PY "$CHECK" <full.json >got && test "$(wc -l <got)" -eq 2 &&
	test "$(wc -c <in.json)" -lt 2000 &&
	jq -r ".data[].payloads[0].messages[0].content[1].image_url.url" full.json |
		while read -r u; do
			b=${u#*,}
			printf "data:image/png;base64,<elided: %d base64 chars, sha256 %s>\n" \
				"${#b}" "$(printf %s "$b" | base64 -d | sha256sum | cut -d" " -f1)"
		done >want &&
	jq -r ".data[].payloads[0].messages[0].content[1].image_url.url" in.json >got &&
	test_cmp want got
'

test_expect_success 'hostile sizes and formats: clear errors' '
	test_expect_code 1 gen --request-count 1 --image-width-mean 20000 \
		--image-height-mean 10 2>err &&
	grep -q "synthetic image of 20000x10 pixels: image too large" err &&
	test_expect_code 1 gen --request-count 1 --image-width-mean 9000 \
		--image-height-mean 9000 2>err &&
	grep -q "image too large" err &&
	test_expect_code 2 gen --request-count 1 --image-width-mean 8 \
		--image-height-mean 8 --image-format gif 2>err &&
	grep -q "image-format" err &&
	test_expect_code 2 gen --request-count 1 --image-width-mean -3 2>err &&
	grep -q "image-width-mean" err
'

test_expect_success 'no source pictures: the error names the folder' '
	mkdir empty &&
	ln -s "$TOP/data/o200k_base.tiktoken.zst" "$TOP/data/corpus" empty/ &&
	AIPERF_DATA_DIR=$PWD/empty test_expect_code 1 gen --request-count 1 \
		--image-width-mean 8 --image-height-mean 8 2>err &&
	grep -q "no source images .*empty/images/source-\*.png" err
'

test_done
